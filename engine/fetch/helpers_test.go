package fetch

import (
	"context"
	"encoding/binary"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// recorder wraps a handler and counts what reaches the server: accepted
// connections and requests. The guard tests assert both stay at zero.
type recorder struct {
	conns    atomic.Int64
	requests atomic.Int64
	mu       sync.Mutex
	last     *http.Request
}

func (rec *recorder) lastRequest() *http.Request {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.last
}

func (rec *recorder) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.requests.Add(1)
		rec.mu.Lock()
		rec.last = r.Clone(context.Background())
		rec.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (rec *recorder) connState(_ net.Conn, s http.ConnState) {
	if s == http.StateNew {
		rec.conns.Add(1)
	}
}

// newServer starts a recording httptest server on 127.0.0.1.
func newServer(t testing.TB, h http.Handler) (*httptest.Server, *recorder) {
	t.Helper()
	rec := &recorder{}
	srv := httptest.NewUnstartedServer(rec.wrap(h))
	srv.Config.ConnState = rec.connState
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, rec
}

// newTLSServer starts a recording https server; http2 turns HTTP/2 on.
func newTLSServer(t *testing.T, h http.Handler, http2 bool) (*httptest.Server, *recorder) {
	t.Helper()
	rec := &recorder{}
	srv := httptest.NewUnstartedServer(rec.wrap(h))
	srv.Config.ConnState = rec.connState
	srv.EnableHTTP2 = http2
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, rec
}

// newClient returns a client for tests against loopback servers. Unless
// opts asks for the guard (guarded), private networks are allowed.
func newClient(t testing.TB, opts Options, guarded bool) *Client {
	t.Helper()
	opts.AllowPrivateNetworks = !guarded
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	c := New(opts)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// trustTestCert makes c trust the certificate every httptest TLS server
// shares.
func trustTestCert(c *Client, srv *httptest.Server) {
	c.transport.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
}

// allowOnly admits, with the guard on, exactly the listen address of srv:
// the test seam that lets a first hop through while its redirect target
// stays guarded.
func allowOnly(c *Client, srv *httptest.Server) {
	want := netip.MustParseAddrPort(srv.Listener.Addr().String())
	c.guard.allow = func(ap netip.AddrPort) bool { return ap == want }
}

// loopbackResolver answers every A query with 127.0.0.1 and every other
// query with no records, through an in-memory DNS server: a public-looking
// name that resolves to loopback, with no traffic leaving the process.
func loopbackResolver() *net.Resolver {
	return &net.Resolver{
		PreferGo: true,
		Dial: func(context.Context, string, string) (net.Conn, error) {
			client, server := net.Pipe()
			go serveDNS(server)
			return client, nil
		},
	}
}

// serveDNS answers DNS-over-stream queries on conn (two-byte length
// prefix, as the Go resolver frames them on a non-packet connection).
func serveDNS(conn net.Conn) {
	defer conn.Close()
	for {
		var size [2]byte
		if _, err := io.ReadFull(conn, size[:]); err != nil {
			return
		}
		msg := make([]byte, binary.BigEndian.Uint16(size[:]))
		if _, err := io.ReadFull(conn, msg); err != nil {
			return
		}
		reply, err := dnsAnswer(msg)
		if err != nil {
			return
		}
		out := binary.BigEndian.AppendUint16(nil, uint16(len(reply)))
		if _, err := conn.Write(append(out, reply...)); err != nil {
			return
		}
	}
}

func dnsAnswer(query []byte) ([]byte, error) {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil, err
	}
	q, err := p.Question()
	if err != nil {
		return nil, err
	}
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{
		ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true,
	})
	if err := b.StartQuestions(); err != nil {
		return nil, err
	}
	if err := b.Question(q); err != nil {
		return nil, err
	}
	if err := b.StartAnswers(); err != nil {
		return nil, err
	}
	if q.Type == dnsmessage.TypeA {
		rh := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60}
		if err := b.AResource(rh, dnsmessage.AResource{A: [4]byte{127, 0, 0, 1}}); err != nil {
			return nil, err
		}
	}
	return b.Finish()
}

// hostPortURL rewrites srv's URL to use host instead of its IP.
func hostPortURL(srv *httptest.Server, host, path string) string {
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	scheme := "http"
	if strings.HasPrefix(srv.URL, "https:") {
		scheme = "https"
	}
	return scheme + "://" + net.JoinHostPort(host, port) + path
}

// text is a handler that writes body with a content type.
func text(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = io.WriteString(w, body)
	}
}
