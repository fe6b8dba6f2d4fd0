package templates

import (
	"strconv"
	"time"
)

// dateNames holds a language's names for dates; the bot's two languages
// are all there is, so they live here rather than in a locale library.
type dateNames struct {
	months, shortMonths [12]string
	shortDays           [7]string // Sunday first, as time.Weekday counts
	// allDay words an event that lasts whole days.
	allDay string
}

// namesFor returns the date names of lang; unknown languages get English.
func namesFor(lang string) (string, dateNames) {
	if lang == "de" {
		return "de", dateNames{
			months: [12]string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli",
				"August", "September", "Oktober", "November", "Dezember"},
			shortMonths: [12]string{"Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.", "Nov.", "Dez."},
			shortDays:   [7]string{"So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."},
			allDay:      "ganztägig",
		}
	}
	return "en", dateNames{
		months: [12]string{"January", "February", "March", "April", "May", "June", "July",
			"August", "September", "October", "November", "December"},
		shortMonths: [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"},
		shortDays:   [7]string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"},
		allDay:      "all day",
	}
}

// dateFormatter writes dates and times in one language and time zone.
type dateFormatter struct {
	lang  string
	names dateNames
	loc   *time.Location
}

func newDateFormatter(lang string, loc *time.Location) dateFormatter {
	lang, names := namesFor(lang)
	if loc == nil {
		loc = time.UTC
	}
	return dateFormatter{lang: lang, names: names, loc: loc}
}

// date is "2 January 2026" (en) or "2. Januar 2026" (de); "" for the zero time.
func (f dateFormatter) date(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.In(f.loc)
	return f.dayMonth(t, false) + " " + strconv.Itoa(t.Year())
}

// clock is "15:04" in the bot's zone; "" for the zero time.
func (f dateFormatter) clock(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(f.loc).Format("15:04")
}

// dateTime is date and clock together.
func (f dateFormatter) dateTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return f.date(t) + ", " + f.clock(t)
}

// dayMonth is "2 January" or "2. Januar" (short: "2 Jan", "2. Jan.").
func (f dateFormatter) dayMonth(t time.Time, short bool) string {
	month := f.names.months[t.Month()-1]
	if short {
		month = f.names.shortMonths[t.Month()-1]
	}
	if f.lang == "de" {
		return strconv.Itoa(t.Day()) + ". " + month
	}
	return strconv.Itoa(t.Day()) + " " + month
}

// day is "Mon, 2 Jan 2026" / "Mo., 2. Jan. 2026".
func (f dateFormatter) day(t time.Time) string {
	return f.names.shortDays[t.Weekday()] + ", " + f.dayMonth(t, true) + " " + strconv.Itoa(t.Year())
}

// event words when an event takes place: all-day events by their dates
// (iCalendar's end date is exclusive), timed ones in the bot's zone, a
// same-day end by its time only.
func (f dateFormatter) event(e *Event) string {
	if e == nil || e.Start.IsZero() {
		return ""
	}
	if e.AllDay {
		start := e.Start.UTC()
		last := start
		if !e.End.IsZero() {
			last = e.End.UTC().AddDate(0, 0, -1)
		}
		if !last.After(start) {
			return f.day(start) + " (" + f.names.allDay + ")"
		}
		return f.day(start) + " – " + f.day(last)
	}
	start := e.Start.In(f.loc)
	s := f.day(start) + ", " + start.Format("15:04")
	if e.End.IsZero() || !e.End.After(e.Start) {
		return s
	}
	end := e.End.In(f.loc)
	y1, m1, d1 := start.Date()
	if y2, m2, d2 := end.Date(); y1 == y2 && m1 == m2 && d1 == d2 {
		return s + "–" + end.Format("15:04")
	}
	return s + " – " + f.day(end) + ", " + end.Format("15:04")
}
