package toolnexus_test

import (
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/storetest"
)

func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(*testing.T) toolnexus.Store { return toolnexus.NewMemoryStore() })
}
