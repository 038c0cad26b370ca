package schema

import "regexp"

// JSON types as bits of node.types.
const (
	tNull uint8 = 1 << iota
	tBool
	tObject
	tArray
	tNumber
	tString
	tInteger // a number with a zero fractional part
)

// Keyword groups present on a node (node.kw), so that Validate looks only
// at what a schema has.
const (
	kwObject  uint16 = 1 << iota // properties, required, additionalProperties, ...
	kwArray                      // items, prefixItems, contains, min/maxItems, uniqueItems
	kwString                     // minLength, maxLength, pattern, format
	kwNumber                     // minimum, maximum, exclusive*, multipleOf
	kwEnum                       // enum or const
	kwCombine                    // allOf, anyOf, oneOf, not, if
)

// node is one compiled (sub)schema. Nodes form a graph: $ref and recursion
// make cycles. A node is immutable after Compile.
type node struct {
	never bool  // the schema false (or a node that can match nothing)
	types uint8 // allowed types; 0 means any
	kw    uint16

	nullable bool // OpenAPI nullable: true (null is allowed, enum/const aside)
	ref      *node
	res      *resource // the schema resource the node belongs to (dynamic scope)

	enum *valueSet // nil when absent

	// numbers
	min, max, exMin, exMax *bound
	intBounds              bool  // every bound present is a plain integer (bound.i)
	id                     int32 // the node's index in compiler.all, where its site is (Compile only)

	// strings
	minLen, maxLen int // code points; -1 when absent
	pattern        *pattern
	format         string
	formatFn       func(string) bool

	// arrays
	items              *node // for elements after prefixItems; nil when absent
	minItems, maxItems int   // -1 when absent
	uniqueItems        bool

	// objects. keys lists every property name the node refers to
	// (properties, required, dependentRequired, dependentSchemas);
	// keyIndex maps them to their index (keys keep the
	// order of first mention: properties first, in schema order).
	keys       []keyInfo
	keyIndex   map[string]int
	propNames  string // "a, b, c" in schema order, for unknown-key messages
	additional *node  // nil when absent
	minProps   int    // -1 when absent
	maxProps   int    // -1 when absent
	required   []int  // indexes into keys, in schema order

	// $dynamicRef: the statically resolved target, and the anchor name
	// when resolution is dynamic ("" means it acts as a $ref to dynRef)
	dynRef  *node
	dynName string

	constV     *valueSet // nil when absent
	multipleOf *bound

	// arrays
	prefixItems              []*node
	contains                 *node
	minContains, maxContains int // -1 when absent (minContains defaults to 1 with contains)

	// objects
	patternProps  []patternProp
	propertyNames *node
	depRequired   []depReq
	depSchemas    []depSchema

	// unevaluatedProperties / unevaluatedItems (nil when absent)
	unevalProps, unevalItems *node

	// combinators
	allOf, anyOf, oneOf []*node
	not                 *node
	notText             string // the "not" schema as compact JSON, cut at maxNotText bytes, for the message
	ifN, thenN, elseN   *node
	ifText              string // the "if" schema as compact JSON, cut, for the messages of then and else

	// defaults
	def []byte // compact JSON of "default"; nil when absent

	// Options.NullAsAbsent: the property names whose explicit null counts
	// as absent (nullabsent.go), a set shared by the subschemas applied in
	// place together; nil when there are none
	nullAbsent map[string]bool
}

// bound is a numeric keyword's value.
type bound struct {
	n     dnum
	i     int64  // the value, when isInt
	isInt bool   // written as a plain integer of at most 18 digits
	text  string // as written in the schema (cut for messages)
}

type keyInfo struct {
	name     string
	schema   *node // from properties; nil when the name is only referred to
	required bool
}

type patternProp struct {
	re     *pattern
	schema *node
}

// pattern is a compiled "pattern" or patternProperties key.
type pattern struct {
	re   *regexp.Regexp
	src  string
	cost int // instructions of the RE2 program: the work per input byte is at most this
}

type depReq struct {
	key  int   // index into keys
	need []int // indexes into keys
}

type depSchema struct {
	key    int
	schema *node
}

// lookup returns the index of key in n.keys, or -1.
func (n *node) lookup(key []byte) int {
	if i, ok := n.keyIndex[string(key)]; ok {
		return i
	}
	return -1
}

// allowed is the set of types for messages (nullable adds null).
func (n *node) allowed() uint8 {
	if n.nullable {
		return n.types | tNull
	}
	return n.types
}

// valueSet is the allowed values of enum or const: their compact JSON
// texts and hashes, and the text for messages (cut to 256 bytes).
type valueSet struct {
	vals    [][]byte
	hashes  []uint64
	text    string
	isConst bool
}

// resource is a schema resource (the document or a subschema with $id) as
// the dynamic scope of $dynamicRef sees it.
type resource struct {
	dyn map[string]*node // $dynamicAnchor name -> schema
}
