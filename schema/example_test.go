package schema_test

import (
	"fmt"

	"github.com/toolnexus/toolnexus/schema"
)

func Example() {
	v, err := schema.Compile([]byte(`{
		"type": "object",
		"properties": {
			"city": {"type": "string", "minLength": 2},
			"days": {"type": "integer", "minimum": 1, "maximum": 14},
			"unit": {"enum": ["celsius", "fahrenheit"], "default": "celsius"}
		},
		"required": ["city"],
		"additionalProperties": false
	}`), nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(v.Validate([]byte(`{"city": "Paris", "days": 3}`)))
	fmt.Println(v.Validate([]byte(`{"days": 30, "unit": "kelvin", "Days": 1}`)))

	err = v.Validate([]byte(`{"city": "Paris", "days": 2.5}`))
	for _, p := range err.(*schema.ValidationError).Problems {
		fmt.Printf("path=%s keyword=%s param=%s\n", p.Path, p.Keyword, p.Param)
	}

	out, changed, _ := v.ApplyDefaults([]byte(`{"city":"Paris"}`))
	fmt.Println(string(out), changed)
	// Output:
	// <nil>
	// "days" must be at most 14; "unit" must be one of [celsius fahrenheit]; unknown property "Days"; property names are case-sensitive: did you mean "days"?; "city" is required
	// path=days keyword=type param=integer
	// {"city":"Paris","unit":"celsius"} true
}
