// Package schemahook lets internal/argtype compile a schema document it has
// just built as a jsonx tree without package schema parsing the tree's
// bytes again (the parse was a tenth of a cold NewTool). Package schema
// imports this package and sets the hook when it is initialised, so any
// importer of schema finds it set; the types are schema's, which this
// package cannot name.
package schemahook

// CompileParsed is schema.Compile(raw, opts) for a document whose tree,
// exactly what jsonx.Parse(raw) gives and not modified afterwards, the
// caller already holds: opts is a *schema.Options (may be nil) and the
// result a *schema.Validator, with the same errors.
var CompileParsed func(raw []byte, tree any, opts any) (any, error)
