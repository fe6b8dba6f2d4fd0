package feed

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"strings"
)

// ErrDataURLTooLarge is returned by DecodeDataURL when the decoded payload
// would exceed the limit.
var ErrDataURLTooLarge = errors.New("feed: data URL exceeds the size limit")

// dataURL is the parsed header of a data: URL (RFC 2397); payload is still
// encoded.
type dataURL struct {
	mime    string
	base64  bool
	payload string
}

// parseDataURLHeader splits a data: URL without decoding its payload.
func parseDataURLHeader(s string) (dataURL, error) {
	rest, ok := cutPrefixFold(strings.TrimSpace(s), "data:")
	if !ok {
		return dataURL{}, errors.New("feed: not a data URL")
	}
	meta, payload, ok := strings.Cut(rest, ",")
	if !ok {
		return dataURL{}, errors.New("feed: data URL without a comma")
	}
	d := dataURL{payload: payload, mime: "text/plain"}
	if m, isB64 := strings.CutSuffix(meta, ";base64"); isB64 {
		d.base64 = true
		meta = m
	} else if m, isB64 := cutSuffixFold(meta, ";base64"); isB64 {
		d.base64 = true
		meta = m
	}
	if meta != "" {
		if unescaped, err := url.PathUnescape(meta); err == nil {
			meta = unescaped
		}
		mt, _, err := mime.ParseMediaType(meta)
		if err != nil && !strings.HasPrefix(meta, ";") {
			return dataURL{}, fmt.Errorf("feed: data URL media type: %w", err)
		}
		if mt != "" {
			d.mime = strings.ToLower(mt)
		}
	}
	return d, nil
}

// decodedSizeBound is an upper bound on the decoded payload size, computed
// without decoding.
func (d dataURL) decodedSizeBound() int64 {
	n := int64(len(d.payload))
	if d.base64 {
		return n/4*3 + 3
	}
	return n - 2*int64(strings.Count(d.payload, "%"))
}

// DecodeDataURL decodes a data: URL (base64 or percent-encoded) and returns
// the payload and its media type. It refuses payloads larger than max bytes
// before decoding them. Errors never quote the payload.
func DecodeDataURL(s string, max int64) ([]byte, string, error) {
	d, err := parseDataURLHeader(s)
	if err != nil {
		return nil, "", err
	}
	if d.decodedSizeBound() > max && d.exactSize() > max {
		return nil, "", ErrDataURLTooLarge
	}
	var out []byte
	if d.base64 {
		out, err = decodeBase64Loose(d.payload)
	} else {
		var text string
		text, err = url.PathUnescape(d.payload)
		out = []byte(text)
	}
	if err != nil {
		return nil, "", fmt.Errorf("feed: decode data URL: %w", err)
	}
	if int64(len(out)) > max {
		return nil, "", ErrDataURLTooLarge
	}
	return out, d.mime, nil
}

// exactSize is the decoded size when the bound is too coarse to decide:
// base64 padding and whitespace make the bound overshoot slightly.
func (d dataURL) exactSize() int64 {
	if !d.base64 {
		return d.decodedSizeBound()
	}
	n := 0
	for i := 0; i < len(d.payload); i++ {
		if c := d.payload[i]; c != '=' && c != ' ' && c != '\n' && c != '\r' && c != '\t' {
			n++
		}
	}
	return int64(n) * 3 / 4
}

// decodeBase64Loose accepts standard or URL-safe base64, padded or not, with
// embedded whitespace or percent-escapes as found in feeds.
func decodeBase64Loose(s string) ([]byte, error) {
	if strings.ContainsRune(s, '%') {
		if u, err := url.PathUnescape(s); err == nil {
			s = u
		}
	}
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\n', '\r', '\t':
			return -1
		case '-':
			return '+'
		case '_':
			return '/'
		}
		return r
	}, s)
	return base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
}

// DataURLID returns the identifier of a data: URL: the hex SHA-256 of the
// whole URL string.
func DataURLID(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}
