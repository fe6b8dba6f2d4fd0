package websub

import "testing"

// FuzzValidSignature feeds hub-controlled headers and bodies to the
// signature check: it must never panic, and must accept exactly the
// signature Sign makes.
func FuzzValidSignature(f *testing.F) {
	f.Add("sha1=00", []byte("body"), "secret")
	f.Add(Sign("sha256", []byte("<feed/>"), "k"), []byte("<feed/>"), "k")
	f.Add("sha512=", []byte{}, "k")
	f.Add("=", []byte("x"), "")
	f.Fuzz(func(t *testing.T, header string, body []byte, secret string) {
		_ = ValidSignature(header, body, secret)
		if secret != "" && !ValidSignature(Sign("sha384", body, secret), body, secret) {
			t.Fatal("a correct sha384 signature was refused")
		}
	})
}
