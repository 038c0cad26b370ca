package skill

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Inventory is what [Discover] found: the skills that load, in discovery
// order, and the files it skipped, with their reasons.
type Inventory struct {
	Skills  []Skill   `json:"skills"`  // the skills that load, in discovery order
	Skipped []Skipped `json:"skipped"` // the SKILL.md files skipped, with the reason
}

// Discover lists the skills under roots and builds nothing: it is the check
// an author runs on a skills folder, and the first half of [Load].
//
// Every file named SKILL.md under each root is parsed, recursively,
// following symbolic links to directories and to SKILL.md files. A
// directory whose real path was already visited is not read again, which
// guards against symlink cycles. Order: roots in the order given; in each
// directory its own SKILL.md first, then subdirectories in byte order of
// their names. A skill whose name an earlier one already has is skipped
// (DuplicateName): the first wins.
//
// Bad files are reported in Inventory.Skipped and never stop discovery. The
// error is non-nil only for a root that does not exist, is not a directory
// or cannot be read (a *RootError); nothing is returned then.
func Discover(roots ...string) (Inventory, error) {
	d := &discoverer{seen: map[string]bool{}, names: map[string]string{}}
	for _, root := range roots {
		abs, err := filepath.Abs(root)
		if err != nil {
			return Inventory{}, &RootError{Root: root, Err: err}
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return Inventory{}, &RootError{Root: root, Err: err}
		}
		if !fi.IsDir() {
			return Inventory{}, &RootError{Root: root, Err: errNotDir}
		}
		if _, err := os.ReadDir(abs); err != nil {
			return Inventory{}, &RootError{Root: root, Err: err}
		}
		d.dir(abs)
	}
	return d.inv, nil
}

type discoverer struct {
	inv   Inventory
	seen  map[string]bool   // real paths of directories read
	names map[string]string // skill name -> path of the first skill with it
}

func (d *discoverer) dir(path string) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		d.skip(path, Unreadable, err)
		return
	}
	if d.seen[real] {
		return
	}
	d.seen[real] = true
	entries, err := os.ReadDir(path)
	if err != nil {
		d.skip(path, Unreadable, err)
		return
	}
	var subdirs []string
	for _, e := range entries {
		p := filepath.Join(path, e.Name())
		typ := e.Type()
		if typ&fs.ModeSymlink != 0 {
			fi, err := os.Stat(p)
			if err != nil {
				if e.Name() == FileName {
					d.skip(p, Unreadable, err)
				}
				continue // a dangling link to anything else is not our business
			}
			typ = fi.Mode().Type()
		}
		switch {
		case typ.IsDir():
			subdirs = append(subdirs, p)
		case e.Name() == FileName && typ.IsRegular():
			d.file(p)
		case e.Name() == FileName:
			d.skip(p, Unreadable, errors.New("not a regular file"))
		}
	}
	for _, p := range subdirs {
		d.dir(p)
	}
}

func (d *discoverer) file(path string) {
	f, err := os.Open(path)
	if err != nil {
		d.skip(path, Unreadable, err)
		return
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	f.Close()
	if err != nil {
		d.skip(path, Unreadable, err)
		return
	}
	if len(data) > MaxFileBytes {
		d.skip(path, TooLarge, fmt.Errorf("more than the limit of %d bytes", MaxFileBytes))
		return
	}
	s, err := Parse(data)
	if err != nil {
		var pe *ParseError
		errors.As(err, &pe)
		d.inv.Skipped = append(d.inv.Skipped, Skipped{Path: path, Reason: pe.Reason, Detail: pe.Msg, Err: err})
		return
	}
	if first, dup := d.names[s.Name]; dup {
		d.inv.Skipped = append(d.inv.Skipped, Skipped{Path: path, Reason: DuplicateName,
			Detail: fmt.Sprintf("skill %q is already defined by %s", s.Name, first)})
		return
	}
	d.names[s.Name] = path
	s.Path = path
	s.Dir = filepath.Dir(path)
	d.inv.Skills = append(d.inv.Skills, s)
}

func (d *discoverer) skip(path string, r Reason, err error) {
	detail := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		detail = pe.Err.Error() // the path is already in Skipped.Path
	}
	d.inv.Skipped = append(d.inv.Skipped, Skipped{Path: path, Reason: r, Detail: detail, Err: err})
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
