package exec

import (
	"encoding/base64"
	"strings"

	"github.com/toolnexus/toolnexus"
)

// This file shapes a Result's content parts (toolnexus.Result.Content) and
// structured value (Result.Structured) into each provider's tool-result
// message; the package doc's "Rich results" section states the rules.

// anthropicImageTypes are the image media types Anthropic accepts
// (Base64ImageSourceParam.media_type).
var anthropicImageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// hasRich reports whether parts hold anything but text.
func hasRich(parts []toolnexus.Part) bool {
	for i := range parts {
		if parts[i].Kind != toolnexus.PartText {
			return true
		}
	}
	return false
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func dataURL(mime string, b []byte) string { return "data:" + mime + ";base64," + b64(b) }

func isHTTP(u string) bool {
	return strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
