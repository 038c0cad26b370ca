package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormats(t *testing.T) {
	tests := []struct {
		format, value string
		valid         bool
	}{
		{"date-time", "2026-01-02T15:04:05Z", true},
		{"date-time", "2026-01-02t15:04:05.123+05:30", true},
		{"date-time", "2026-02-29T00:00:00Z", false},
		{"date-time", "2024-02-29T00:00:00Z", true},
		{"date-time", "1998-12-31T23:59:60Z", true},
		{"date-time", "1998-12-31T23:58:60Z", false},
		{"date-time", "2026-01-02 15:04:05Z", false},
		{"date", "2026-13-01", false},
		{"time", "15:04:05", false},
		{"time", "15:04:05-08:00", true},
		{"duration", "P1DT2H30M", true},
		{"duration", "PT", false},
		{"duration", "P1Y2W", false},
		{"email", "joe.bloggs@example.com", true},
		{"email", "joe..bloggs@example.com", false},
		{"email", `"joe bloggs"@example.com`, true},
		{"hostname", "www.example.com", true},
		{"hostname", "-bad.example.com", false},
		{"hostname", "xn--9n2bp8q.xn--9t4b11yi5a", true},
		{"ipv4", "192.168.0.1", true},
		{"ipv4", "192.168.0.01", false},
		{"ipv6", "::ffff:192.168.0.1", true},
		{"ipv6", "fe80::1%eth0", false},
		{"uri", "https://example.com/a?b=c#d", true},
		{"uri", "/relative", false},
		{"uri", "http://exa mple.com", false},
		{"uuid", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", true},
		{"uuid", "2eb8aa08aa9811eab4aa73b441d16380", false},
	}
	for _, tc := range tests {
		got := formats[tc.format](tc.value)
		assert.Equal(t, tc.valid, got, "%s %q: got %v, want %v", tc.format, tc.value, got, tc.valid)
	}
	// Asserted only with AssertFormat; the message names the format.
	s := `{"format":"date"}`
	assert.NoError(t, mustCompile(t, s, nil).Validate([]byte(`"x"`)), "format asserted by default")
	err := mustCompile(t, s, &Options{AssertFormat: true}).Validate([]byte(`"x"`))
	assert.EqualError(t, err, `arguments must be a date (YYYY-MM-DD), got "x"`, "got %v", err)
}
