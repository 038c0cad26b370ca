// Package builtin provides the ten built-in tools of toolnexus, each an
// ordinary typed tool (made with [toolnexus.NewResultTool], schema reflected
// from its arguments struct, Source "builtin"):
//
//	name         input (? = optional)                                    does
//	apply_patch  patchText                                               apply a *** Begin Patch patch, all files or none
//	bash         command, workdir?, timeout? (ms), description?          run a shell command (NOT confined, see below)
//	edit         path, oldString, newString, replaceAll?                 exact-string replace in a file
//	glob         pattern, path?, limit?                                  list files matching a glob
//	grep         pattern, path?, include?, limit?                        file:line:text matches of a regexp
//	question     questions[{question, header?, options?, multiple?}]     ask the human (a pending request)
//	read         path, offset? (1-based line), limit? (lines)            read a text file or a window of it
//	todowrite    todos[{id, text, completed?}]                           replace the todo list, return it
//	webfetch     url, format? (text|markdown|html), timeout? (s)         HTTP GET, HTML as Markdown or text
//	write        path, content                                           create or overwrite a file
//
// # The workspace
//
// read, write, edit, grep, glob and apply_patch are confined to a workspace
// directory ([Options.Workspace], default the current directory). Every
// file operation goes through an [os.Root] opened on it, so a path with
// "..", an absolute path outside the workspace, and a symbolic link that
// leads out of it are all refused with an error result. A hard link is not
// a symbolic link: os.Root cannot tell that a file in the workspace shares
// its data with one outside, so reads of hard-linked files are not
// confined; write, edit and apply_patch (Update in place) refuse to change
// the content of a regular file that has more than one hard link (checked
// on unix only, from syscall.Stat_t.Nlink; not enforced on other
// platforms). Deleting or moving away one link is allowed: it leaves the
// other link's content alone. apply_patch
// also refuses every path that goes through a symbolic link, even one
// inside the workspace, so two sections cannot reach the same file under
// different names. Files are opened with O_NONBLOCK and checked after the
// open (fstat), so a FIFO or device never blocks a call. Relative paths are
// relative to the workspace root; absolute paths inside it work too. Paths
// in outputs are relative to the workspace root, with forward slashes.
//
// # Limits
//
// write, edit (replaceAll included) and apply_patch refuse a result over
// [MaxFileBytes]: its size is computed from the lengths involved before
// anything is built, so a replaceAll that would turn 100 KB into 200 MB
// costs no more memory than reading the file; the error result gives the
// size and the file is unchanged. apply_patch keeps the old content of
// what it changes or deletes until the patch is done (to undo a failed
// one), so it refuses to delete a file over MaxFileBytes, and one call
// holds at most 64 MiB of old and new content.
//
// glob's pattern and grep's include use doublestar's syntax: * and ? (not
// matching /), [abc], [a-z], [!x] (or [^x]), {a,b} (nested), \c for c,
// and ** as a whole path segment for any number of directories (a/**/b
// matches a/b and a/x/y/b; a/** matches a and everything under it; a **
// next to a brace or inside a segment is a *). A pattern compiles to one
// RE2 regular expression, braces to alternations rather than expansions,
// so matching a name costs time proportional to the pattern's length
// times the name's, never exponential; patterns over 1024 bytes are
// refused.
//
// # bash is not confined
//
// bash runs whatever command the model writes, with the permissions of the
// process, and can read, change or delete anything that process can reach:
// no path check can confine a shell. It only starts in the workspace. What
// it does enforce: the command runs in its own process group (on unix), and
// the whole group is killed on timeout (default 60 s, at most 10 min), on
// cancellation, and whenever the shell exits (at once, or after waiting 2 s
// for background processes that hold the output open), so background jobs
// do not outlive the call. A process that leaves the group (setsid, a
// daemon that double-forks into a new session) is not tracked and can
// survive; on platforms without process groups only the shell is killed.
// The output is capped, keeping the head and tail. If the
// model must not run arbitrary commands, leave bash out (toolkit can switch
// it off) or replace it with a sandboxed tool of the same name.
//
// # webfetch
//
// http and https only; at most [MaxFetchRedirects] redirects; the body is
// cut at [Options.MaxFetchBytes]; a timeout per call (default 30 s). It
// refuses loopback, private, shared (CGNAT), link-local, multicast,
// broadcast and unspecified addresses, the IPv6 prefixes that reach IPv4
// through a translator or tunnel (NAT64 64:ff9b::/96 and 64:ff9b:1::/48,
// 6to4 2002::/16, IPv4-compatible ::a.b.c.d, IPv4-translated
// ::ffff:0:a.b.c.d), deprecated site-local
// fec0::/10, and every address of the host's own interfaces
// (net.InterfaceAddrs, listed on each connection; if they cannot be listed
// the connection is refused), unless [Options.AllowPrivateNetwork] is set.
// Teredo (2001::/32) is not refused. The check runs on every connection
// after DNS resolution (a net.Dialer Control hook), so redirects and DNS
// rebinding cannot bypass it, and no proxy is used. A status outside 2xx is
// an error result "HTTP <code> <text>". HTML is converted with
// github.com/JohannesKaufmann/html-to-markdown/v2 (markdown) or
// golang.org/x/net/html (text); a page the HTML parser refuses (more than
// 512 nested elements, say) gives an error result with format text, never
// the raw page. Both converters build a tree of the page, about 70 and 30
// times its size, so a streaming pass first drops scripts, styles,
// noscript, iframes, SVG, MathML, comments and the attributes they do not
// read, and only the first 256 KiB of what is left are converted (the
// output says when the page was cut): a whole call on a 5 MiB page
// allocates less than 10 times the page (about 6; it was about 70). The
// body is decoded to UTF-8 by its charset first; then a
// body that starts with a binary signature (image, archive, PDF...), holds
// a NUL byte or is not UTF-8 is reported as binary, not returned, whatever
// its Content-Type says.
//
// # Timeouts
//
// bash and webfetch take a timeout argument and enforce it themselves, so
// their Tool.Timeout is -1 (a registry-wide default does not cut a longer
// timeout the model asked for short); set Tool.Timeout on the returned
// tools to impose a limit anyway. Cancelling the call's context stops
// either tool at once (bash kills its process group). The other tools have
// Tool.Timeout [Options.Timeout] (default [DefaultTimeout], 30 s). Every
// tool stops its own work when the call's context ends, not only its
// Result: glob between files, grep between files and, inside a file,
// after at most 2^20 units of work (bytes matched times the pattern's
// size, capped by [Options.MaxPatternSize]; a longer line is matched
// rune by rune in pieces that size, with the same result as whole), read
// while it skips lines and every 16 KiB of a long line, apply_patch
// while it matches hunks and before it writes, edit and write before they
// write, webfetch while it reads and slims the page.
//
// # Outputs
//
// Every Output is valid UTF-8 (invalid bytes become U+FFFD) and at most
// [Options.MaxOutputBytes] long, notes included; a longer one keeps its
// head and tail and says how many bytes were cut. read, grep and glob stop
// before the cap instead, showing only whole lines and matches, and say how
// to get the rest.
//
// Every output line is unambiguous: grep and glob write a file name that
// contains a control character (a newline, say) or invalid UTF-8, or starts
// with a double quote, as a Go-quoted string ([strconv.Quote]), and grep
// quotes names containing a colon too (its lines are file:line:text).
// todowrite shows control characters in item ids and texts as spaces, and
// question does the same in the prompt it puts in the pending request. Files that are not UTF-8 text (a NUL byte or
// invalid UTF-8 in the first 8 KiB) are reported as binary. Nothing in this
// package logs commands, file contents or fetched bodies.
//
// # Pending requests
//
// question does not block: its first call returns a successful Result with
// a [toolnexus.PendingRequest] (kind "question") under
// Metadata[toolnexus.PendingKey]; detect it with [toolnexus.PendingFrom].
// Re-run the same call with the answer attached by [toolnexus.WithAnswer]:
// the tool then returns the answer's data as JSON, or an error result when
// the answer has ok:false.
package builtin
