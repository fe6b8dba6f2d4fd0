package tghtml

import (
	"net/url"
	"strconv"
	"strings"
)

// linkUserID recognises tg://user?id=N links, which become text mentions.
func linkUserID(link string) (int64, bool) {
	l := strings.ToLower(strings.TrimSpace(link))
	rest, ok := strings.CutPrefix(l, "tg:")
	if !ok {
		return 0, false
	}
	rest = strings.TrimPrefix(rest, "//")
	rest, ok = strings.CutPrefix(rest, "user")
	if !ok {
		return 0, false
	}
	rest = strings.TrimPrefix(rest, "/")
	query, ok := strings.CutPrefix(rest, "?")
	if !ok {
		return 0, false
	}
	values, err := url.ParseQuery(query)
	if err != nil {
		return 0, false
	}
	id, err := strconv.ParseInt(values.Get("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, false
	}
	return id, true
}

// checkLink approximates TDLib's link check: http(s) links need a host, a link
// without a scheme is taken as http, tg: and ton: links pass, anything else is
// dropped.
func checkLink(link string) (string, bool) {
	link = strings.TrimSpace(link)
	if link == "" {
		return "", false
	}
	if !strings.Contains(link, "://") && !strings.HasPrefix(strings.ToLower(link), "tg:") {
		link = "http://" + link
	}
	u, err := url.Parse(link)
	if err != nil {
		return "", false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Hostname() == "" {
			return "", false
		}
	case "tg", "ton", "tonsite":
	default:
		return "", false
	}
	return link, true
}
