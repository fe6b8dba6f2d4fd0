package engine

import (
	"context"
	"fmt"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/engine/fetch"
)

// MaxPages is the most pages one poll reads, the first included; the rest
// waits for the next poll.
const MaxPages = 100

// pages is what one poll read from a feed's pages.
type pages struct {
	entries []feed.Entry    // newest page first, document order within each
	first   map[string]bool // identity hashes listed on the first page
	count   int             // pages read
	tried   bool            // pending is the feed's new pagination state
	pending string          // where the next poll resumes; "" when done
	err     error           // why a page failed
	stopped string          // why following ended early (a loop, another host)
}

// complete reports a poll that read exactly one page and left nothing for
// later: only then are the first page's validators worth keeping.
func (p pages) complete() bool {
	return p.count == 1 && p.pending == "" && p.err == nil
}

// readPages reads the first page (already parsed, or nil after a 304) and
// follows rel=next / next_url: from the page a previous poll stopped at,
// else from the first page when follow is set and the first page lists no
// entry the feed remembers. It stops at a page holding a remembered entry,
// after MaxPages pages (resuming there next poll), at a page that fails
// (resuming there next poll), at a loop, and at a page on another host,
// whose politeness this worker does not hold.
func (p *pollRun) readPages(ctx, wctx context.Context, follow bool) pages {
	e := p.e
	pg := pages{tried: true}
	collected := map[string]bool{}
	visited := map[string]bool{p.f.URL: true, p.res.FinalURL: true}
	next := p.f.PendingPageURL
	if first := p.parsed; first != nil {
		pg.count = 1
		pg.first = pg.add(first.Entries, collected)
		if next == "" && follow && first.NextURL != "" && !e.holdsSeen(wctx, p.f.ID, first.Entries) {
			next = first.NextURL
		}
	}
	for next != "" {
		if pg.count >= MaxPages {
			pg.pending = next
			break
		}
		if visited[next] {
			pg.stopped = "pages loop back to " + next
			break
		}
		visited[next] = true
		if host, err := fetch.HostOf(next); err != nil || p.lease == nil || host != p.lease.host {
			pg.stopped = "next page on another host: " + next
			break
		}
		if ctx.Err() != nil || !e.keepLease(ctx, p.lease) {
			pg.pending = next
			break
		}
		req := fetchRequest(p.f, true)
		req.URL = next
		res := e.fetch(ctx, req)
		parsed, err := p.e.pageOf(res)
		if err != nil {
			pg.pending, pg.err = next, err
			break
		}
		pg.count++
		repeated := anyCollected(parsed.Entries, collected)
		pg.add(parsed.Entries, collected)
		if repeated || e.holdsSeen(wctx, p.f.ID, parsed.Entries) {
			break
		}
		next = parsed.NextURL
	}
	if pg.stopped != "" {
		e.log.Info("engine: stopped following pages", "feed_id", p.f.ID, "host", p.f.Host, "reason", pg.stopped)
	}
	return pg
}

// pageOf parses a fetched page, or says why there is none.
func (e *Engine) pageOf(res fetch.Result) (*feed.Feed, error) {
	if res.Outcome != fetch.OK {
		if res.Err != nil {
			return nil, res.Err
		}
		return nil, fmt.Errorf("engine: page: %s", res.Outcome)
	}
	return e.parseFeed(res)
}

// add appends a page's entries and returns the identity hashes it listed.
func (p *pages) add(entries []feed.Entry, collected map[string]bool) map[string]bool {
	listed := make(map[string]bool, len(entries))
	for _, en := range entries {
		h := IdentityHash(en.Identity)
		listed[h], collected[h] = true, true
	}
	p.entries = append(p.entries, entries...)
	return listed
}

func anyCollected(entries []feed.Entry, collected map[string]bool) bool {
	for _, en := range entries {
		if collected[IdentityHash(en.Identity)] {
			return true
		}
	}
	return false
}

// holdsSeen reports whether the feed remembers one of the entries. When
// the store cannot tell, it says yes: following stops, which loses nothing
// the next poll cannot read.
func (e *Engine) holdsSeen(ctx context.Context, feedID int64, entries []feed.Entry) bool {
	hashes := make([]string, 0, len(entries))
	for _, en := range entries {
		if en.Identity != "" {
			hashes = append(hashes, IdentityHash(en.Identity))
		}
	}
	if len(hashes) == 0 {
		return false
	}
	known, err := e.store.KnownIdentities(ctx, feedID, hashes)
	if err != nil {
		e.log.Warn("engine: looking up entries failed", "feed_id", feedID, "error", err)
		return true
	}
	return len(known) > 0
}
