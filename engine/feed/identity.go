package feed

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"time"
)

// contentHashPrefix marks an identity or part of one that is a hash of the
// entry's content rather than something the publisher wrote.
const contentHashPrefix = "sha256:"

// fieldHasher hashes a sequence of fields with length prefixes, so that
// ("ab", "c") and ("a", "bc") differ. The fields are gathered in one
// buffer and hashed at the end: writing each string to a hash.Hash costs
// a copy of it, and checksums run for every entry of every poll.
type fieldHasher struct{ buf []byte }

func newFieldHasher() *fieldHasher { return &fieldHasher{buf: make([]byte, 0, 512)} }

func (f *fieldHasher) add(fields ...string) {
	for _, s := range fields {
		f.buf = binary.BigEndian.AppendUint64(f.buf, uint64(len(s)))
		f.buf = append(f.buf, s...)
	}
}

// addTime adds an instant (zero stays distinct from every real time).
func (f *fieldHasher) addTime(t time.Time) {
	var b [13]byte
	if !t.IsZero() {
		b[0] = 1
		binary.BigEndian.PutUint64(b[1:9], uint64(t.Unix()))
		binary.BigEndian.PutUint32(b[9:], uint32(t.Nanosecond()))
	}
	f.buf = append(f.buf, b[:]...)
}

func (f *fieldHasher) hex() string {
	sum := sha256.Sum256(f.buf)
	return hex.EncodeToString(sum[:])
}

// contentHash is the SHA-256 of the entry's canonical content: title,
// summary, content and enclosure URLs, whitespace-trimmed, and an event's
// times, place, status and rule. It identifies an
// entry that has neither guid nor link, and tells apart entries that share
// a guid and a link.
func contentHash(e *Entry) string {
	h := newFieldHasher()
	h.add(strings.TrimSpace(e.Title), strings.TrimSpace(e.Summary), strings.TrimSpace(e.ContentHTML))
	for _, enc := range e.Enclosures {
		h.add(enc.URL)
	}
	if ev := e.Event; ev != nil {
		h.addTime(ev.Start)
		h.addTime(ev.End)
		h.add(ev.Location, ev.Status, ev.RRule)
	}
	return contentHashPrefix + h.hex()
}

// checksum hashes everything a post shows, so a changed checksum means the
// publisher edited the entry. Dates are left out: feeds bump them without
// changing anything a reader sees. An event's times are in, since they are
// the substance of a calendar entry.
func checksum(e *Entry) string {
	h := newFieldHasher()
	h.add("v1", e.Title, e.Link, e.Summary, e.ContentHTML)
	h.add(e.Authors...)
	h.add("|")
	h.add(e.Categories...)
	h.add("|")
	for _, img := range e.Images {
		h.add(img.URL, img.Title)
	}
	h.add("|")
	for _, enc := range e.Enclosures {
		h.add(enc.URL, enc.Type)
	}
	if ev := e.Event; ev != nil {
		h.add("event")
		h.addTime(ev.Start)
		h.addTime(ev.End)
		h.add(ev.TimeZone, ev.Location, ev.Status, ev.URL, ev.RRule, ev.RecurrenceID)
	}
	return h.hex()
}

// baseIdentity applies the identity rule: guid/id, else link, else the hash
// of the canonical content.
func baseIdentity(guid string, e *Entry) string {
	if g := strings.TrimSpace(guid); g != "" {
		return g
	}
	if e.Link != "" {
		return e.Link
	}
	return contentHash(e)
}

// disambiguate gives entries that share an identity distinct ones: first
// identity + link, then identity + content hash. Every member of a clash
// is rewritten, not all but the first, because position shifts when the
// publisher adds entries. An entry listed twice (same identity, link and
// content) is one entry: the repeats are dropped first, so it keeps its
// plain identity.
func disambiguate(entries []Entry) []Entry {
	if !hasDuplicateIdentity(entries) {
		return entries
	}
	entries = dropRepeats(entries)
	byLink := func(e *Entry) string {
		if e.Link == "" || e.Link == e.Identity {
			return e.Identity
		}
		return e.Identity + " " + e.Link
	}
	byContent := func(e *Entry) string { return e.Identity + " " + contentHash(e) }
	for _, step := range []func(*Entry) string{byLink, byContent} {
		counts := identityCounts(entries)
		for i := range entries {
			if counts[entries[i].Identity] > 1 {
				entries[i].Identity = step(&entries[i])
			}
		}
	}
	return entries
}

// dropRepeats keeps the first of entries with the same identity, link and
// content hash.
func dropRepeats(entries []Entry) []Entry {
	type key struct{ identity, link, content string }
	counts := identityCounts(entries)
	seen := make(map[key]bool, len(entries))
	out := entries[:0]
	for _, e := range entries {
		if counts[e.Identity] == 1 {
			out = append(out, e)
			continue
		}
		k := key{e.Identity, e.Link, contentHash(&e)}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, e)
	}
	return out
}

func hasDuplicateIdentity(entries []Entry) bool {
	seen := make(map[string]struct{}, len(entries))
	for i := range entries {
		if _, ok := seen[entries[i].Identity]; ok {
			return true
		}
		seen[entries[i].Identity] = struct{}{}
	}
	return false
}

func identityCounts(entries []Entry) map[string]int {
	counts := make(map[string]int, len(entries))
	for i := range entries {
		counts[entries[i].Identity]++
	}
	return counts
}
