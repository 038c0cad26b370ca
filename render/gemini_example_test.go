package render_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/render"
)

// A rule Gemini's "parameters" cannot keep is stated in the description
// when words can say it; with RefuseHidden a rule that cannot be shown at
// all (here allOf) fails the render instead of being dropped silently.
func ExampleGeminiWith_refuseHidden() {
	score := toolnexus.Tool{Name: "rate", Description: "Rate an answer", InputSchema: json.RawMessage(
		`{"type":"object","properties":{"score":{"type":"number","exclusiveMinimum":0,"multipleOf":0.5}},"required":["score"]}`)}
	tools, err := render.GeminiWith([]toolnexus.Tool{score}, render.GeminiOptions{RefuseHidden: true})
	if err != nil {
		panic(err)
	}
	show(tools)

	both := toolnexus.Tool{Name: "pick", InputSchema: json.RawMessage(
		`{"type":"object","properties":{"code":{"allOf":[{"type":"string"},{"maxLength":3}]}}}`)}
	_, err = render.GeminiWith([]toolnexus.Tool{both}, render.GeminiOptions{RefuseHidden: true})
	fmt.Println(errors.Is(err, render.ErrHiddenRule))
	fmt.Println(err)
	// Output:
	// [{"functionDeclarations":[{"name":"rate","description":"Rate an answer","parameters":{"type":"OBJECT","properties":{"score":{"type":"NUMBER","description":"Must be greater than 0. Must be a multiple of 0.5."}},"required":["score"]}}]}]
	// true
	// render.Gemini: tool "pick": /properties/code/allOf: "allOf" is enforced by Execute but Gemini's "parameters" cannot show it (use GeminiOptions.JSONSchema)
}
