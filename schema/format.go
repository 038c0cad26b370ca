package schema

// formats are the format values asserted with Options.AssertFormat.
var formats = map[string]func(string) bool{}

var formatWords = map[string]string{}
