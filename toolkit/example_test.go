package toolkit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/toolnexus/toolnexus/builtin"
	"github.com/toolnexus/toolnexus/render"
	"github.com/toolnexus/toolnexus/toolkit"
)

func ExampleBuild() {
	ctx := context.Background()
	workspace, _ := os.MkdirTemp("", "workspace")
	defer os.RemoveAll(workspace)

	tk, err := toolkit.Build(ctx, &toolkit.Config{
		Skills:         []string{"../examples/skills"},
		Builtins:       map[string]bool{"webfetch": false},
		BuiltinOptions: builtin.Options{Workspace: workspace},
	})

	if err != nil {
		fmt.Println(err)
		return
	}
	defer tk.Close()

	var defs []struct {
		Function struct{ Name string } `json:"function"`
	}
	json.Unmarshal(render.OpenAI(tk.Tools()).AppendJSON(nil), &defs)
	var names []string
	for _, d := range defs {
		names = append(names, d.Function.Name)
	}
	fmt.Println(strings.Join(names, " "))
	fmt.Println(tk.SkillsPrompt())
	// Output:
	// apply_patch bash edit glob grep question read skill todowrite write
	// Skills are folders of instructions, scripts and reference files for specific tasks. When a task matches one of the skills below, call the `skill` tool with its name to load it before you start, then follow the instructions it returns.
	//
	// ## Available Skills
	// - **hello-world**: Greets someone by name using the bundled hello.sh script. Use it when the user asks for a greeting or wants to check that skills work.
}
