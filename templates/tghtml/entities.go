package tghtml

import "sort"

// Entity is a MessageEntity as the Bot API reports it; offsets and lengths are in
// UTF-16 code units.
type Entity struct {
	Type           string      `json:"type"`
	Offset         int         `json:"offset"`
	Length         int         `json:"length"`
	URL            string      `json:"url,omitempty"`
	User           *EntityUser `json:"user,omitempty"`
	Language       string      `json:"language,omitempty"`
	CustomEmojiID  string      `json:"custom_emoji_id,omitempty"`
	UnixTime       int64       `json:"unix_time,omitempty"`
	DateTimeFormat string      `json:"date_time_format,omitempty"`
}

// EntityUser is the user of a text_mention entity.
type EntityUser struct {
	ID        int64  `json:"id"`
	IsBot     bool   `json:"is_bot"`
	FirstName string `json:"first_name"`
}

// dropForbiddenNesting applies Telegram's nesting rules to properly nested
// entities (HTML can't produce overlapping ones): bold, italic, underline,
// strikethrough and spoiler may sit inside anything but pre and code; blockquotes
// don't nest; the other kinds can't contain each other. Telegram drops what breaks
// a rule rather than failing. Entities must be sorted.
func dropForbiddenNesting(entities []Entity) []Entity {
	var kept, open []Entity
	for _, e := range entities {
		for len(open) > 0 {
			top := open[len(open)-1]
			if e.Offset < top.Offset+top.Length {
				break
			}
			open = open[:len(open)-1]
		}
		if nestingAllowed(open, e) {
			kept = append(kept, e)
			open = append(open, e)
		}
	}
	return kept
}

func nestingAllowed(ancestors []Entity, e Entity) bool {
	for _, a := range ancestors {
		ok := pairAllowed(a.Type, e.Type)
		if a.Offset == e.Offset && a.Length == e.Length {
			// Same range: either may count as the outer one.
			ok = ok || pairAllowed(e.Type, a.Type)
		}
		if !ok {
			return false
		}
	}
	return true
}

// pairAllowed reports whether an inner entity may sit inside an outer one.
func pairAllowed(outer, inner string) bool {
	switch {
	case outer == "pre" || outer == "code":
		return false
	case isBlockquote(outer) && isBlockquote(inner):
		return false
	case isStyle(inner) || isBlockquote(outer) || isStyle(outer):
		return true
	}
	return false
}

func isStyle(t string) bool {
	switch t {
	case "bold", "italic", "underline", "strikethrough", "spoiler":
		return true
	}
	return false
}

func isBlockquote(t string) bool { return t == "blockquote" || t == "expandable_blockquote" }

// entityPriority orders entities that share a range, as TDLib's sort does.
func entityPriority(e Entity) int {
	switch e.Type {
	case "blockquote":
		return 0
	case "expandable_blockquote":
		return 1
	case "pre":
		if e.Language != "" {
			return 10
		}
		return 11
	case "code":
		return 20
	case "text_link", "text_mention":
		return 49
	case "bold":
		return 90
	case "italic":
		return 91
	case "underline":
		return 92
	case "strikethrough":
		return 93
	case "spoiler":
		return 94
	case "custom_emoji":
		return 99
	}
	return 50
}

// sortEntities orders by offset, then longer first, then priority.
func sortEntities(entities []Entity) {
	sort.SliceStable(entities, func(i, j int) bool {
		a, b := entities[i], entities[j]
		if a.Offset != b.Offset {
			return a.Offset < b.Offset
		}
		if a.Length != b.Length {
			return a.Length > b.Length
		}
		return entityPriority(a) < entityPriority(b)
	})
}
