package feed

import (
	"strings"
	"testing"
)

func parseOne(t *testing.T, doc string) *Feed {
	t.Helper()
	f, err := Parse([]byte(doc), "", "https://example.com/dir/feed")
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Atom 0.3 text constructs are read by their mode and MIME type (0.3
// draft, section 3.1); 0.3 has no wrapper-div rule.
func TestAtom03Modes(t *testing.T) {
	f := parseOne(t, `<feed version="0.3" xmlns="http://purl.org/atom/ns#">
<title type="text/html" mode="escaped">A &lt;b&gt;bold&lt;/b&gt; &amp;amp; co</title>
<tagline type="text/html" mode="base64">PGEgaHJlZj0iL3giPng8L2E+</tagline>
<entry>
  <title type="application/xhtml+xml" mode="xml"><div xmlns="http://www.w3.org/1999/xhtml">Hi <b>there</b></div></title>
  <summary type="text/plain" mode="escaped">1 &lt; 2</summary>
  <content type="application/xhtml+xml" mode="xml" xml:base="/base/"><div xmlns="http://www.w3.org/1999/xhtml"><a href="p">x</a><br/></div></content>
</entry>
<entry>
  <summary>Naked <b>markup</b></summary>
  <content type="image/png" mode="base64">iVBORw0K</content>
</entry>
</feed>`)
	if f.Title != "A bold & co" {
		t.Errorf("escaped html title = %q", f.Title)
	}
	if f.Description != `<a href="https://example.com/x">x</a>` {
		t.Errorf("base64 tagline = %q", f.Description)
	}
	e := f.Entries[0]
	if e.Title != "Hi there" {
		t.Errorf("xhtml title = %q", e.Title)
	}
	if e.Summary != "1 &lt; 2" {
		t.Errorf("text/plain summary = %q, want it escaped as HTML", e.Summary)
	}
	if e.ContentHTML != `<div><a href="https://example.com/base/p">x</a><br/></div>` {
		t.Errorf("xhtml content = %q, want the div kept and xml:base applied", e.ContentHTML)
	}
	if got := f.Entries[1].Summary; got != "Naked <b>markup</b>" {
		t.Errorf("untyped summary with markup = %q, want read as HTML", got)
	}
	if got := f.Entries[1].ContentHTML; strings.Contains(got, "PNG") {
		t.Errorf("binary content decoded into HTML: %q", got)
	}
}

// RFC 4287 3.1.1.3: the xhtml div is a wrapper, not content. Namespace
// prefixes are dropped so HTML readers know the elements.
func TestAtomPrefixedXHTML(t *testing.T) {
	f := parseOne(t, `<feed xmlns="http://www.w3.org/2005/Atom" xmlns:h="http://www.w3.org/1999/xhtml">
<entry><id>1</id>
<content type="xhtml"><h:div><h:p>Hi <h:a href="/x" xml:base="/sub/">link</h:a><h:img src="i.png"/></h:p></h:div></content>
</entry>
<entry><id>2</id><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>plain</p></div></content></entry>
</feed>`)
	want := `<p>Hi <a href="https://example.com/x">link</a><img src="https://example.com/dir/i.png"/></p>`
	if got := f.Entries[0].ContentHTML; got != want {
		t.Errorf("prefixed xhtml content = %q, want %q", got, want)
	}
	if got := f.Entries[1].ContentHTML; got != "<p>plain</p>" {
		t.Errorf("unprefixed xhtml content = %q", got)
	}
}

func TestAtomHTMLTitlesAreText(t *testing.T) {
	f := parseOne(t, `<feed xmlns="http://www.w3.org/2005/Atom"><title type="html"><![CDATA[Blog &#8211; News]]></title>
<entry><id>1</id><title type="html"><![CDATA[Tom &amp; Jerry <em>again</em>]]></title></entry>
<entry><id>2</id><title type="text">vector&lt;int&gt;</title></entry></feed>`)
	if f.Title != "Blog – News" {
		t.Errorf("feed title = %q", f.Title)
	}
	if got := f.Entries[0].Title; got != "Tom & Jerry again" {
		t.Errorf("html title = %q", got)
	}
	if got := f.Entries[1].Title; got != "vector<int>" {
		t.Errorf("text title = %q", got)
	}
}

// Drafts before Atom 0.3 used other namespaces for the feed element.
func TestAtomRootInOtherNamespace(t *testing.T) {
	f := parseOne(t, `<feed version="0.3" xmlns="http://purl.org/echo/"><title>Echo</title><entry><id>e1</id><title>T</title></entry></feed>`)
	if f.Title != "Echo" || len(f.Entries) != 1 || f.Entries[0].Identity != "e1" {
		t.Errorf("feed = %q, %d entries", f.Title, len(f.Entries))
	}
	body := []byte(`<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>`)
	if got := rebindAtomRoot(body); &got[0] != &body[0] {
		t.Error("an Atom root was rewritten")
	}
}

func TestRSSXHTMLBody(t *testing.T) {
	f := parseOne(t, `<rss version="2.0"><channel><title>B</title>
<item><guid>1</guid><description>short</description><body xmlns="http://www.w3.org/1999/xhtml"><p>Full <a href="/a">text</a></p></body></item>
<item><guid>2</guid><description>only</description></item>
</channel></rss>`)
	if got := f.Entries[0].ContentHTML; got != `<p>Full <a href="https://example.com/a">text</a></p>` {
		t.Errorf("body content = %q", got)
	}
	if f.Entries[0].Summary != "short" || f.Entries[1].ContentHTML != "" {
		t.Errorf("summary %q, second content %q", f.Entries[0].Summary, f.Entries[1].ContentHTML)
	}
}

func TestRereadXMLLimitsDepth(t *testing.T) {
	doc := `<feed version="0.3" xmlns="http://purl.org/atom/ns#">` + strings.Repeat("<x>", rawMaxDepth+5) + strings.Repeat("</x>", rawMaxDepth+5) + `</feed>`
	if _, err := rereadXML([]byte(doc), resolver{}, rawQuery{entry: "entry", inNS: isAtomNS}); err == nil {
		t.Error("a document nested deeper than rawMaxDepth was read")
	}
}
