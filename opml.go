package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

const opmlUsage = "usage: rssbot opml import FILE [--chat ID[/TOPIC]] | rssbot opml export"

// opmlCmd is `rssbot opml import FILE [--chat ID]` and `rssbot opml
// export`. Both work beside a running bot: they only write rows.
func opmlCmd(ctx context.Context, args []string, e env) int {
	if len(args) == 0 {
		fmt.Fprintln(e.stderr, opmlUsage)
		return 2
	}
	switch args[0] {
	case "import":
		return opmlImport(ctx, args[1:], e)
	case "export":
		if len(args) > 1 {
			fmt.Fprintln(e.stderr, opmlUsage)
			return 2
		}
		return opmlExport(ctx, e)
	default:
		fmt.Fprintln(e.stderr, opmlUsage)
		return 2
	}
}

func opmlImport(ctx context.Context, args []string, e env) int {
	fs := flag.NewFlagSet("opml import", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	chat := fs.String("chat", "", "chat id (and /topic) to subscribe; default: the admin")
	// The file may come before or after the flag.
	var file string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		file, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		fmt.Fprintln(e.stderr, opmlUsage)
		return 2
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if fs.NArg() > 0 || file == "" {
		fmt.Fprintln(e.stderr, opmlUsage)
		return 2
	}
	cfg, code := loadConfig(e)
	if code != 0 {
		return code
	}
	chatID, topicID, err := parseTarget(*chat, cfg.AdminID)
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: opml import: %v\n", err)
		return 2
	}
	in, err := os.Open(file)
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: opml import: %v\n", err)
		return 1
	}
	defer in.Close()
	store, err := openStore(ctx, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: %v\n", err)
		return 1
	}
	defer store.Close()
	res, err := newEngine(store, cfg, cfg.Logger(e.stderr), nil).ImportOPML(ctx, in, chatID, topicID)
	target := strconv.FormatInt(chatID, 10)
	if topicID != 0 {
		target += "/" + strconv.FormatInt(topicID, 10)
	}
	fmt.Fprintf(e.stdout, "subscribed chat %s to %d feeds (%d new to the bot), %d already subscribed, %d duplicates, %d invalid\n",
		target, len(res.Added), res.NewFeeds, len(res.Existing), len(res.Duplicates), len(res.Invalid))
	for _, u := range res.Duplicates {
		fmt.Fprintf(e.stdout, "duplicate: %s\n", u)
	}
	for _, p := range res.Invalid {
		fmt.Fprintf(e.stdout, "invalid: %q: %s\n", p.URL, p.Reason)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: opml import: %v\n", err)
		return 1
	}
	return 0
}

// parseTarget reads --chat: a numeric chat id, optionally /topic; empty
// means the admin's private chat, whose id is the admin's user id.
func parseTarget(s string, adminID int64) (chatID, topicID int64, err error) {
	if s == "" {
		if adminID == 0 {
			return 0, 0, fmt.Errorf("no chat: pass --chat ID or set ADMIN_ID")
		}
		return adminID, 0, nil
	}
	chat, topic, hasTopic := strings.Cut(s, "/")
	chatID, err = strconv.ParseInt(chat, 10, 64)
	if err != nil || chatID == 0 {
		return 0, 0, fmt.Errorf("--chat %q: want a numeric chat id, optionally /topic", s)
	}
	if hasTopic {
		topicID, err = strconv.ParseInt(topic, 10, 64)
		if err != nil || topicID <= 0 {
			return 0, 0, fmt.Errorf("--chat %q: want a numeric topic id after /", s)
		}
	}
	return chatID, topicID, nil
}

func opmlExport(ctx context.Context, e env) int {
	cfg, store, code := openFromEnv(ctx, e)
	if code != 0 {
		return code
	}
	defer store.Close()
	if err := newEngine(store, cfg, cfg.Logger(e.stderr), nil).ExportOPML(ctx, e.stdout, 0); err != nil {
		fmt.Fprintf(e.stderr, "rssbot: opml export: %v\n", err)
		return 1
	}
	return 0
}
