package fetch

import (
	"errors"
	"fmt"
	"net/http"
	"net/netip"
)

// Sentinel errors, wrapped into Result.Err so callers can test with
// errors.Is.
var (
	// ErrTooManyRedirects: the chain went past MaxRedirects.
	ErrTooManyRedirects = errors.New("fetch: too many redirects")
	// ErrRedirectLoop: a redirect pointed back into the chain.
	ErrRedirectLoop = errors.New("fetch: redirect loop")
	// ErrRedirectNotFollowed: a redirect arrived with Request.NoRedirects.
	ErrRedirectNotFollowed = errors.New("fetch: redirect not followed")
	// ErrScheme: a URL or redirect target that is not http or https.
	ErrScheme = errors.New("fetch: only http and https URLs can be fetched")
	// ErrCredentialsOverHTTP: credentials were given for a plain-http URL.
	ErrCredentialsOverHTTP = errors.New("fetch: credentials are only sent over https")
)

// PrivateAddressError is the guard's refusal to dial a loopback, private,
// link-local or otherwise internal address.
type PrivateAddressError struct {
	Addr netip.Addr
}

// Error names the refused address; it is the whole text of Result.Err.
func (e *PrivateAddressError) Error() string {
	return "fetch: refusing to connect to private address " + e.Addr.String()
}

// TooLargeError reports a body over the size limit that applied.
type TooLargeError struct {
	Limit int64
}

// Error states the limit in the unit it was configured in.
func (e *TooLargeError) Error() string {
	return "fetch: response larger than " + FormatSize(e.Limit)
}

// StatusError reports an HTTP status that is neither success nor
// "not modified".
type StatusError struct {
	Code int
}

// Error gives the code and its standard reason phrase.
func (e *StatusError) Error() string {
	if text := http.StatusText(e.Code); text != "" {
		return fmt.Sprintf("fetch: HTTP %d %s", e.Code, text)
	}
	return fmt.Sprintf("fetch: HTTP %d", e.Code)
}

// FormatSize writes a byte count the way limits are configured and
// reported: "16 MiB", "512 KiB", "1000 bytes".
func FormatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
