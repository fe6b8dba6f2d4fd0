package bot

import (
	"crypto/rand"
	"encoding/base64"
	"sync"
	"time"
)

// tokenTTL is how long a feed button stays valid: long enough to read the
// list and press, short enough that stale offers go.
const tokenTTL = time.Hour

// candidate is what a feed button stands for: a feed URL offered for a
// chat (and topic) the admin named in /sub.
type candidate struct {
	URL    string
	Title  string
	ChatID int64
	Topic  int64
}

// tokenStore maps short random tokens (callback data must fit 64 bytes)
// to candidates, in memory, each for ttl. A restart forgets them; the
// admin then sends /sub again.
type tokenStore struct {
	ttl time.Duration
	now func() time.Time

	mu    sync.Mutex
	items map[string]tokenItem
}

type tokenItem struct {
	c       candidate
	expires time.Time
}

func newTokenStore(ttl time.Duration, now func() time.Time) *tokenStore {
	return &tokenStore{ttl: ttl, now: now, items: map[string]tokenItem{}}
}

// put stores c and returns its token (16 URL-safe characters); expired
// tokens are dropped on the way.
func (s *tokenStore) put(c candidate) string {
	var raw [12]byte
	_, _ = rand.Read(raw[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	tok := base64.RawURLEncoding.EncodeToString(raw[:])
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, it := range s.items {
		if !now.Before(it.expires) {
			delete(s.items, k)
		}
	}
	s.items[tok] = tokenItem{c: c, expires: now.Add(s.ttl)}
	return tok
}

// get returns the candidate of a token that has not expired.
func (s *tokenStore) get(tok string) (candidate, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.items[tok]
	if !ok || !s.now().Before(it.expires) {
		return candidate{}, false
	}
	return it.c, true
}
