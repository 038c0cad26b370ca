// Package interop holds the tests that hand toolnexus's rendered tools to
// the official provider SDKs. It is a separate module so that users of the
// core never download a provider SDK.
//
// The module also holds package anthropicrunner
// (github.com/toolnexus/toolnexus/interop/anthropicrunner), which users may
// import: it puts a toolnexus registry under the Anthropic Go SDK's beta
// tool runner and loads the runner's tools into a registry.
package interop
