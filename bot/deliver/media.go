package deliver

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/templates"
)

// MaxPhotoUpload is Telegram's limit for an uploaded photo.
const MaxPhotoUpload = 10 << 20

// downloadBudget bounds all downloads for one call, so that a post never
// outlives its outbox lease.
const downloadBudget = 60 * time.Second

// Media turns a call's images into photos: http(s) URLs as they are, data:
// images decoded for upload (within the media limit and Telegram's photo
// limit), and, on demand, downloads of the URLs Telegram refused.
type Media struct {
	// Fetcher downloads images; nil: refused URLs are not retried.
	Fetcher *fetch.Client
	// MaxBytes is MEDIA_MAX_BYTES; Telegram's 10 MB photo limit applies too.
	MaxBytes int64
}

func (m Media) limit() int64 {
	if m.MaxBytes > 0 {
		return min(m.MaxBytes, MaxPhotoUpload)
	}
	return MaxPhotoUpload
}

// photos resolves images for a first attempt; data: images that cannot
// be decoded are left out, as Telegram could not show them either.
func (m Media) photos(images []string) ([]photo, []error) {
	var out []photo
	var errs []error
	for i, img := range images {
		if !templates.IsDataURL(img) {
			out = append(out, photo{url: img})
			continue
		}
		data, mediaType, err := feed.DecodeDataURL(img, m.limit())
		if err == nil && !strings.HasPrefix(mediaType, "image/") {
			err = fmt.Errorf("deliver: data URL of type %s is not an image", mediaType)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("image %d: %w", i+1, err))
			continue
		}
		name := "image-" + feed.DataURLID(img)[:12] + extension(mediaType)
		out = append(out, photo{upload: &Upload{Name: name, Data: data}})
	}
	return out, errs
}

// download replaces the URL photos by uploads of their content; those
// that cannot be downloaded are dropped.
func (m Media) download(ctx context.Context, photos []photo) ([]photo, []error) {
	ctx, cancel := context.WithTimeout(ctx, downloadBudget)
	defer cancel()
	var out []photo
	var errs []error
	for _, p := range photos {
		if p.upload != nil {
			out = append(out, p)
			continue
		}
		up, err := m.fetchPhoto(ctx, p.url)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, photo{upload: up})
	}
	return out, errs
}

// fetchPhoto downloads an image for upload.
func (m Media) fetchPhoto(ctx context.Context, rawURL string) (*Upload, error) {
	if m.Fetcher == nil {
		return nil, errors.New("deliver: no fetcher to download images with")
	}
	res := m.Fetcher.Fetch(ctx, fetch.Request{URL: rawURL, Media: true, Fresh: true})
	if res.Outcome != fetch.OK {
		return nil, fmt.Errorf("deliver: downloading an image: %w", res.Err)
	}
	if int64(len(res.Body)) > m.limit() {
		return nil, fmt.Errorf("deliver: image of %s is over the photo limit of %s",
			fetch.FormatSize(int64(len(res.Body))), fetch.FormatSize(m.limit()))
	}
	mediaType, _, _ := mime.ParseMediaType(res.ContentType)
	if !strings.HasPrefix(mediaType, "image/") {
		// Servers label images loosely; trust the content when it is one.
		mediaType = http.DetectContentType(res.Body)
	}
	if !strings.HasPrefix(mediaType, "image/") {
		return nil, fmt.Errorf("deliver: the image URL served %s", mediaType)
	}
	return &Upload{Name: uploadName(rawURL, mediaType), Data: res.Body}, nil
}

// uploadName is the image's file name from its URL, with an extension
// that matches its type.
func uploadName(rawURL, mediaType string) string {
	name := "image"
	if u, err := url.Parse(rawURL); err == nil {
		if base := path.Base(u.Path); base != "/" && base != "." && base != "" {
			name = strings.TrimSuffix(base, path.Ext(base))
		}
	}
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == '"' || r == '\\' || r == '/' {
			return '_'
		}
		return r
	}, name)
	if len(name) > 64 {
		name = strings.ToValidUTF8(name[:64], "")
	}
	return name + extension(mediaType)
}

func extension(mediaType string) string {
	switch strings.ToLower(mediaType) {
	case "image/jpeg", "image/jpg":
		return ".jpg"
	case "image/png":
		return ".png"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/bmp":
		return ".bmp"
	}
	return ".img"
}
