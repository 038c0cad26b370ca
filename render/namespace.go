package render

import (
	"fmt"
	"strings"

	"github.com/toolnexus/toolnexus"
)

// OpenAIResponsesNamespace renders tools as one Responses namespace entry,
// {"type":"namespace","name":name,"description":…,"tools":[…]}. Each
// tool's registry name must be name + "__" + its name in the namespace
// (exec.NamespaceSeparator): "crm__lookup" is shown inside "crm" as
// "lookup", and the model's {"type":"function_call","namespace":"crm",
// "name":"lookup"} runs "crm__lookup" again in exec. The inner entries
// are rendered by [OpenAIResponsesWith] with opts (freeform tools as
// custom entries). Errors: name outside ^[a-zA-Z0-9_-]{1,64}$ or holding
// "__", an empty description, a tool without the prefix, and
// OpenAIResponsesWith's errors. Source: openai-go
// responses.NamespaceToolParam.
func OpenAIResponsesNamespace(name, description string, tools []toolnexus.Tool, opts OpenAIOptions) (OpenAIResponsesTool, error) {
	const renderer = "render.OpenAIResponsesNamespace"
	if err := checkName(renderer, name); err != nil {
		return OpenAIResponsesTool{}, err
	}
	if strings.Contains(name, "__") {
		return OpenAIResponsesTool{}, fmt.Errorf(`%s: namespace %q: must not contain "__"`, renderer, name)
	}
	if description == "" {
		return OpenAIResponsesTool{}, fmt.Errorf("%s: namespace %q: description must not be empty", renderer, name)
	}
	inner, err := OpenAIResponsesWith(tools, opts)
	if err != nil {
		return OpenAIResponsesTool{}, err
	}
	prefix := name + "__"
	for i := range inner {
		short, ok := strings.CutPrefix(inner[i].Name, prefix)
		if !ok || short == "" {
			return OpenAIResponsesTool{}, fmt.Errorf("%s: tool %q: name must start with %q and go on", renderer, inner[i].Name, prefix)
		}
		inner[i].Name = short
	}
	return OpenAIResponsesTool{Type: "namespace", Name: name, Description: description, Tools: inner}, nil
}
