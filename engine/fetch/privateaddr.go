package fetch

import "net/netip"

// IsPrivate reports whether a is an address a feed fetch must not reach
// unless private networks are allowed: loopback, RFC 1918, CGNAT, link-local,
// multicast, unspecified, broadcast and other reserved IPv4 ranges; IPv6
// loopback, unspecified, ULA, link-local, site-local, multicast,
// documentation and discard ranges; and every IPv6 form that embeds an IPv4
// address (mapped, compatible, SIIT-translated, NAT64, 6to4) when the
// embedded address is itself private.
func IsPrivate(a netip.Addr) bool {
	if !a.IsValid() {
		return true
	}
	a = a.WithZone("")
	if a.Is4In6() {
		return IsPrivate(a.Unmap())
	}
	if a.Is4() {
		return private4(a.As4())
	}
	return private6(a.As16())
}

// private4 classifies an IPv4 address by the IANA special-purpose registry.
func private4(b [4]byte) bool {
	switch {
	case b[0] == 0: // 0.0.0.0/8 "this network", unspecified included
	case b[0] == 10: // RFC 1918
	case b[0] == 100 && b[1]&0xc0 == 64: // 100.64.0.0/10 CGNAT, RFC 6598
	case b[0] == 127: // loopback
	case b[0] == 169 && b[1] == 254: // link-local, RFC 3927
	case b[0] == 172 && b[1]&0xf0 == 16: // RFC 1918
	case b[0] == 192 && b[1] == 0 && b[2] == 0: // IETF protocol assignments, RFC 6890
	case b[0] == 192 && b[1] == 0 && b[2] == 2: // TEST-NET-1, RFC 5737
	case b[0] == 192 && b[1] == 168: // RFC 1918
	case b[0] == 198 && b[1]&0xfe == 18: // benchmarking 198.18.0.0/15, RFC 2544
	case b[0] == 198 && b[1] == 51 && b[2] == 100: // TEST-NET-2
	case b[0] == 203 && b[1] == 0 && b[2] == 113: // TEST-NET-3
	case b[0] >= 224: // multicast 224/4, reserved 240/4, broadcast
	default:
		return false
	}
	return true
}

// private6 classifies a native IPv6 address (IPv4-mapped ones never get
// here).
func private6(b [16]byte) bool {
	switch {
	case zero(b[0:12]):
		// ::/96: unspecified, loopback and the deprecated IPv4-compatible
		// form (RFC 4291 2.5.5.1), which nothing routes any more.
		return true
	case zero(b[0:8]) && b[8] == 0xff && b[9] == 0xff && zero(b[10:12]):
		return embedded4(b[12:16]) // ::ffff:0:a.b.c.d, SIIT (RFC 2765)
	case b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xff && b[3] == 0x9b:
		if zero(b[4:12]) {
			return embedded4(b[12:16]) // 64:ff9b::/96 NAT64, RFC 6052
		}
		// 64:ff9b:1::/48 is for local NAT64 deployments (RFC 8215): it
		// translates into whatever the site decides, so it is never public.
		return b[4] == 0x00 && b[5] == 0x01
	case b[0] == 0x20 && b[1] == 0x02:
		return embedded4(b[2:6]) // 2002::/16 6to4, RFC 3056
	case b[0] == 0x01 && b[1] == 0x00 && zero(b[2:8]):
		return true // 100::/64 discard-only, RFC 6666
	case b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8:
		return true // 2001:db8::/32 documentation, RFC 3849
	case b[0]&0xfe == 0xfc:
		return true // fc00::/7 unique local, RFC 4193
	case b[0] == 0xfe && b[1]&0x80 == 0x80:
		return true // fe80::/10 link-local and fec0::/10 site-local
	case b[0] == 0xff:
		return true // multicast
	}
	return false
}

func embedded4(b []byte) bool {
	return private4([4]byte{b[0], b[1], b[2], b[3]})
}

func zero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}
