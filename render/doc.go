// Package render turns a list of tools into the tool definitions each
// provider's API expects. Renderers are pure functions of a []toolnexus.Tool:
// they never touch a Registry, never modify their input, import no provider
// SDK, and give byte-identical output for the same input (prompt caches
// depend on it).
//
// Conventions shared by every renderer:
//   - the order of the slice is kept; pass Registry.Tools() for name order
//   - an empty or nil list renders as [] (Gemini excepted, see its doc)
//   - a description "" is emitted as "", never null
//   - a nil InputSchema is emitted as {"type":"object"}
//   - schema bytes prepared at registration are copied, never re-marshalled
//
// Each result type implements json.Marshaler and also offers AppendJSON, a
// direct bytes path that skips encoding/json's re-scan of MarshalJSON output.
package render
