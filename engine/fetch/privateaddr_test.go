package fetch

import (
	"net/netip"
	"testing"
)

// Each row cites the range it checks; the issue names loopback, RFC 1918,
// CGNAT, link-local, multicast, unspecified, broadcast, IPv6 ULA and
// link-local, and the mapped, compatible and NAT64 forms of all these.
func TestIsPrivate(t *testing.T) {
	cases := []struct {
		addr    string
		private bool
		rule    string
	}{
		{"127.0.0.1", true, "loopback"},
		{"127.255.0.9", true, "all of 127/8 is loopback"},
		{"10.1.2.3", true, "RFC 1918 10/8"},
		{"172.16.0.1", true, "RFC 1918 172.16/12 start"},
		{"172.31.255.255", true, "RFC 1918 172.16/12 end"},
		{"172.32.0.1", false, "just past 172.16/12"},
		{"192.168.1.1", true, "RFC 1918 192.168/16"},
		{"100.64.0.1", true, "CGNAT 100.64/10 start"},
		{"100.127.255.254", true, "CGNAT 100.64/10 end"},
		{"100.128.0.1", false, "just past CGNAT"},
		{"169.254.169.254", true, "link-local (cloud metadata)"},
		{"224.0.0.1", true, "multicast"},
		{"239.255.255.250", true, "multicast"},
		{"255.255.255.255", true, "broadcast"},
		{"240.0.0.1", true, "reserved 240/4"},
		{"0.0.0.0", true, "unspecified"},
		{"0.1.2.3", true, "this network 0/8"},
		{"192.0.2.1", true, "TEST-NET-1"},
		{"198.18.0.1", true, "benchmarking 198.18/15"},
		{"8.8.8.8", false, "public"},
		{"93.184.216.34", false, "public"},
		{"::1", true, "IPv6 loopback"},
		{"::", true, "IPv6 unspecified"},
		{"fc00::1", true, "ULA fc00::/7"},
		{"fd12:3456::1", true, "ULA fd00::/8"},
		{"fe80::1", true, "IPv6 link-local"},
		{"fe80::1%eth0", true, "IPv6 link-local with zone"},
		{"fec0::1", true, "deprecated site-local"},
		{"ff02::1", true, "IPv6 multicast"},
		{"::ffff:127.0.0.1", true, "IPv4-mapped loopback"},
		{"::ffff:10.0.0.1", true, "IPv4-mapped RFC 1918"},
		{"::ffff:8.8.8.8", false, "IPv4-mapped public"},
		{"::127.0.0.1", true, "IPv4-compatible loopback"},
		{"::8.8.8.8", true, "IPv4-compatible is deprecated and unroutable"},
		{"::ffff:0:169.254.1.1", true, "SIIT-translated link-local"},
		{"64:ff9b::7f00:1", true, "NAT64 of 127.0.0.1"},
		{"64:ff9b::a9fe:a9fe", true, "NAT64 of 169.254.169.254"},
		{"64:ff9b::808:808", false, "NAT64 of a public address"},
		{"64:ff9b:1::1", true, "local-use NAT64 prefix"},
		{"2002:7f00:1::1", true, "6to4 of 127.0.0.1"},
		{"2002:c0a8:101::1", true, "6to4 of 192.168.1.1"},
		{"2002:808:808::1", false, "6to4 of a public address"},
		{"2001:db8::1", true, "documentation"},
		{"100::1", true, "discard-only"},
		{"2606:4700:4700::1111", false, "public IPv6"},
		{"2a00:1450:4001:80b::200e", false, "public IPv6"},
	}
	for _, tc := range cases {
		if got := IsPrivate(netip.MustParseAddr(tc.addr)); got != tc.private {
			t.Errorf("IsPrivate(%s) = %v, want %v (%s)", tc.addr, got, tc.private, tc.rule)
		}
	}
	if !IsPrivate(netip.Addr{}) {
		t.Error("the zero Addr must count as private: fail closed")
	}
}
