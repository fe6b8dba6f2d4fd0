package websub

import (
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"
	"strings"
)

// hashes are the X-Hub-Signature methods WebSub §8 names.
var hashes = map[string]func() hash.Hash{
	"sha1":   sha1.New,
	"sha256": sha256.New,
	"sha384": sha512.New384,
	"sha512": sha512.New,
}

// ValidSignature reports whether header, an X-Hub-Signature value of the
// form method=hexdigest, is the HMAC of body keyed with secret. An unknown
// method, a malformed value or an empty secret is invalid.
func ValidSignature(header string, body []byte, secret string) bool {
	method, digest, ok := strings.Cut(strings.TrimSpace(header), "=")
	newHash := hashes[strings.ToLower(method)]
	if !ok || newHash == nil || secret == "" {
		return false
	}
	want, err := hex.DecodeString(digest)
	if err != nil {
		return false
	}
	mac := hmac.New(newHash, []byte(secret))
	mac.Write(body)
	return hmac.Equal(mac.Sum(nil), want)
}

// Sign returns the X-Hub-Signature value a hub sends for body with method
// (sha1, sha256, sha384 or sha512); "" for an unknown method. Tests and
// tools play the hub with it.
func Sign(method string, body []byte, secret string) string {
	newHash := hashes[method]
	if newHash == nil {
		return ""
	}
	mac := hmac.New(newHash, []byte(secret))
	mac.Write(body)
	return method + "=" + hex.EncodeToString(mac.Sum(nil))
}
