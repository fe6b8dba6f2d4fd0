package fetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// guard decides which addresses may be dialled. It checks in
// net.Dialer.Control, i.e. on the address actually being connected to after
// DNS, so one check covers the first request, every redirect, every
// address of a multi-address name and DNS rebinding alike.
type guard struct {
	allowPrivate bool
	// trusted holds the lower-cased host:port of the configured proxies.
	// A proxy is a hop the operator chose, so dialling it skips the check;
	// the proxy then reaches the target itself.
	trusted map[string]bool
	// allow is a test seam: it may admit particular private addresses
	// (one httptest server, not another) while the guard stays on.
	allow func(netip.AddrPort) bool

	direct *net.Dialer // guarded, for targets
	proxy  *net.Dialer // unguarded, for trusted proxies only
}

func newGuard(opts Options, trusted map[string]bool) *guard {
	g := &guard{allowPrivate: opts.AllowPrivateNetworks, trusted: trusted}
	g.direct = &net.Dialer{
		Timeout:   opts.ConnectTimeout,
		KeepAlive: defaultKeepAlive,
		Resolver:  opts.Resolver,
		Control:   g.control,
	}
	g.proxy = &net.Dialer{Timeout: opts.ConnectTimeout, KeepAlive: defaultKeepAlive}
	return g
}

// dialContext is the transport's DialContext.
func (g *guard) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if g.trusted[strings.ToLower(addr)] {
		return g.proxy.DialContext(ctx, network, addr)
	}
	return g.direct.DialContext(ctx, network, addr)
}

// control vets one connection attempt. address is a literal ip:port.
func (g *guard) control(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		// Fail closed: an address we cannot read is not one we can vouch for.
		return fmt.Errorf("fetch: refusing to connect to unparsable address %q", address)
	}
	if g.permits(ap) {
		return nil
	}
	return &PrivateAddressError{Addr: ap.Addr().Unmap().WithZone("")}
}

func (g *guard) permits(ap netip.AddrPort) bool {
	return g.allowPrivate || !IsPrivate(ap.Addr()) || (g.allow != nil && g.allow(ap))
}
