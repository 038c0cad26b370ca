package schema

// Validator is a compiled schema. It is immutable and safe for concurrent
// use by multiple goroutines.
type Validator struct {
	root *node
	opts Options
	// hasDefaults reports whether ApplyDefaults has anything to insert.
	hasDefaults bool
	// dynamic: some $dynamicRef resolves through the dynamic scope, which
	// Validate then tracks.
	dynamic bool
}

// Compile parses and checks a JSON Schema (draft 2020-12) and compiles it
// for Validate. opts may be nil (see Options). The error is a *SchemaError
// naming the schema location and keyword for a schema that is malformed,
// uses a keyword in a way the specification forbids, has a pattern RE2
// cannot compile, a $ref that cannot be resolved within the document, a
// $ref loop that never reaches the instance, a default that is invalid
// against its own subschema, or (with Strict) a keyword the engine does not
// enforce.
func Compile(raw []byte, opts *Options) (*Validator, error) {
	v := &Validator{}
	if opts != nil {
		v.opts = *opts
	}
	if v.opts.MaxDepth <= 0 {
		v.opts.MaxDepth = DefaultMaxDepth
	}
	c := newCompiler(&v.opts)
	root, err := c.compileRoot(raw)
	if err != nil {
		return nil, err
	}
	if v.opts.NullAsAbsent {
		c.nullAbsent()
	}
	v.root, v.hasDefaults, v.dynamic = root, c.hasDefaults, c.dynamic
	if err := c.checkDefaults(v); err != nil {
		return nil, err
	}
	return v, nil
}

// Validate checks one JSON instance. It returns nil when the instance is
// valid, and otherwise a *ValidationError holding every problem found with
// its instance path. It does not allocate on valid input.
func (v *Validator) Validate(instance []byte) error {
	s := getState(v, instance)
	s.run(v.root)
	var err error
	if len(s.problems) > 0 || s.fatal != nil {
		err = s.result()
	}
	putState(s)
	return err
}
