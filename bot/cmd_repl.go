package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/templates"
)

// replSeparator separates a replacement rule's pattern from its
// replacement.
const replSeparator = "=>"

// replCmd is a parsed /repl_add or /repl_add_re.
type replCmd struct {
	scope   int64 // subscription id; 0 = global
	pattern string
	with    string
}

// parseRepl reads "[ID|global] PATTERN [=> REPLACEMENT]" (the text after
// the command). Without "=>", or with nothing after it, the pattern is
// removed. The first "=>" separates; both sides are trimmed, and a side
// wrapped in double quotes keeps its inside as written (`=> " "` is a
// space). A pattern starting with a number needs the scope written out.
func parseRepl(rest string) (replCmd, error) {
	var rc replCmd
	switch first := strings.Fields(rest); {
	case len(first) == 0:
		return rc, refuse("repl_usage", nil)
	case strings.EqualFold(first[0], "global"):
		rest = restAfter(rest, 1)
	default:
		if id, ok := parseID(first[0]); ok {
			rc.scope = id
			rest = restAfter(rest, 1)
		}
	}
	left, right, _ := strings.Cut(rest, replSeparator)
	rc.pattern, rc.with = unquote(strings.TrimSpace(left)), unquote(strings.TrimSpace(right))
	if rc.pattern == "" {
		return rc, refuse("repl_usage", nil)
	}
	return rc, nil
}

// unquote strips one pair of surrounding double quotes.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}

// cmdReplAdd is /repl_add (literal text) and /repl_add_re (RE2).
func (b *Bot) cmdReplAdd(ctx context.Context, c command, isRegex bool) {
	rc, err := parseRepl(restAfter(c.text, 1))
	var feedID int64
	if err == nil && rc.scope != 0 {
		var sub storage.SubscriptionView
		sub, err = b.subscriptionView(ctx, rc.scope)
		feedID = sub.FeedID
	}
	if err == nil {
		if _, cerr := templates.CompileReplacement(rc.pattern, isRegex, rc.with); cerr != nil {
			err = refuse("repl_bad", map[string]any{"Error": cerr})
		}
	}
	var id int64
	if err == nil {
		id, err = b.opts.Store.AddReplacement(ctx, storage.Replacement{FeedID: feedID, Pattern: rc.pattern,
			IsRegex: isRegex, Replacement: rc.with, CreatedAt: b.opts.Now()})
	}
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	b.reply(ctx, c, "repl_added", b.replData(storage.Replacement{ID: id, FeedID: feedID, Pattern: rc.pattern,
		IsRegex: isRegex, Replacement: rc.with}, rc.scope))
}

// cmdReplList is /repl_list [ID]: the global rules, and a subscription's
// feed's own.
func (b *Bot) cmdReplList(ctx context.Context, c command) {
	var (
		scope  int64
		feedID int64
	)
	switch len(c.args) {
	case 0:
	case 1:
		id, ok := parseID(c.args[0])
		if !ok {
			b.reply(ctx, c, "repl_list_usage", nil)
			return
		}
		sub, err := b.subscriptionView(ctx, id)
		if err != nil {
			b.replyError(ctx, c, err, nil)
			return
		}
		scope, feedID = id, sub.FeedID
	default:
		b.reply(ctx, c, "repl_list_usage", nil)
		return
	}
	rules, err := b.opts.Store.Replacements(ctx, feedID)
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	if len(rules) == 0 {
		b.reply(ctx, c, "repl_none", nil)
		return
	}
	lines := []string{b.msg.N("repl_header", len(rules), nil)}
	for _, r := range rules {
		lines = append(lines, b.msg.T("repl_line", escapeAll(b.replData(r, scope))))
	}
	b.sendAt(ctx, c.at, strings.Join(lines, "\n"), nil)
}

// cmdReplDel is /repl_del RULE_ID.
func (b *Bot) cmdReplDel(ctx context.Context, c command) {
	id, ok := parseID(at(c.args, 0))
	if !ok || len(c.args) != 1 {
		b.reply(ctx, c, "repl_del_usage", nil)
		return
	}
	err := b.opts.Store.DeleteReplacement(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		err = refuse("repl_not_found", map[string]any{"ID": id})
	}
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	b.reply(ctx, c, "repl_deleted", map[string]any{"ID": id})
}

// replData are a rule's fields for the catalogs; subID is the
// subscription through which a feed's rule was named.
func (b *Bot) replData(r storage.Replacement, subID int64) map[string]any {
	kind := "text"
	if r.IsRegex {
		kind = "regex"
	}
	scope := b.msg.T("scope_global", nil)
	if r.FeedID != 0 {
		scope = b.msg.T("scope_feed", map[string]any{"ID": subID})
	}
	return map[string]any{"ID": r.ID, "Scope": scope, "Kind": kind, "Pattern": r.Pattern,
		"With": r.Replacement, "Removes": r.Replacement == ""}
}
