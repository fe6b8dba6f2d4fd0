package templates

import (
	"errors"
	"fmt"
	"html/template"
	"strings"
	"time"
)

// funcMap holds the helper functions every post template may call. Dates
// come out in the bot's language (BOT_LANGUAGE) and time zone
// (BOT_TIMEZONE); README's "Templates" section lists them.
func funcMap(f dateFormatter) template.FuncMap {
	return template.FuncMap{
		"truncate": truncateFunc,
		"escape":   func(s string) template.HTML { return template.HTML(EscapeHTML(s)) },
		"join":     func(list []string, sep string) string { return strings.Join(list, sep) },
		"date":     f.dateFunc,
		"time":     f.clock,
		"datetime": f.dateTime,
		"when":     f.event,
		"format": func(layout string, t time.Time) string {
			if t.IsZero() {
				return ""
			}
			return t.In(f.loc).Format(layout)
		},
	}
}

// truncateFunc is "truncate N text": at most N characters, cut at a word
// boundary with "…". Telegram HTML (.ContentHTML) stays balanced.
func truncateFunc(n int, v any) (any, error) {
	switch s := v.(type) {
	case string:
		return truncatePlain(n, s), nil
	case template.HTML:
		r, err := parseTelegramHTML(string(s))
		if err != nil {
			return nil, fmt.Errorf("truncate: %w", err)
		}
		return template.HTML(r.truncate(n).html()), nil
	case nil:
		return "", nil
	default:
		return truncatePlain(n, fmt.Sprint(s)), nil
	}
}

// dateFunc is "date TIME" (the bot's language: "2 January 2026") or
// "date LAYOUT TIME" (a Go layout such as "2006-01-02").
func (f dateFormatter) dateFunc(args ...any) (string, error) {
	switch len(args) {
	case 1:
		t, ok := args[0].(time.Time)
		if !ok {
			return "", errors.New("date: the argument is not a time")
		}
		return f.date(t), nil
	case 2:
		layout, ok1 := args[0].(string)
		t, ok2 := args[1].(time.Time)
		if !ok1 || !ok2 {
			return "", errors.New("date: want date LAYOUT TIME")
		}
		if t.IsZero() {
			return "", nil
		}
		return t.In(f.loc).Format(layout), nil
	}
	return "", errors.New("date: want date TIME or date LAYOUT TIME")
}
