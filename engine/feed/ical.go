package feed

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-ical"
)

// parseICal turns the VEVENTs of an iCalendar body into entries. The
// structure is checked first (scanICal); the top-level components are then
// decoded by go-ical and converted one by one, so a large file's decoded
// components do not all stay alive at once. Events missing what the rules
// require are skipped and counted in Feed.Skipped; other components
// (VTODO, VJOURNAL, VFREEBUSY…) are ignored.
func (c *converter) parseICal(body []byte) (*Feed, error) {
	chunks, err := scanICal(body)
	if err != nil {
		return nil, err
	}
	zones := newZoneResolver()
	var f *Feed
	convert := func(ev *ical.Component) {
		e, err := c.eventEntry(ev, zones)
		if err != nil {
			f.Skipped++
			return
		}
		f.Entries = append(f.Entries, e)
	}
	err = decodeICal(body, chunks, func(comp *ical.Component) {
		if comp.Name != ical.CompCalendar {
			if comp.Name == ical.CompEvent {
				convert(comp) // a bare VEVENT after a calendar
			}
			return
		}
		if f == nil {
			f = calendarFeed(comp) // scanICal made sure the first is a VCALENDAR
		}
		zones.addDefinitions(comp)
		for _, child := range comp.Children {
			if child.Name == ical.CompEvent {
				convert(child)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// decodeICal decodes the top-level components found by scanICal with one
// go-ical decoder and hands each to visit. go-ical only accepts a VCALENDAR
// at the top, so a stray component is fed to it wrapped in one and
// unwrapped again; lines between components are left out. go-ical panics
// on some malformed parameter syntax; that is reported as a malformed
// calendar like its errors are.
func decodeICal(body []byte, chunks []icalChunk, visit func(*ical.Component)) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("feed: iCalendar: malformed (go-ical: %v)", r)
		}
	}()
	parts := make([]io.Reader, 0, len(chunks))
	for _, ch := range chunks {
		if ch.name == ical.CompCalendar {
			parts = append(parts, bytes.NewReader(body[ch.start:ch.end]))
			continue
		}
		parts = append(parts, strings.NewReader("BEGIN:VCALENDAR\r\n"), bytes.NewReader(body[ch.start:ch.end]),
			strings.NewReader("\r\nEND:VCALENDAR\r\n"))
	}
	dec := ical.NewDecoder(io.MultiReader(parts...))
	for _, ch := range chunks {
		cal, err := dec.Decode()
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return errICalCutShort
		}
		if err != nil {
			return fmt.Errorf("feed: iCalendar: malformed: %w", err)
		}
		if ch.name == ical.CompCalendar {
			visit(cal.Component)
			continue
		}
		if len(cal.Children) != 1 {
			return errors.New("feed: iCalendar: malformed: stray component")
		}
		visit(cal.Children[0])
	}
	return nil
}

// calendarFeed reads the calendar-level properties: the calendar name and
// description (RFC 7986 NAME/DESCRIPTION or the X-WR- forms), its URL and
// the refresh interval as a TTL hint.
func calendarFeed(cal *ical.Component) *Feed {
	f := &Feed{
		Title:       cleanText(firstText(cal.Props, "NAME", "X-WR-CALNAME")),
		Description: strings.TrimSpace(firstText(cal.Props, "DESCRIPTION", "X-WR-CALDESC")),
		SiteURL:     strings.TrimSpace(firstText(cal.Props, "URL")),
		Entries:     []Entry{},
	}
	for _, name := range []string{"REFRESH-INTERVAL", "X-PUBLISHED-TTL"} {
		if p := cal.Props.Get(name); p != nil {
			if d, err := parseICalDuration(p.Value); err == nil && !d.negative {
				if m := d.approxMinutes(); m > 0 {
					f.Hints.TTLMinutes = m
					break
				}
			}
		}
	}
	return f
}

// Reasons for skipping an event.
var (
	errNoUID    = errors.New("feed: iCalendar: event without UID")
	errBadStamp = errors.New("feed: iCalendar: event without a UTC DTSTAMP")
	errBadEnd   = errors.New("feed: iCalendar: event with an invalid DTEND or DURATION")
)

// eventEntry converts a VEVENT. It needs a UID, a UTC DTSTAMP and a valid
// DTSTART (including a known time zone); otherwise it says why not.
func (c *converter) eventEntry(comp *ical.Component, zones *zoneResolver) (Entry, error) {
	uid := strings.TrimSpace(propText(comp.Props.Get(ical.PropUID)))
	if uid == "" {
		return Entry{}, errNoUID
	}
	if !validUTCStamp(comp.Props.Get(ical.PropDateTimeStamp)) {
		return Entry{}, errBadStamp
	}
	start, err := zones.parse(comp.Props.Get(ical.PropDateTimeStart))
	if err != nil {
		return Entry{}, fmt.Errorf("DTSTART: %w", err)
	}
	ev := &Event{
		Start:    start.t,
		AllDay:   start.allDay,
		TimeZone: start.zone,
		Location: strings.TrimSpace(propText(comp.Props.Get(ical.PropLocation))),
		Status:   strings.ToUpper(strings.TrimSpace(propText(comp.Props.Get(ical.PropStatus)))),
		URL:      c.res.resolve(propText(comp.Props.Get(ical.PropURL))),
	}
	ev.End = eventEnd(comp, start, zones)
	if p := comp.Props.Get(ical.PropRecurrenceRule); p != nil {
		ev.RRule = strings.TrimSpace(p.Value)
	}
	identity := uid
	if p := comp.Props.Get(ical.PropRecurrenceID); p != nil {
		ev.RecurrenceID = recurrenceKey(p, zones)
		identity = uid + " " + ev.RecurrenceID
	}
	e := Entry{
		Identity:   identity,
		Title:      cleanText(propText(comp.Props.Get(ical.PropSummary))),
		Link:       ev.URL,
		Summary:    textToHTML(propText(comp.Props.Get(ical.PropDescription))),
		Authors:    organizer(comp.Props.Get(ical.PropOrganizer)),
		Categories: categories(comp.Props),
		Event:      ev,
	}
	if p := comp.Props.Get("X-ALT-DESC"); p != nil && strings.EqualFold(p.Params.Get(ical.ParamFormatType), "text/html") {
		e.ContentHTML = strings.TrimSpace(unescapeICalText(p.Value))
	}
	if t, err := zones.parse(comp.Props.Get(ical.PropCreated)); err == nil {
		e.Published = t.t.UTC()
	}
	if t, err := zones.parse(comp.Props.Get(ical.PropLastModified)); err == nil {
		e.Updated = t.t.UTC()
	}
	c.eventAttachments(&e, comp.Props)
	return e, nil
}

// eventEnd applies RFC 5545's end rules: DTEND, else DTSTART + DURATION,
// else one day for an all-day event; a timed event without either is a
// moment and gets no end. Only DTSTART is required, so an unreadable end,
// or one before the start, leaves the end unset.
func eventEnd(comp *ical.Component, start icalTime, zones *zoneResolver) time.Time {
	if p := comp.Props.Get(ical.PropDateTimeEnd); p != nil {
		end, err := zones.parse(p)
		if err != nil || end.t.Before(start.t) {
			return time.Time{}
		}
		return end.t
	}
	if p := comp.Props.Get(ical.PropDuration); p != nil {
		d, err := parseICalDuration(p.Value)
		if err != nil || d.negative {
			return time.Time{}
		}
		return d.addTo(start.t)
	}
	if start.allDay {
		return start.t.AddDate(0, 0, 1)
	}
	return time.Time{}
}

// eventAttachments reads RFC 7986 IMAGE and ATTACH URIs.
func (c *converter) eventAttachments(e *Entry, props ical.Props) {
	for _, p := range props.Values(ical.PropImage) {
		if !strings.EqualFold(p.Params.Get(ical.ParamValue), "BINARY") {
			c.addImage(e, p.Value, "")
		}
	}
	for _, p := range props.Values(ical.PropAttach) {
		if strings.EqualFold(p.Params.Get(ical.ParamValue), "BINARY") || p.Params.Get(ical.ParamEncoding) != "" {
			continue
		}
		c.addEnclosure(e, p.Value, p.Params.Get(ical.ParamFormatType), "")
	}
}

// validUTCStamp reports whether DTSTAMP is present and a UTC date-time.
func validUTCStamp(p *ical.Prop) bool {
	if p == nil {
		return false
	}
	v := strings.TrimSpace(p.Value)
	if !strings.HasSuffix(v, "Z") {
		return false
	}
	_, ok := parseICalDateTime(strings.TrimSuffix(v, "Z"), nil)
	return ok
}

func organizer(p *ical.Prop) []string {
	if p == nil {
		return nil
	}
	name := strings.TrimSpace(p.Params.Get(ical.ParamCommonName))
	if name == "" {
		name, _ = cutPrefixFold(strings.TrimSpace(p.Value), "mailto:")
	}
	if name == "" {
		return nil
	}
	return []string{name}
}

func categories(props ical.Props) []string {
	var out []string
	for _, p := range props.Values(ical.PropCategories) {
		out = append(out, splitICalList(p.Value)...)
	}
	return uniqueTrimmed(out)
}

// propText returns a TEXT value unescaped; nil gives "".
func propText(p *ical.Prop) string {
	if p == nil {
		return ""
	}
	return unescapeICalText(p.Value)
}

func firstText(props ical.Props, names ...string) string {
	for _, n := range names {
		if v := propText(props.Get(n)); strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// textToHTML turns a plain-text DESCRIPTION into HTML like the other
// formats' summaries: escaped, with line breaks kept.
func textToHTML(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
	if s == "" {
		return ""
	}
	return strings.ReplaceAll(html.EscapeString(s), "\n", "<br>")
}
