package templates

import (
	"regexp"

	"github.com/microcosm-cc/bluemonday"
)

// newSanitizer is the first step of the HTML conversion: a bluemonday
// allowlist of the elements the converter understands, so scripts, styles,
// event handlers and javascript: URLs are gone before conversion starts and
// every other element is unwrapped to its text.
func newSanitizer() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements(
		// blocks
		"p", "div", "section", "article", "header", "footer", "aside", "main", "nav",
		"figure", "figcaption", "address", "details", "summary", "hgroup", "center",
		"fieldset", "legend", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "br",
		"ul", "ol", "li", "dl", "dt", "dd", "blockquote", "pre",
		"table", "thead", "tbody", "tfoot", "tr", "td", "th", "caption",
		// inline
		"b", "strong", "i", "em", "cite", "dfn", "var", "u", "ins", "s", "strike", "del",
		"code", "kbd", "samp", "tt", "q", "sup", "sub", "small", "mark", "abbr", "span", "time",
	)
	p.AllowAttrs("href").OnElements("a")
	p.AllowAttrs("src").OnElements("img")
	p.AllowAttrs("width", "height").Matching(regexp.MustCompile(`^\s*[0-9]+(\.[0-9]+)?\s*(px|%)?\s*$`)).OnElements("img")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[\w\s+#.:-]{1,200}$`)).OnElements("pre", "code")
	p.AllowAttrs("start").Matching(regexp.MustCompile(`^-?[0-9]{1,9}$`)).OnElements("ol")
	p.AllowURLSchemes("http", "https", "mailto", "tg")
	p.AllowRelativeURLs(true)
	p.AllowDataURIImages()
	p.SkipElementsContent("svg", "math", "template", "audio", "video", "canvas", "button",
		"select", "textarea", "head", "map")
	return p
}
