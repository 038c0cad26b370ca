package render

import (
	"fmt"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/internal/jsonx"
)

// GeminiToolConfig returns the Gemini request "toolConfig",
// {"functionCallingConfig":{["allowedFunctionNames":[…],]"mode":mode}}
// (the key order genai's json.Marshal of ToolConfig gives).
// mode is "AUTO", "ANY", "NONE" or "VALIDATED"; allowed (the names of
// these tools, in order) is only for ANY and VALIDATED, where empty means
// every tool. Errors name the rule: another mode, allowed tools with AUTO
// or NONE. Source: Gemini API reference, FunctionCallingConfig; genai
// types FunctionCallingConfig and FunctionCallingConfigMode.
func GeminiToolConfig(mode string, allowed []toolnexus.Tool) ([]byte, error) {
	switch mode {
	case "AUTO", "NONE":
		if len(allowed) > 0 {
			return nil, fmt.Errorf("render: GeminiToolConfig: allowed function names need mode ANY or VALIDATED, not %s", mode)
		}
	case "ANY", "VALIDATED":
	default:
		return nil, fmt.Errorf(`render: GeminiToolConfig: mode must be "AUTO", "ANY", "NONE" or "VALIDATED", got %q`, mode)
	}
	dst := []byte(`{"functionCallingConfig":{`)
	if len(allowed) > 0 {
		dst = append(dst, `"allowedFunctionNames":[`...)
		for i := range allowed {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsonx.AppendString(dst, allowed[i].Name)
		}
		dst = append(dst, "],"...)
	}
	dst = append(dst, `"mode":`...)
	dst = jsonx.AppendString(dst, mode)
	return append(dst, "}}"...), nil
}
