package engine

import (
	"context"
	"fmt"

	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/storage"
)

// followMove stores the new URL of a feed that answered through an unbroken
// run of permanent redirects (301/308). When another feed already has that
// URL the two are merged and the poll goes on as a poll of the survivor.
// A move that cannot be stored is logged and tried again next poll.
func (p *pollRun) followMove(ctx context.Context) {
	to := p.res.PermanentURL
	if to == "" {
		return
	}
	if u, err := NormalizeURL(to); err == nil {
		to = u
	}
	host, err := fetch.HostOf(to)
	if to == p.f.URL || err != nil {
		return
	}
	mv, err := p.e.store.MoveFeed(ctx, p.f.ID, to, host, p.now)
	if err != nil {
		p.e.log.Warn("engine: storing a moved feed failed", "feed_id", p.f.ID, "host", p.f.Host, "to", to, "error", err)
		return
	}
	from := p.f.URL
	detail := from + " → " + to
	if mv.Merged {
		detail += fmt.Sprintf(" (merged into feed %d)", mv.Feed.ID)
		p.before, p.f, p.subs = mv.Feed, mv.Feed, nil
	} else {
		p.f.URL, p.f.Host = mv.Feed.URL, mv.Feed.Host
		p.before.URL, p.before.Host = mv.Feed.URL, mv.Feed.Host
	}
	p.r.FeedID, p.r.URL, p.r.MovedTo = mv.Feed.ID, to, to
	p.e.log.Info("engine: feed moved", "feed_id", mv.Feed.ID, "from", from, "to", to, "merged", mv.Merged)
	p.moved = append(p.moved, storage.Activity{Kind: storage.ActivityMoved, At: p.now, Detail: detail})
	p.notices = append(p.notices, p.e.notice(mv.Feed.ID, NoticeMoved, detail)...)
}
