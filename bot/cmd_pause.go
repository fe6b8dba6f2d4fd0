package bot

import (
	"context"
	"strings"
)

// pausedReason is stored with subscriptions the admin paused by command.
const pausedReason = "paused by the admin"

// pauseArgs reads "[ID|all] [chat]": subject is "all" or a subscription id;
// chat holds the chat argument if any. A single argument that is neither
// "all" nor an id is the chat (so "/pause @news" pauses all of @news);
// to name a private chat by its numeric id write "all ID".
func pauseArgs(args []string) (subject string, chat []string, ok bool) {
	isSubject := func(s string) bool {
		_, isID := parseID(s)
		return isID || strings.EqualFold(s, "all")
	}
	switch len(args) {
	case 0:
		return "all", nil, true
	case 1:
		if isSubject(args[0]) {
			return strings.ToLower(args[0]), nil, true
		}
		return "all", args, true
	case 2:
		if isSubject(args[0]) {
			return strings.ToLower(args[0]), args[1:], true
		}
	}
	return "", nil, false
}

// cmdPause is /pause [ID|all] [chat] (paused true) and /resume (false).
func (b *Bot) cmdPause(ctx context.Context, c command, paused bool) {
	usage, need := "pause_usage", accessManage
	if !paused {
		usage, need = "resume_usage", accessPost
	}
	subject, chatArg, ok := pauseArgs(c.args)
	if !ok {
		b.reply(ctx, c, usage, nil)
		return
	}
	target, ok := b.target(ctx, c, chatArg, need)
	if !ok {
		return
	}
	if subject == "all" {
		reason := pausedReason
		if !paused {
			reason = ""
		}
		n, err := b.opts.Engine.PauseChat(ctx, target.chat.ID, paused, reason)
		if err != nil {
			b.replyError(ctx, c, err, nil)
			return
		}
		id := "pause_all"
		if !paused {
			id = "resume_all"
		}
		b.sendAt(ctx, c.at, b.msg.N(id, n, escapeAll(map[string]any{"Where": b.where(target)})), nil)
		return
	}
	sub, err := b.subscriptionByRef(ctx, subject, target)
	if err == nil {
		if paused {
			err = b.opts.Engine.Pause(ctx, sub.ID, pausedReason)
		} else {
			err = b.opts.Engine.Resume(ctx, sub.ID)
		}
	}
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	id := "pause_ok"
	if !paused {
		id = "resume_ok"
	}
	b.reply(ctx, c, id, map[string]any{"ID": sub.ID, "Title": titleOr(sub.FeedTitle, sub.FeedURL)})
}
