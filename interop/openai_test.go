package interop

import (
	"context"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolnexus/toolnexus/render"
)

const chatResponse = `{"id":"chatcmpl-1","object":"chat.completion","created":0,"model":"gpt-test",` +
	`"choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}]}`

const responsesResponse = `{"id":"resp_1","object":"response","created_at":0,"model":"gpt-test","status":"completed",` +
	`"output":[{"type":"message","id":"msg_1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"ok","annotations":[]}]}]}`

func openaiClient(t *testing.T, url string) openai.Client {
	noProviderEnv(t)
	return openai.NewClient(option.WithBaseURL(url), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

// chatTools hands each rendered entry to the SDK verbatim through
// param.Override, the SDK's raw-JSON route.
func chatTools(ts render.OpenAITools) []openai.ChatCompletionToolUnionParam {
	out := make([]openai.ChatCompletionToolUnionParam, len(ts))
	for i := range ts {
		fn := param.Override[openai.ChatCompletionFunctionToolParam](ts[i])
		out[i] = openai.ChatCompletionToolUnionParam{OfFunction: &fn}
	}
	return out
}

func TestOpenAIChatSDK(t *testing.T) {
	strict, err := render.OpenAIWith(caseTools(), render.OpenAIOptions{Strict: true, Fallback: true})
	if err != nil {
		t.Fatal(err)
	}
	for name, rendered := range map[string]render.OpenAITools{"plain": render.OpenAI(caseTools()), "strict": strict} {
		t.Run(name, func(t *testing.T) {
			c := newCapture(t, chatResponse)
			client := openaiClient(t, c.srv.URL)
			resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
				Model:    "gpt-test",
				Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("weather in Paris?")},
				Tools:    chatTools(rendered),
			})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Choices[0].Message.Content != "ok" {
				t.Fatalf("response not parsed: %+v", resp)
			}
			requireBytes(t, "chat tools", c.tools(t), rendered.AppendJSON(nil))
		})
	}
}

func TestOpenAIResponsesSDK(t *testing.T) {
	strict, err := render.OpenAIResponsesWith(caseTools(), render.OpenAIOptions{Strict: true, Fallback: true})
	if err != nil {
		t.Fatal(err)
	}
	for name, rendered := range map[string]render.OpenAIResponsesTools{"plain": render.OpenAIResponses(caseTools()), "strict": strict} {
		t.Run(name, func(t *testing.T) {
			c := newCapture(t, responsesResponse)
			client := openaiClient(t, c.srv.URL)
			tools := make([]responses.ToolUnionParam, len(rendered))
			for i := range rendered {
				fn := param.Override[responses.FunctionToolParam](rendered[i])
				tools[i] = responses.ToolUnionParam{OfFunction: &fn}
			}
			resp, err := client.Responses.New(context.Background(), responses.ResponseNewParams{
				Model: "gpt-test",
				Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("weather in Paris?")},
				Tools: tools,
			})
			if err != nil {
				t.Fatal(err)
			}
			if resp.OutputText() != "ok" {
				t.Fatalf("response not parsed: %q", resp.OutputText())
			}
			requireBytes(t, "responses tools", c.tools(t), rendered.AppendJSON(nil))
		})
	}
}
