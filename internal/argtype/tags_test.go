package argtype

import (
	"strings"
	"testing"
)

func TestCutDive(t *testing.T) {
	for _, tag := range []string{"", "dive", "dive,min=1", "max=3,dive", "max=3,dive,min=1", "max=3, dive ,min=1,dive,max=2",
		"diver", "x,divex,dive", ",dive,", "omitempty,max=10,dive,keys,min=1,endkeys,max=3", "a,,dive", "dive,"} {
		wantPre, wantPost, wantFound := tag, "", false
		rules := strings.Split(tag, ",")
		for i, r := range rules {
			if strings.TrimSpace(r) == "dive" {
				wantPre, wantPost, wantFound = strings.Join(rules[:i], ","), strings.Join(rules[i+1:], ","), true
				break
			}
		}
		pre, post, found := cutDive(tag)
		if pre != wantPre || post != wantPost || found != wantFound || hasDive(tag) != wantFound {
			t.Errorf("cutDive(%q) = %q, %q, %v; want %q, %q, %v", tag, pre, post, found, wantPre, wantPost, wantFound)
		}
	}
}
