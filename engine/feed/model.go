// Package feed parses fetched bodies (RSS, Atom, RDF, JSON Feed, iCalendar)
// into the one Feed model that the importer, storage payloads and templates use.
package feed

import "time"

// Feed is a parsed feed document.
type Feed struct {
	Format string `json:"format"` // "rss", "atom", "rdf", "json" or "ical"
	// Title is plain text (markup in an HTML title is dropped).
	Title       string `json:"title,omitempty"`
	SiteURL     string `json:"site_url,omitempty"`
	Description string `json:"description,omitempty"`
	Language    string `json:"language,omitempty"`
	ImageURL    string `json:"image_url,omitempty"`
	HubURL      string `json:"hub_url,omitempty"`
	SelfURL     string `json:"self_url,omitempty"`
	// NextURL is the next page (Atom/RSS rel="next", JSON Feed next_url).
	NextURL string `json:"next_url,omitempty"`
	Hints   Hints  `json:"hints,omitzero"`
	// Entries in document order.
	Entries []Entry `json:"entries,omitempty"`
	// Skipped counts entries that were dropped as invalid (e.g. a VEVENT
	// without UID or DTSTART).
	Skipped int `json:"skipped,omitempty"`
}

// Hints are the publisher's polling hints, as written in the feed.
type Hints struct {
	TTLMinutes int `json:"ttl_minutes,omitempty"`
	// UpdatePeriod is sy:updatePeriod (hourly, daily, weekly, monthly, yearly).
	UpdatePeriod string `json:"update_period,omitempty"`
	// UpdateFrequency is sy:updateFrequency (0 = not given).
	UpdateFrequency int `json:"update_frequency,omitempty"`
	// SkipHours holds RSS skipHours (0-23, UTC).
	SkipHours []int `json:"skip_hours,omitempty"`
	// SkipDays holds RSS skipDays.
	SkipDays []time.Weekday `json:"skip_days,omitempty"`
}

// Entry is one item of a feed. It is stored as the JSON payload of an
// entries row, so delivery can render it later with the current template;
// keep the JSON names stable.
type Entry struct {
	// Identity is guid/id, else link, else a SHA-256 of the canonical
	// content; for iCalendar UID (+ RECURRENCE-ID).
	Identity string `json:"identity"`
	// Title is plain text: an HTML or XHTML title (Atom type="html", RSS
	// titles with escaped markup or character references) is reduced to
	// the text it shows. Summary and ContentHTML are HTML.
	Title       string      `json:"title,omitempty"`
	Link        string      `json:"link,omitempty"`
	Summary     string      `json:"summary,omitempty"`
	ContentHTML string      `json:"content_html,omitempty"`
	Authors     []string    `json:"authors,omitempty"`
	Categories  []string    `json:"categories,omitempty"`
	Published   time.Time   `json:"published,omitzero"`
	Updated     time.Time   `json:"updated,omitzero"`
	Images      []Image     `json:"images,omitempty"`
	Enclosures  []Enclosure `json:"enclosures,omitempty"`
	Event       *Event      `json:"event,omitempty"`
	// Checksum is a hash of the visible fields: it tells an edited entry
	// from an unchanged one.
	Checksum string `json:"checksum,omitempty"`
}

// Image is a picture that belongs to an entry.
type Image struct {
	URL   string `json:"url"`
	Title string `json:"title,omitempty"`
	// DataSHA256 is set for a data: URL: the hex SHA-256 of the whole URL.
	// Logs, file names and indexes use it so the payload never lands there;
	// DecodeDataURL yields the bytes.
	DataSHA256 string `json:"data_sha256,omitempty"`
}

// Enclosure is an attached file (podcast audio, a video, a PDF).
type Enclosure struct {
	URL    string `json:"url"`
	Type   string `json:"type,omitempty"`
	Length int64  `json:"length,omitempty"`
}

// Event is the calendar part of an iCalendar entry.
type Event struct {
	Start    time.Time `json:"start"`
	End      time.Time `json:"end,omitzero"`
	AllDay   bool      `json:"all_day,omitempty"`
	TimeZone string    `json:"time_zone,omitempty"`
	Location string    `json:"location,omitempty"`
	// Status is the iCalendar STATUS (TENTATIVE, CONFIRMED, CANCELLED).
	Status       string `json:"status,omitempty"`
	URL          string `json:"url,omitempty"`
	RRule        string `json:"rrule,omitempty"`
	RecurrenceID string `json:"recurrence_id,omitempty"`
}
