package telegramtest

import (
	"errors"
	"strings"
	"testing"
)

// The parser's own rules are tested in templates/tghtml; these tests check that
// the server's wrappers report its refusals as Telegram's 400 answers.
func TestValidatorWrappersAnswer400(t *testing.T) {
	tests := []struct {
		rule string
		call func() error
		want string
	}{
		{"parse errors", func() error { _, err := ParseHTML("a < b"); return err },
			DescParsePrefix + `Unsupported start tag "" at byte offset 2`},
		{"parse errors with entities", func() error { _, _, err := ParseHTMLEntities("<b>x"); return err },
			DescParsePrefix + `Can't find end tag corresponding to start tag "b"`},
		{"unknown parse modes", func() error { _, err := ParseText("x", "XML"); return err },
			"Bad Request: unsupported parse_mode"},
		{"text too long", func() error { return CheckText(strings.Repeat("a", MaxTextLength+1), "") }, DescTooLong},
		{"empty text", func() error { return CheckText(" ", "HTML") }, DescTextEmpty},
		{"caption too long", func() error { return CheckCaption(strings.Repeat("a", MaxCaptionLength+1), "") }, DescCaptionTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			var apiErr *APIError
			if err := tt.call(); !errors.As(err, &apiErr) {
				t.Fatalf("error = %v, want an *APIError", err)
			}
			if apiErr.Code != 400 || apiErr.Description != tt.want {
				t.Errorf("got %d %q, want 400 %q", apiErr.Code, apiErr.Description, tt.want)
			}
		})
	}
}

func TestValidatorWrappersAccept(t *testing.T) {
	f, err := ParseText("  <b>x</b> &amp; y ", "HTML")
	if err != nil {
		t.Fatal(err)
	}
	if f.Text != "x & y" || len(f.Entities) != 1 || f.Entities[0].Type != "bold" {
		t.Errorf("ParseText = %+v", f)
	}
	if err := CheckText("<i>ok</i>", "HTML"); err != nil {
		t.Errorf("CheckText: %v", err)
	}
	if err := CheckCaption("", "HTML"); err != nil {
		t.Errorf("CheckCaption of an empty caption: %v", err)
	}
	if n := TextLength("😀é"); n != 2 {
		t.Errorf("TextLength = %d, want 2", n)
	}
}
