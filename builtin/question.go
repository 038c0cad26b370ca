package builtin

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolnexus/toolnexus"
)

type questionArgs struct {
	Questions []questionItem `json:"questions" jsonschema_description:"The questions to ask, in order." validate:"min=1,dive"`
}

type questionItem struct {
	Question string   `json:"question" jsonschema_description:"The question, as one complete sentence." validate:"min=1"`
	Header   string   `json:"header,omitempty" jsonschema_description:"A very short label for the question (a few words)."`
	Options  []string `json:"options,omitempty" jsonschema_description:"Choices to offer; the user may still answer freely."`
	Multiple bool     `json:"multiple,omitempty" jsonschema_description:"Whether several options may be chosen."`
}

const questionDesc = `Ask the user one or more questions and wait for the answers. Use it when you need a ` +
	`decision or information only the user has; offer options when the choices are known. ` +
	`The answers come back as JSON.`

// questionTool asks the human. The first call returns a normal Result that
// carries a toolnexus.PendingRequest (kind "question") in its Metadata; the
// request ID is derived from the questions, so when the host re-runs the
// same call with toolnexus.WithAnswer, the tool finds its answer and returns
// the answer's data as JSON (ok:false gives an error result).
func questionTool(e *env) (toolnexus.Tool, error) {
	return newTool(e, "question", "Ask the user", questionDesc,
		toolnexus.Annotations{ReadOnlyHint: true, DestructiveHint: new(false), OpenWorldHint: new(false)}, 0, question)
}

func question(ctx context.Context, a questionArgs) toolnexus.Result {
	data, err := json.Marshal(a)
	if err != nil {
		return toolnexus.ErrorResult(fmt.Errorf("questions could not be encoded: %v", err))
	}
	sum := sha256.Sum256(data)
	id := "question_" + hex.EncodeToString(sum[:8])
	if ans, ok := toolnexus.AnswerFor(ctx, id); ok {
		return toolnexus.AnswerOutput(ans)
	}
	prompt := questionPrompt(a.Questions)
	return toolnexus.PendingResult("waiting for the user to answer:\n"+prompt, toolnexus.PendingRequest{
		ID: id, Kind: toolnexus.PendingKindQuestion, Prompt: prompt, Data: data,
	})
}

// questionPrompt is each question's text in order, with " (options: a, b)"
// appended when it has options, joined by newlines. Control characters in
// questions and options (NUL, escape, line breaks...) become spaces, so the
// prompt shows one line per question and carries no terminal controls; the
// request's Data keeps the questions as given.
func questionPrompt(qs []questionItem) string {
	var b strings.Builder
	for i, q := range qs {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(oneLine(q.Question))
		if len(q.Options) > 0 {
			b.WriteString(" (options: ")
			for j, o := range q.Options {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(oneLine(o))
			}
			b.WriteByte(')')
		}
	}
	return b.String()
}
