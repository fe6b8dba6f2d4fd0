package feed

import "testing"

func TestPlainTitle(t *testing.T) {
	tests := []struct {
		rule, in, want string
	}{
		{"plain text stays", "Hello  world\n", "Hello world"},
		{"complete references decode (WordPress writes &#8211;)", "Foo &#8211; Bar", "Foo – Bar"},
		{"an escaped ampersand decodes", "Q&amp;A", "Q&A"},
		{"a bare ampersand is text", "AT&T", "AT&T"},
		{"a name that is only a legacy prefix is not decoded", "a &notation; b", "a &notation; b"},
		{"markup without an end tag is text", "vector<int>", "vector<int>"},
		{"escaped markup decodes to text", "x &lt;y&gt;", "x <y>"},
		{"an end tag makes it HTML: tags dropped", "Example <b>Atom</b>", "Example Atom"},
		{"a line break separates words", "one<br/>two", "one two"},
		{"inline tags join words", "<b>A</b>tom</i>", "Atom"},
		{"references inside HTML decode once", "<b>&amp;amp;</b>", "&amp;"},
		{"script text is not title text", "a<script>x()</script></b>", "a"},
	}
	for _, tc := range tests {
		if got := plainTitle(tc.in); got != tc.want {
			t.Errorf("%s: plainTitle(%q) = %q, want %q", tc.rule, tc.in, got, tc.want)
		}
	}
}

func TestHasPrefixedTag(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{`<svg:svg version="1.1">`, true},
		{`a <xhtml:p>b`, true},
		{`<p>a: b</p>`, false},
		{`a < b: c`, false},
		{`http://example.com/`, false},
	}
	for _, tc := range tests {
		if got := hasPrefixedTag(tc.in); got != tc.want {
			t.Errorf("hasPrefixedTag(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
