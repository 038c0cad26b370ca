package toolnexus

import (
	"errors"
	"strings"

	"github.com/toolnexus/toolnexus/internal/argtype"
	jschema "github.com/toolnexus/toolnexus/schema"
)

// engineProblems maps the engine's problems to the decoder's (at most
// argtype.MaxProblems), with the rule names Execute has always used. fatal
// reports a problem that stops everything else (malformed JSON, too deep,
// too complex); malformed JSON is worded as Execute always has.
func engineProblems(err error, args []byte) (ps []*argtype.Problem, fatal bool) {
	var ve *jschema.ValidationError
	if !errors.As(err, &ve) {
		return []*argtype.Problem{{Rule: "schema", Msg: "arguments could not be checked: " + argtype.Cut(err.Error())}}, true
	}
	ps = make([]*argtype.Problem, 0, min(len(ve.Problems), argtype.MaxProblems))
	for _, p := range ve.Problems {
		if len(ps) == argtype.MaxProblems {
			break
		}
		rule := argtype.KeywordRule(p.Keyword)
		if (rule == "min" || rule == "max") && strings.Contains(p.Message, " must have exactly ") {
			rule = "len"
		}
		switch p.Keyword {
		case "syntax":
			if sp := argtype.SyntaxProblem(args); sp != nil {
				return []*argtype.Problem{sp}, true
			}
			fatal = true
		case "depth", "complexity":
			fatal = true
		}
		ps = append(ps, &argtype.Problem{Path: p.Path, Rule: rule, Param: p.Param, Msg: p.Message})
	}
	return ps, fatal
}

// problemsResult is the error result for the problems ps of a call of tool.
func problemsResult(tool string, ps []*argtype.Problem) Result {
	errs := make([]*ArgumentError, len(ps))
	for i, p := range ps {
		errs[i] = &ArgumentError{Tool: tool, Path: p.Path, Rule: p.Rule, Param: p.Param, Msg: p.Msg}
	}
	return argumentsResult(tool, errs)
}
