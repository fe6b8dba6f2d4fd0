package templates

import (
	"html/template"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/templates/tghtml"
)

// Bot API methods a post uses.
const (
	SendMessage    = "sendMessage"
	SendPhoto      = "sendPhoto"
	SendMediaGroup = "sendMediaGroup"
)

// Media modes of a subscription (storage's values).
const (
	MediaNone    = "none"
	MediaPreview = "preview"
	MediaPhoto   = "photo"
	MediaAlbum   = "album"
)

// Options say how an entry is posted to one subscription.
type Options struct {
	FeedTitle string
	// FeedURL resolves relative links when the entry has no link of its own.
	FeedURL string
	// Language is BOT_LANGUAGE ("en" or "de"): the built-in template and
	// the names in dates.
	Language string
	// MediaMode is none, preview (the default), photo or album.
	MediaMode string
	// Split sends text over the limit as further messages instead of
	// shortening it.
	Split bool
	// Template is the subscription's own template text; "" uses the
	// renderer's.
	Template string
	// Replacements apply to title and content, in order (the bot passes
	// the global and the feed's rules in the order they were added).
	Replacements []*Replacement
}

// Post is the Bot API calls that post one entry, in order.
type Post struct {
	Calls []Call
	// TemplateErr is set when the chosen template failed for this entry and
	// the built-in template was used instead: the entry is still posted,
	// and the admin should hear of it.
	TemplateErr error
}

// Call is one Bot API call of a post.
type Call struct {
	Method string // SendMessage, SendPhoto or SendMediaGroup
	// Text is the message text, or the caption of a photo or of an album's
	// first item (then possibly empty): Telegram HTML within the limits.
	Text string
	// Images are the photos: one for sendPhoto, 2–10 for sendMediaGroup.
	// An http(s) URL is given to Telegram as is; a data: URL is uploaded.
	Images []string
	// Preview is sendMessage's link preview.
	Preview LinkPreview
	// Fallback is what to send instead when none of the images can be sent
	// (the caption as a text); nil: nothing, the text follows anyway.
	Fallback *Call
}

// LinkPreview is sendMessage's link_preview_options.
type LinkPreview struct {
	Disabled  bool
	URL       string
	AboveText bool // show_above_text
	Large     bool // prefer_large_media
}

// Render renders an entry into the calls that post it. A template that
// fails for this entry falls back to the built-in template (see
// Post.TemplateErr); an error means even that failed.
func (r *Renderer) Render(e feed.Entry, o Options) (Post, error) {
	lang := o.Language
	if lang != "de" {
		lang = "en"
	}
	v := newView(r.conv, e, input{feedTitle: o.FeedTitle, feedURL: o.FeedURL, rules: o.Replacements, loc: r.loc})
	t, custom, err := r.chosen(lang, o.Template)
	var post Post
	if err == nil {
		post, err = plan(t, v, o, fallbackText(v, e))
	}
	if err != nil && custom {
		def, derr := plan(r.defaultTemplate(lang), v, o, fallbackText(v, e))
		if derr != nil {
			return Post{}, derr
		}
		def.TemplateErr = err
		return def, nil
	}
	return post, err
}

// fallbackText is posted when a template writes nothing visible.
func fallbackText(v view, e feed.Entry) string {
	for _, s := range []string{v.data.Title, v.data.PostLink, tidyLine(e.Identity)} {
		if s != "" {
			return s
		}
	}
	return ellipsis
}

// plan lays out the calls for the subscription's media mode.
func plan(t *template.Template, v view, o Options, fallback string) (Post, error) {
	f, err := newFitter(t, v, fallback)
	if err != nil {
		return Post{}, err
	}
	switch o.MediaMode {
	case MediaNone:
		return textPost(f, o.Split, LinkPreview{Disabled: true})
	case MediaPhoto, MediaAlbum:
		if len(v.images) > 0 {
			return mediaPost(f, v, o)
		}
	}
	return textPost(f, o.Split, previewFor(v))
}

// previewFor shows the entry's first http(s) image above the text, large;
// without one, the article; without a link, nothing.
func previewFor(v view) LinkPreview {
	switch {
	case v.data.Image != "":
		return LinkPreview{URL: v.data.Image, AboveText: true, Large: true}
	case v.data.PostLink != "":
		return LinkPreview{URL: v.data.PostLink}
	}
	return LinkPreview{Disabled: true}
}

// textPost posts the text alone; only the first message has a preview.
func textPost(f *fitter, split bool, preview LinkPreview) (Post, error) {
	texts, err := f.texts(tghtml.MaxTextLength, split)
	if err != nil {
		return Post{}, err
	}
	var post Post
	for i, text := range texts {
		c := Call{Method: SendMessage, Text: text, Preview: preview}
		if i > 0 {
			c.Preview = LinkPreview{Disabled: true}
		}
		post.Calls = append(post.Calls, c)
	}
	return post, nil
}

// mediaPost sends the photo (or album) with the text as its caption when
// the text fits one; otherwise the media first, then the text.
func mediaPost(f *fitter, v view, o Options) (Post, error) {
	media := Call{Method: SendPhoto, Images: v.images[:1]}
	if o.MediaMode == MediaAlbum && len(v.images) > 1 {
		media = Call{Method: SendMediaGroup, Images: v.images[:min(len(v.images), MaxAlbum)]}
	}
	if f.wholeFits(tghtml.MaxCaptionLength) {
		media.Text = f.fullHTML
		media.Fallback = &Call{Method: SendMessage, Text: f.fullHTML, Preview: articlePreview(v)}
		return Post{Calls: []Call{media}}, nil
	}
	rest, err := textPost(f, o.Split, LinkPreview{Disabled: true})
	if err != nil {
		return Post{}, err
	}
	rest.Calls = append([]Call{media}, rest.Calls...)
	return rest, nil
}

func articlePreview(v view) LinkPreview {
	if v.data.PostLink != "" {
		return LinkPreview{URL: v.data.PostLink}
	}
	return LinkPreview{Disabled: true}
}
