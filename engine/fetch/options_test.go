package fetch

import (
	"testing"
	"time"
)

// The defaults are the ones DESIGN.md's settings table promises, and they
// reach the transport: 10 s to connect, HTTP/2 despite the custom dialer,
// decompression left to us so the size limit sees decoded bytes.
func TestNewAppliesDefaults(t *testing.T) {
	c := New(Options{})
	o := c.opts
	if o.UserAgent != DefaultUserAgent || o.Timeout != 30*time.Second || o.ConnectTimeout != 10*time.Second ||
		o.MaxBytes != 16<<20 || o.MediaMaxBytes != 20<<20 || o.AllowPrivateNetworks {
		t.Fatalf("defaults: %+v", o)
	}
	if c.guard.direct.Timeout != 10*time.Second || c.transport.TLSHandshakeTimeout != 10*time.Second {
		t.Fatal("connect timeout not applied to the dialer and TLS handshake")
	}
	if !c.transport.ForceAttemptHTTP2 || !c.transport.DisableCompression || c.transport.DisableKeepAlives {
		t.Fatal("transport must keep alive, force HTTP/2 and leave decompression to the client")
	}
	if c.guard.direct.Control == nil || c.guard.direct.Resolver != nil {
		t.Fatal("direct dialer must be guarded and use the default resolver")
	}

	custom := New(Options{Timeout: time.Minute, ConnectTimeout: 2 * time.Second, MaxBytes: 5, UserAgent: "x"})
	if custom.opts.Timeout != time.Minute || custom.guard.direct.Timeout != 2*time.Second ||
		custom.opts.MaxBytes != 5 || custom.opts.UserAgent != "x" {
		t.Fatalf("explicit options overridden: %+v", custom.opts)
	}
}
