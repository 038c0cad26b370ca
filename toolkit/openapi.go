package toolkit

import (
	"context"
	"net/url"

	"github.com/toolnexus/toolnexus/httptool"
	"github.com/toolnexus/toolnexus/openapi"
)

// OpenAPIReport is what one Config.OpenAPI document gave besides tools.
type OpenAPIReport struct {
	Document string            // as given in Config.OpenAPI
	Skipped  []openapi.Skipped // operations not imported, with the reason
	Notes    []string          // caveats on imported tools, "name: note"
}

// OpenAPI reports, per Config.OpenAPI document in order, the operations
// that were skipped and the notes; nil without OpenAPI documents.
func (tk *Toolkit) OpenAPI() []OpenAPIReport { return tk.openapi }

// importOpenAPI imports one document; the base URL's host, when given,
// is allowed past the private-network guard.
func importOpenAPI(ctx context.Context, doc, baseURL string) (*openapi.Result, error) {
	hopts := &httptool.Options{}
	if baseURL != "" {
		if u, err := url.Parse(baseURL); err == nil && u.Hostname() != "" {
			hopts.AllowHosts = []string{u.Hostname()}
		}
	}
	return openapi.ImportFile(ctx, doc, &openapi.Options{BaseURL: baseURL, HTTP: hopts})
}
