package netguard

import (
	"errors"
	"net"
	"testing"
)

func TestGuard(t *testing.T) {
	g := &Guard{InterfaceAddrs: func() ([]net.Addr, error) { return nil, nil }}
	err := g.Control("tcp", "127.0.0.1:8080", nil)
	var be *BlockedError
	if !errors.As(err, &be) || err.Error() != "127.0.0.1 is a loopback address" {
		t.Fatalf("zero Guard on loopback: %v", err)
	}
	if err := g.Control("tcp", "10.1.2.3:80", nil); err == nil || err.Error() != "10.1.2.3 is a private address" {
		t.Fatalf("private: %v", err)
	}
	g.InterfaceAddrs = func() ([]net.Addr, error) {
		return []net.Addr{&net.IPNet{IP: net.ParseIP("203.0.113.7"), Mask: net.CIDRMask(24, 32)}}, nil
	}
	if err := g.Control("tcp", "203.0.113.7:443", nil); err == nil || err.Error() != "203.0.113.7 is an address of this host" {
		t.Fatalf("own address: %v", err)
	}
	if err := g.Control("tcp", "203.0.113.8:443", nil); err != nil {
		t.Fatalf("public address refused: %v", err)
	}
}
