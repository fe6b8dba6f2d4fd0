// Package i18n holds the bot's user-facing texts (English and German) and
// looks them up. No text the admin reads is written inline in Go code.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Catalog files are locales/<topic>.<language>.json: one file per topic
// (commands, notices, delivery…) so parts of the bot can grow their texts
// side by side.
//
//go:embed locales/*.json
var locales embed.FS

// Languages returns the languages the catalogs cover; the first is the fallback.
func Languages() []string { return []string{"en", "de"} }

// Catalog is the loaded set of message catalogs.
type Catalog struct {
	bundle *goi18n.Bundle
}

// Load reads the embedded catalogs.
func Load() (*Catalog, error) {
	bundle := goi18n.NewBundle(language.English)
	bundle.RegisterUnmarshalFunc("json", json.Unmarshal)
	files, err := fs.Glob(locales, "locales/*.json")
	if err != nil {
		return nil, fmt.Errorf("i18n: listing catalogs: %w", err)
	}
	for _, name := range files {
		if _, err := bundle.LoadMessageFileFS(locales, name); err != nil {
			return nil, fmt.Errorf("i18n: loading %s: %w", name, err)
		}
	}
	return &Catalog{bundle: bundle}, nil
}

// Localizer translates into one language.
type Localizer struct {
	loc *goi18n.Localizer
}

// For returns a Localizer for lang, falling back to English.
func (c *Catalog) For(lang string) *Localizer {
	return &Localizer{loc: goi18n.NewLocalizer(c.bundle, lang, "en")}
}

// T returns message id filled with data (a map or struct; may be nil). A
// missing id yields the id itself, so a gap shows instead of failing a send.
func (l *Localizer) T(id string, data any) string {
	s, err := l.loc.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data})
	if err != nil {
		return id
	}
	return s
}

// N returns a plural-aware message for count.
func (l *Localizer) N(id string, count int, data map[string]any) string {
	if data == nil {
		data = map[string]any{}
	}
	data["Count"] = count
	s, err := l.loc.Localize(&goi18n.LocalizeConfig{MessageID: id, TemplateData: data, PluralCount: count})
	if err != nil {
		return id
	}
	return s
}
