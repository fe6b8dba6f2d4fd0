package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/rssbot/rssbot/engine"
)

// pollCmd is `rssbot poll [--all]`: one round over the due (or all enabled)
// feeds with the running bot's politeness, import and schedule; what it
// queues is delivered by the running bot.
func pollCmd(ctx context.Context, args []string, e env) int {
	fs := flag.NewFlagSet("poll", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	all := fs.Bool("all", false, "poll every enabled feed, not only the due ones")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(e.stderr, "usage: rssbot poll [--all]")
		return 2
	}
	cfg, store, code := openFromEnv(ctx, e)
	if code != 0 {
		return code
	}
	defer store.Close()
	eng := newEngine(store, cfg, cfg.Logger(e.stderr), nil)
	sum, err := eng.PollOnce(ctx, *all)
	printSummary(e.stdout, sum)
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: poll: %v\n", err)
		return 1
	}
	return 0
}

// printSummary writes what a round did: feeds polled by outcome, entries
// imported, wall time.
func printSummary(w io.Writer, s engine.Summary) {
	rate := 0.0
	if secs := s.Elapsed.Seconds(); secs > 0 {
		rate = float64(s.Feeds) / secs
	}
	fmt.Fprintf(w, "polled %d feeds on %d hosts in %s (%.1f polls/s)\n", s.Feeds, s.Hosts, s.Elapsed.Round(time.Millisecond), rate)
	outcomes := make([]string, 0, len(s.Polls))
	for o := range s.Polls {
		outcomes = append(outcomes, o)
	}
	sort.Strings(outcomes)
	for _, o := range outcomes {
		fmt.Fprintf(w, "  %-14s %d\n", o, s.Polls[o])
	}
	fmt.Fprintf(w, "imported %d entries, queued %d posts\n", s.Imported, s.Queued)
}
