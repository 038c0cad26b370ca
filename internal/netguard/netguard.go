// Package netguard refuses connections to the local and private network:
// the dial hook shared by the webfetch built-in and HTTP tools (package
// httptool). It checks the address after DNS resolution, on every dial,
// so redirects and DNS rebinding are covered.
package netguard

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// BlockedError is the dial error for a refused address.
type BlockedError struct {
	Addr netip.Addr // the refused address, as dialled
	Kind string     // a Kind result, or KindOwn
}

// KindOwn is the Kind of an address of one of this host's interfaces.
const KindOwn = "own"

// Error says which address was refused and why, e.g.
// "127.0.0.1 is a loopback address".
func (e *BlockedError) Error() string {
	if e.Kind == KindOwn {
		return fmt.Sprintf("%s is an address of this host", e.Addr)
	}
	return fmt.Sprintf("%s is %s %s address", e.Addr, article(e.Kind), e.Kind)
}

// article is "an" before a kind that starts with a vowel sound, else "a".
func article(kind string) string {
	if kind != "" && strings.ContainsRune("aeiouAEIOU", rune(kind[0])) {
		return "an"
	}
	return "a"
}

var (
	sharedAddressSpace = netip.MustParsePrefix("100.64.0.0/10") // RFC 6598 (carrier-grade NAT, some cloud metadata services)
	thisNetwork        = netip.MustParsePrefix("0.0.0.0/8")     // RFC 1122 "this host on this network"
	nat64Prefixes      = []netip.Prefix{
		netip.MustParsePrefix("64:ff9b::/96"),   // RFC 6052 well-known NAT64 prefix
		netip.MustParsePrefix("64:ff9b:1::/48"), // RFC 8215 local-use NAT64 prefix
	}
	sixToFour    = netip.MustParsePrefix("2002::/16")       // RFC 3056: embeds an IPv4 address
	ipv4Compat   = netip.MustParsePrefix("::/96")           // RFC 4291 IPv4-compatible ::a.b.c.d (deprecated)
	ipv4Transl   = netip.MustParsePrefix("::ffff:0:0:0/96") // RFC 2765 IPv4-translated ::ffff:0:a.b.c.d
	siteLocalIP6 = netip.MustParsePrefix("fec0::/10")       // RFC 3879 deprecated site-local
)

// Kind names the class of a refused address ("loopback", "private",
// "link-local", ...), or "" for a public one. IPv6 prefixes that embed or
// translate to an IPv4 address (NAT64, 6to4, IPv4-compatible,
// IPv4-translated) are refused whole, whatever the IPv4 address.
func Kind(ip netip.Addr) string {
	ip = ip.Unmap()
	switch {
	case ip.IsLoopback():
		return "loopback"
	case ip.IsPrivate():
		return "private"
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		return "link-local"
	case ip.IsUnspecified(), ip.Is4() && thisNetwork.Contains(ip):
		return "unspecified"
	case ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
		return "multicast"
	case ip.Is4() && sharedAddressSpace.Contains(ip):
		return "shared (carrier-grade NAT)"
	case ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "broadcast"
	case nat64Prefixes[0].Contains(ip), nat64Prefixes[1].Contains(ip):
		return "NAT64"
	case sixToFour.Contains(ip):
		return "6to4"
	case ipv4Compat.Contains(ip):
		return "IPv4-compatible IPv6"
	case ipv4Transl.Contains(ip):
		return "IPv4-translated IPv6"
	case siteLocalIP6.Contains(ip):
		return "site-local"
	}
	return ""
}

// Guard is a net.Dialer Control hook that refuses every address Kind names
// and every address of this host's interfaces. Hosts that must reach their
// own API choose, before dialing, which dials go through the Guard (see
// package httptool's Options.AllowHosts).
type Guard struct {
	// InterfaceAddrs lists this host's addresses; nil means
	// net.InterfaceAddrs. When it fails the connection is refused.
	InterfaceAddrs func() ([]net.Addr, error)
}

// Control is the net.Dialer Control hook: address is the resolved
// "ip:port". It returns a *BlockedError for a refused address.
func (g *Guard) Control(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("unexpected dial address %q", address)
	}
	ip = ip.WithZone("").Unmap()
	if kind := Kind(ip); kind != "" {
		return &BlockedError{Addr: ip, Kind: kind}
	}
	own, err := g.isOwnAddr(ip)
	if err != nil {
		return fmt.Errorf("cannot list this host's addresses to check %s: %v", ip, err)
	}
	if own {
		return &BlockedError{Addr: ip, Kind: KindOwn}
	}
	return nil
}

// isOwnAddr reports whether ip is assigned to one of this host's
// interfaces.
func (g *Guard) isOwnAddr(ip netip.Addr) (bool, error) {
	list := g.InterfaceAddrs
	if list == nil {
		list = net.InterfaceAddrs
	}
	addrs, err := list()
	if err != nil {
		return false, err
	}
	for _, a := range addrs {
		var nip net.IP
		switch a := a.(type) {
		case *net.IPNet:
			nip = a.IP
		case *net.IPAddr:
			nip = a.IP
		}
		if own, ok := netip.AddrFromSlice(nip); ok && own.Unmap() == ip {
			return true, nil
		}
	}
	return false, nil
}
