// Package interop holds the tests that hand toolnexus's rendered tools to
// the official provider SDKs. It is a separate module so that users of the
// core never download a provider SDK.
package interop
