package engine

import (
	"fmt"
	"strings"

	"github.com/rssbot/rssbot/engine/schedule"
	"github.com/rssbot/rssbot/storage"
)

// Notice kinds stored for the admin; the bot words them. Text carries the
// detail: the reason (disabled), the time of the next poll (rate limited),
// how many entries were stored as seen (flooded), "OLD → NEW" (moved).
const (
	NoticeDisabled    = "feed_disabled"
	NoticeRateLimited = "feed_rate_limited"
	NoticeFlooded     = "feed_flooded"
	NoticeMoved       = "feed_moved"
)

// noticeTime is how times appear in notice details.
const noticeTime = "2006-01-02 15:04 MST"

// logLines are the activity lines and notices of one poll, given what its
// import did and the feed state it saved.
func (p *pollRun) logLines(saved storage.Feed, res storage.ImportResult) ([]storage.Activity, []storage.Notice) {
	acts := []storage.Activity{{Kind: storage.ActivityPoll, At: p.started, Detail: p.pollDetail()}}
	acts = append(acts, p.moved...)
	notices := append([]storage.Notice(nil), p.notices...)
	next := saved.NextPollAt.UTC().Format(noticeTime)
	switch {
	case p.sched.Outcome == schedule.RateLimited:
		acts = append(acts, storage.Activity{Kind: storage.ActivityRateLimited, Detail: errText(p.r.Err) + "; next poll " + next})
		// One notice per episode: the poll before was not rate limited.
		if p.before.RateLimitedUntil.IsZero() {
			notices = append(notices, p.e.notice(saved.ID, NoticeRateLimited, next)...)
		}
	case p.r.Err != nil:
		acts = append(acts, storage.Activity{Kind: storage.ActivityError, Detail: errText(p.r.Err)})
	case res.New == 0 && p.pages.count == 0:
		acts = append(acts, storage.Activity{Kind: storage.ActivityNotModified})
	default:
		acts = append(acts, storage.Activity{Kind: storage.ActivityImported, Detail: p.importDetail(res)})
	}
	if p.pages.err != nil {
		acts = append(acts, storage.Activity{Kind: storage.ActivityError, Detail: "page " + p.pages.pending + ": " + p.pages.err.Error()})
	}
	if !saved.DisabledAt.IsZero() && p.before.DisabledAt.IsZero() {
		acts = append(acts, storage.Activity{Kind: storage.ActivityDisabled, Detail: saved.DisabledReason})
		notices = append(notices, p.e.notice(saved.ID, NoticeDisabled, saved.DisabledReason)...)
	}
	if res.Flooded > 0 {
		notices = append(notices, p.e.notice(saved.ID, NoticeFlooded, fmt.Sprint(res.Flooded))...)
	}
	return acts, notices
}

// pollDetail says how the poll asked.
func (p *pollRun) pollDetail() string {
	var parts []string
	if p.fresh || (p.before.ETag == "" && p.before.LastModified == "") {
		parts = append(parts, "unconditional")
	} else {
		parts = append(parts, "conditional")
	}
	if p.before.PendingPageURL != "" {
		parts = append(parts, "resuming at "+p.before.PendingPageURL)
	}
	return strings.Join(parts, ", ")
}

func (p *pollRun) importDetail(res storage.ImportResult) string {
	s := fmt.Sprintf("%d new, %d queued", res.New, res.Queued)
	if res.Flooded > 0 {
		s += fmt.Sprintf(", %d stored as seen (flood guard)", res.Flooded)
	}
	if p.pages.count > 1 {
		s += fmt.Sprintf(", %d pages", p.pages.count)
	}
	if p.pages.pending != "" && p.pages.err == nil {
		s += ", more pages next poll"
	}
	if p.pages.stopped != "" {
		s += ", " + p.pages.stopped
	}
	return s
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// notice is a notice for the admin, or none when no admin is set.
func (e *Engine) notice(feedID int64, kind, detail string) []storage.Notice {
	if e.opts.AdminChatID == 0 {
		return nil
	}
	return []storage.Notice{{ChatID: e.opts.AdminChatID, FeedID: feedID, Kind: kind, Text: detail}}
}

// logPoll logs a stored poll.
func (e *Engine) logPoll(r *PollResult) {
	if r.Err != nil {
		e.log.Warn("engine: poll failed", "feed_id", r.FeedID, "outcome", r.Outcome, "error", r.Err, "next_poll", r.Next, "reason", r.Reason)
		return
	}
	e.log.Debug("engine: polled", "feed_id", r.FeedID, "outcome", r.Outcome, "new", r.New, "queued", r.Queued,
		"pages", r.Pages, "next_poll", r.Next, "reason", r.Reason)
}
