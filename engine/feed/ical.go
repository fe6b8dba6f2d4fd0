package feed

import (
	"errors"
	"html"
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
		// Converted in place rather than returned and appended: an Entry
		// is some 250 bytes, mostly pointers, and each copy of it costs
		// write barriers while the GC runs.
		f.Entries = append(f.Entries, Entry{})
		if err := c.eventEntry(&f.Entries[len(f.Entries)-1], ev, zones); err != nil {
			f.Entries = f.Entries[:len(f.Entries)-1]
			f.Skipped++
		}
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
		if p := getProp(cal.Props, name); p != nil {
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

// eventEntry converts a VEVENT into e, which must be zero. It needs a UID,
// a UTC DTSTAMP and a valid DTSTART (including a known time zone);
// otherwise it says why not and leaves e as it was.
func (c *converter) eventEntry(e *Entry, comp *ical.Component, zones *zoneResolver) error {
	uid := strings.TrimSpace(propText(getProp(comp.Props, ical.PropUID)))
	if uid == "" {
		return errNoUID
	}
	if !validUTCStamp(getProp(comp.Props, ical.PropDateTimeStamp)) {
		return errBadStamp
	}
	start, err := zones.parse(getProp(comp.Props, ical.PropDateTimeStart))
	if err != nil {
		return err
	}
	ev := &Event{
		Start:    start.t,
		AllDay:   start.allDay,
		TimeZone: start.zone,
		Location: strings.TrimSpace(propText(getProp(comp.Props, ical.PropLocation))),
		Status:   strings.ToUpper(strings.TrimSpace(propText(getProp(comp.Props, ical.PropStatus)))),
		URL:      c.res.resolve(propText(getProp(comp.Props, ical.PropURL))),
	}
	ev.End = eventEnd(comp.Props, start, zones)
	if p := getProp(comp.Props, ical.PropRecurrenceRule); p != nil {
		ev.RRule = strings.TrimSpace(p.Value)
	}
	identity := uid
	if p := getProp(comp.Props, ical.PropRecurrenceID); p != nil {
		ev.RecurrenceID = recurrenceKey(p, zones)
		identity = uid + " " + ev.RecurrenceID
	}
	e.Identity = identity
	e.Title = cleanText(propText(getProp(comp.Props, ical.PropSummary)))
	e.Link = ev.URL
	e.Summary = textToHTML(propText(getProp(comp.Props, ical.PropDescription)))
	e.Authors = organizer(getProp(comp.Props, ical.PropOrganizer))
	e.Categories = categories(comp.Props[ical.PropCategories])
	e.Event = ev
	if p := getProp(comp.Props, "X-ALT-DESC"); p != nil && strings.EqualFold(getParam(p.Params, ical.ParamFormatType), "text/html") {
		e.ContentHTML = strings.TrimSpace(unescapeICalText(p.Value))
	}
	if t, err := zones.parse(getProp(comp.Props, ical.PropCreated)); err == nil {
		e.Published = t.t.UTC()
	}
	if t, err := zones.parse(getProp(comp.Props, ical.PropLastModified)); err == nil {
		e.Updated = t.t.UTC()
	}
	c.eventAttachments(e, comp.Props)
	return nil
}

// eventEnd applies RFC 5545's end rules: DTEND, else DTSTART + DURATION,
// else one day for an all-day event; a timed event without either is a
// moment and gets no end. Only DTSTART is required, so an unreadable end,
// or one before the start, leaves the end unset.
func eventEnd(props ical.Props, start icalTime, zones *zoneResolver) time.Time {
	if p := getProp(props, ical.PropDateTimeEnd); p != nil {
		end, err := zones.parse(p)
		if err != nil || end.t.Before(start.t) {
			return time.Time{}
		}
		return end.t
	}
	if p := getProp(props, ical.PropDuration); p != nil {
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
	for _, p := range props[ical.PropImage] {
		if !strings.EqualFold(getParam(p.Params, ical.ParamValue), "BINARY") {
			c.addImage(e, p.Value, "")
		}
	}
	for _, p := range props[ical.PropAttach] {
		if strings.EqualFold(getParam(p.Params, ical.ParamValue), "BINARY") || getParam(p.Params, ical.ParamEncoding) != "" {
			continue
		}
		c.addEnclosure(e, p.Value, getParam(p.Params, ical.ParamFormatType), "")
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
	name := strings.TrimSpace(getParam(p.Params, ical.ParamCommonName))
	if name == "" {
		name, _ = cutPrefixFold(strings.TrimSpace(p.Value), "mailto:")
	}
	if name == "" {
		return nil
	}
	return []string{name}
}

func categories(props []ical.Prop) []string {
	var out []string
	for _, p := range props {
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
		if v := propText(getProp(props, n)); strings.TrimSpace(v) != "" {
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

// getProp is Props.Get for a name already in upper case, as go-ical
// stores them and as every name here is written: Props.Get upper-cases
// its argument on every call, some twenty times per event.
func getProp(props ical.Props, name string) *ical.Prop {
	if ps := props[name]; len(ps) > 0 {
		return &ps[0]
	}
	return nil
}

// getParam is Params.Get for a name already in upper case.
func getParam(params ical.Params, name string) string {
	if vs := params[name]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}
