package schema

import (
	"testing"
)

func TestNumbersExact(t *testing.T) {
	tests := []struct {
		schema, in string
		valid      bool
	}{
		{`{"maximum":9007199254740993}`, `9007199254740993`, true},
		{`{"maximum":9007199254740992}`, `9007199254740993`, false},
		{`{"minimum":0.1}`, `0.1`, true},
		{`{"minimum":0.1}`, `0.09999999999999999999`, false},
		{`{"maximum":1e400}`, `1e401`, false},
		{`{"maximum":1e400}`, `9e399`, true},
		{`{"type":"integer"}`, `1e400`, true},
		{`{"type":"integer"}`, `1.0000000000000000000001`, false},
		{`{"type":"integer"}`, `-0.0`, true},
		{`{"multipleOf":0.01}`, `19.99`, true},
		{`{"multipleOf":0.01}`, `19.991`, false},
		{`{"multipleOf":3}`, `1e308`, false},
		{`{"multipleOf":5}`, `1e308`, true},
		{`{"multipleOf":0.0001}`, `123456789012345678901234567890.1234`, true},
		{`{"multipleOf":7}`, `123456789012345678901234567891`, false},
		{`{"const":1}`, `1.0`, true},
		{`{"enum":[100]}`, `1e2`, true},
	}
	for _, tc := range tests {
		v := mustCompile(t, tc.schema, nil)
		if err := v.Validate([]byte(tc.in)); (err == nil) != tc.valid {
			t.Errorf("%s on %s: valid=%v, got %v", tc.schema, tc.in, tc.valid, err)
		}
	}
}
