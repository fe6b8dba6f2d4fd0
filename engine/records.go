package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/storage"
)

// IdentityHash is the key an identity is stored under: hex SHA-256, so any
// length of guid fits a fixed-size unique index.
func IdentityHash(identity string) string {
	sum := sha256.Sum256([]byte(identity))
	return hex.EncodeToString(sum[:])
}

// records turns parsed entries into storage records, oldest first: sorted by
// publication date when every entry has one, else in reverse document order
// (feeds list the newest first).
func records(entries []feed.Entry) ([]storage.EntryRecord, error) {
	ordered := make([]feed.Entry, len(entries))
	for i, e := range entries {
		ordered[len(entries)-1-i] = e
	}
	if allDated(ordered) {
		sort.SliceStable(ordered, func(i, j int) bool { return ordered[i].Published.Before(ordered[j].Published) })
	}
	out := make([]storage.EntryRecord, 0, len(ordered))
	seen := make(map[string]bool, len(ordered))
	for _, e := range ordered {
		if e.Identity == "" {
			continue
		}
		h := IdentityHash(e.Identity)
		if seen[h] {
			continue
		}
		seen[h] = true
		payload, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("engine: encoding entry %q: %w", e.Identity, err)
		}
		out = append(out, storage.EntryRecord{
			IdentityHash: h,
			Identity:     e.Identity,
			Checksum:     e.Checksum,
			Title:        e.Title,
			Link:         e.Link,
			PublishedAt:  e.Published,
			Payload:      payload,
		})
	}
	return out, nil
}

func allDated(entries []feed.Entry) bool {
	for _, e := range entries {
		if e.Published.IsZero() {
			return false
		}
	}
	return true
}
