package bot

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/rssbot/rssbot/engine/filter"
	"github.com/rssbot/rssbot/storage"
)

// filterCmd is a parsed /filter command.
type filterCmd struct {
	op    string // "add", "list" or "del"
	scope int64  // subscription id; 0 = global (add, list)
	id    int64  // filter id (del)
	spec  filter.Spec
}

// parseFilter reads the /filter forms:
//
//	/filter ID|global add include|exclude FIELD keyword|regex PATTERN
//	/filter ID|global [list]
//	/filter del FILTER_ID
//
// PATTERN is the rest of the message as written (spaces kept). Anything
// else is a userError with the usage.
func parseFilter(args []string, text string) (filterCmd, error) {
	usage := refuse("filter_usage", nil)
	if len(args) == 0 {
		return filterCmd{}, usage
	}
	if strings.EqualFold(args[0], "del") {
		id, ok := parseID(at(args, 1))
		if !ok || len(args) != 2 {
			return filterCmd{}, usage
		}
		return filterCmd{op: "del", id: id}, nil
	}
	var fc filterCmd
	if !strings.EqualFold(args[0], "global") {
		id, ok := parseID(args[0])
		if !ok {
			return filterCmd{}, usage
		}
		fc.scope = id
	}
	switch op := strings.ToLower(at(args, 1)); {
	case op == "" || op == "list":
		if len(args) > 2 {
			return filterCmd{}, usage
		}
		fc.op = "list"
		return fc, nil
	case op != "add" || len(args) < 6:
		return filterCmd{}, usage
	}
	action, field, kind := strings.ToLower(args[2]), strings.ToLower(args[3]), strings.ToLower(args[4])
	if !slices.Contains([]string{filter.Include, filter.Exclude}, action) ||
		!slices.Contains([]string{filter.Title, filter.Content, filter.Author, filter.Categories, filter.Any}, field) ||
		(kind != "keyword" && kind != "regex") {
		return filterCmd{}, usage
	}
	fc.op = "add"
	fc.spec = filter.Spec{Action: action, Field: field, Pattern: restAfter(text, 6), IsRegex: kind == "regex", Global: fc.scope == 0}
	return fc, nil
}

// at returns args[i], or "" past the end.
func at(args []string, i int) string {
	if i < len(args) {
		return args[i]
	}
	return ""
}

// cmdFilter is /filter: add, list and delete include/exclude filters.
func (b *Bot) cmdFilter(ctx context.Context, c command) {
	fc, err := parseFilter(c.args, c.text)
	if err == nil && fc.scope != 0 {
		_, err = b.subscriptionView(ctx, fc.scope)
	}
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	switch fc.op {
	case "del":
		err = b.opts.Store.DeleteFilter(ctx, fc.id)
		if errors.Is(err, storage.ErrNotFound) {
			err = refuse("filter_not_found", map[string]any{"ID": fc.id})
		}
		if err == nil {
			b.reply(ctx, c, "filter_deleted", map[string]any{"ID": fc.id})
		}
	case "list":
		err = b.listFilters(ctx, c, fc.scope)
	case "add":
		if _, cerr := filter.Compile(fc.spec); cerr != nil {
			err = refuse("filter_bad", map[string]any{"Error": cerr})
			break
		}
		var id int64
		id, err = b.opts.Store.AddFilter(ctx, storage.Filter{SubscriptionID: fc.scope, Action: fc.spec.Action,
			Field: fc.spec.Field, Pattern: fc.spec.Pattern, IsRegex: fc.spec.IsRegex, CreatedAt: b.opts.Now()})
		if err == nil {
			b.reply(ctx, c, "filter_added", b.filterData(storage.Filter{ID: id, SubscriptionID: fc.scope,
				Action: fc.spec.Action, Field: fc.spec.Field, Pattern: fc.spec.Pattern, IsRegex: fc.spec.IsRegex}))
		}
	}
	if err != nil {
		b.replyError(ctx, c, err, nil)
	}
}

// listFilters lists the global filters, or those that apply to a
// subscription (its own and the global ones).
func (b *Bot) listFilters(ctx context.Context, c command, scope int64) error {
	filters, err := b.opts.Store.Filters(ctx, scope)
	if err != nil {
		return err
	}
	if len(filters) == 0 {
		b.reply(ctx, c, "filter_none", nil)
		return nil
	}
	lines := []string{b.msg.N("filter_header", len(filters), nil)}
	for _, f := range filters {
		lines = append(lines, b.msg.T("filter_line", escapeAll(b.filterData(f))))
	}
	b.sendAt(ctx, c.at, strings.Join(lines, "\n"), nil)
	return nil
}

// filterData are a filter's fields for the catalogs.
func (b *Bot) filterData(f storage.Filter) map[string]any {
	kind := "keyword"
	if f.IsRegex {
		kind = "regex"
	}
	scope := b.msg.T("scope_global", nil)
	if f.SubscriptionID != 0 {
		scope = b.msg.T("scope_subscription", map[string]any{"ID": f.SubscriptionID})
	}
	return map[string]any{"ID": f.ID, "Scope": scope, "Action": f.Action, "Field": f.Field, "Kind": kind, "Pattern": f.Pattern}
}
