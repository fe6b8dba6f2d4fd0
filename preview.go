package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/rssbot/rssbot/bot/deliver"
	"github.com/rssbot/rssbot/config"
	"github.com/rssbot/rssbot/engine/discover"
	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/templates"
)

// previewCmd is `rssbot preview [--json] [-n N] URL|FILE`: the first N
// entries rendered and laid out exactly as delivery would send them (the
// same templates.Renderer and deliver.Sender path), without a token or a
// database.
func previewCmd(ctx context.Context, args []string, e env) int {
	asJSON, n, target, err := previewArgs(args, e.stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(e.stderr, "rssbot preview: %v\nusage: rssbot preview [--json] [-n N] URL|FILE\n", err)
		}
		return 2
	}
	cfg, code := loadConfig(e)
	if code != 0 {
		return code
	}
	renderer, err := loadRenderer(cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: %v\n", err)
		return 2
	}
	f, err := previewFeed(ctx, cfg, e, target)
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot preview: %v\n", err)
		return 1
	}
	sender := &deliver.Sender{Media: deliver.Media{MaxBytes: cfg.MediaMaxBytes}}
	entries := f.feed.Entries[:min(n, len(f.feed.Entries))]
	for i, entry := range entries {
		post, err := renderer.Render(entry, templates.Options{
			FeedTitle: f.feed.Title, FeedURL: f.url, Language: cfg.BotLanguage, MediaMode: templates.MediaPreview,
		})
		if err != nil {
			fmt.Fprintf(e.stderr, "rssbot preview: entry %d: %v\n", i+1, err)
			return 1
		}
		if post.TemplateErr != nil {
			fmt.Fprintf(e.stderr, "rssbot preview: entry %d: %v (posted with the built-in template)\n", i+1, post.TemplateErr)
		}
		reqs := sender.Requests(deliver.Target{}, post)
		if asJSON {
			err = writeJSONLine(e.stdout, reqs)
		} else {
			err = writeReadable(e.stdout, i+1, len(entries), entry, reqs)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "rssbot preview: %v\n", err)
			return 1
		}
	}
	if len(entries) == 0 && !asJSON {
		fmt.Fprintln(e.stdout, "(the feed has no entries)")
	}
	return 0
}

// previewArgs reads the flags, which may come before or after the target.
func previewArgs(args []string, stderr io.Writer) (asJSON bool, n int, target string, err error) {
	fs := flag.NewFlagSet("preview", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&asJSON, "json", false, "one JSON line per entry: the Bot API calls")
	fs.IntVar(&n, "n", 3, "how many entries")
	var targets []string
	for {
		if err := fs.Parse(args); err != nil {
			return false, 0, "", err
		}
		if fs.NArg() == 0 {
			break
		}
		targets = append(targets, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(targets) != 1:
		return false, 0, "", errors.New("give one URL or FILE")
	case n < 0:
		return false, 0, "", errors.New("-n must not be negative")
	}
	return asJSON, n, targets[0], nil
}

// previewSource is the parsed feed and the URL relative links resolve
// against.
type previewSource struct {
	feed *feed.Feed
	url  string
}

// previewFeed reads a local file, or discovers and fetches a URL.
func previewFeed(ctx context.Context, cfg config.Config, e env, target string) (previewSource, error) {
	opts := feed.Options{MaxDataURLBytes: cfg.MediaMaxBytes}
	if path, ok := localFile(e.dir, target); ok {
		body, err := os.ReadFile(path)
		if err != nil {
			return previewSource{}, err
		}
		f, err := feed.ParseWith(body, "", "", opts)
		return previewSource{feed: f}, err
	}
	client := newFetcher(cfg, cfg.Logger(e.stderr))
	res, found, err := discover.FirstFeed(ctx, client, target, func(b []byte, _ string) bool { return feed.Detect(b) != "" })
	if err != nil {
		return previewSource{}, err
	}
	if found.Direct == nil && len(found.Candidates) > 1 {
		fmt.Fprintf(e.stderr, "rssbot preview: %d feeds found, showing %s\n", len(found.Candidates), found.Candidates[0].URL)
	}
	f, err := feed.ParseWith(res.Body, res.ContentType, res.FinalURL, opts)
	return previewSource{feed: f, url: res.FinalURL}, err
}

// localFile reports whether target names an existing file (relative to
// dir) rather than a URL.
func localFile(dir, target string) (string, bool) {
	if strings.Contains(target, "://") {
		return "", false
	}
	path := target
	if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	st, err := os.Stat(path)
	return path, err == nil && st.Mode().IsRegular()
}

// writeJSONLine writes one entry's calls as one JSON array on one line.
func writeJSONLine(w io.Writer, reqs []deliver.Request) error {
	if reqs == nil {
		reqs = []deliver.Request{}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(reqs)
}

// writeReadable writes one entry's calls for people: each method with its
// parameters, then the text or caption as sent.
func writeReadable(w io.Writer, i, total int, e feed.Entry, reqs []deliver.Request) error {
	head := fmt.Sprintf("── entry %d of %d: %s", i, total, strings.TrimSpace(e.Title))
	if e.Link != "" {
		head += " <" + e.Link + ">"
	}
	var b strings.Builder
	b.WriteString(head + "\n")
	for _, r := range reqs {
		raw, err := json.Marshal(r)
		if err != nil {
			return err
		}
		var call struct {
			Method string         `json:"method"`
			Params map[string]any `json:"params"`
		}
		if err := json.Unmarshal(raw, &call); err != nil {
			return err
		}
		b.WriteString(call.Method + "\n")
		writeParams(&b, call.Params)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeParams lists parameters, the long text ones last and indented.
func writeParams(b *strings.Builder, params map[string]any) {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var texts []string
	for _, k := range keys {
		switch v := params[k].(type) {
		case string:
			if k == "text" || k == "caption" {
				texts = append(texts, k)
				continue
			}
			fmt.Fprintf(b, "  %s: %s\n", k, v)
		case []any:
			for j, item := range v {
				fmt.Fprintf(b, "  %s[%d]: %s\n", k, j, compactJSON(item))
			}
		default:
			fmt.Fprintf(b, "  %s: %s\n", k, compactJSON(v))
		}
	}
	for _, k := range texts {
		fmt.Fprintf(b, "  %s:\n", k)
		for _, line := range strings.Split(params[k].(string), "\n") {
			b.WriteString("    " + line + "\n")
		}
	}
}

func compactJSON(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return strconv.Quote(fmt.Sprint(v))
	}
	return strings.TrimSuffix(buf.String(), "\n")
}
