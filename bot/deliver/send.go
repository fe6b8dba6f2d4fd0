package deliver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/templates"
)

// API is the part of the Bot API that delivery uses; *bot.Bot of
// go-telegram/bot has it.
type API interface {
	SendMessage(ctx context.Context, params *tgbot.SendMessageParams) (*models.Message, error)
	SendPhoto(ctx context.Context, params *tgbot.SendPhotoParams) (*models.Message, error)
	SendMediaGroup(ctx context.Context, params *tgbot.SendMediaGroupParams) ([]*models.Message, error)
}

// maxInlineWait is the longest 429 wait honoured inside a post: a later
// part of a post is retried after it rather than lost.
const maxInlineWait = 30 * time.Second

// Sender sends rendered posts. An image never holds back its entry: an
// image Telegram will not fetch is downloaded and uploaded, and if that
// fails too the text goes out alone. A group that became a supergroup gets
// the post at its new id, and HTML that Telegram refuses goes again as
// plain text.
type Sender struct {
	API    API
	Media  Media
	Logger *slog.Logger
	// Sleep waits d, or less when ctx ends (then false); nil: a timer.
	Sleep func(ctx context.Context, d time.Duration) bool
}

// Sent is what Send did.
type Sent struct {
	// IDs are the messages sent, in order.
	IDs []int
	// ChatID is where the post went: the target's chat, or the supergroup
	// Telegram said it became (migrate_to_chat_id).
	ChatID int64
	// Plain: Telegram refused a call's HTML and it went as plain text.
	Plain bool
}

// Send sends a post's calls in order. An error after some messages went
// out comes with their ids: the post is then partly sent and must not be
// repeated. A call in flight is finished even when ctx ends; only waits
// stop early.
func (s *Sender) Send(ctx context.Context, t Target, post templates.Post) (Sent, error) {
	out := Sent{ChatID: t.ChatID}
	for i, c := range post.Calls {
		plain := false
		got, err := s.sendCall(ctx, t, c, plain)
		if to := migrateTo(err); to != 0 && to != t.ChatID {
			s.log().Warn("deliver: the group became a supergroup; sending there", "chat_id", t.ChatID, "new_chat_id", to)
			t.ChatID, out.ChatID = to, to
			got, err = s.sendCall(ctx, t, c, plain)
		}
		if Classify(err) == BadEntities {
			s.log().Error("deliver: Telegram refused HTML the renderer accepted; sending it as plain text",
				"chat_id", t.ChatID, "method", c.Method, "error", err, "text", c.Text)
			plain, out.Plain = true, true
			got, err = s.sendCall(ctx, t, c, plain)
		}
		if wait := retryAfter(err); err != nil && i > 0 && wait > 0 && wait <= maxInlineWait {
			// A later part of a post: waiting here keeps the post whole.
			if s.sleep(ctx, wait) {
				got, err = s.sendCall(ctx, t, c, plain)
			}
		}
		out.IDs = append(out.IDs, got...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

func (s *Sender) sleep(ctx context.Context, d time.Duration) bool {
	if s.Sleep != nil {
		return s.Sleep(ctx, d)
	}
	return sleepCtx(ctx, d)
}

// sleepCtx waits d or until ctx ends; false when ctx ended first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// Requests returns the Bot API calls of a post as a first attempt sends
// them, for showing rather than sending (`rssbot preview`).
func (s *Sender) Requests(t Target, post templates.Post) []Request {
	var out []Request
	for _, c := range post.Calls {
		if c.Method == templates.SendMessage {
			out = append(out, buildMessage(t, c, models.ParseModeHTML))
			continue
		}
		photos, _ := s.Media.photos(c.Images)
		switch {
		case len(photos) > 0:
			out = append(out, buildMedia(t, c, photos, models.ParseModeHTML))
		case c.Fallback != nil:
			out = append(out, buildMessage(t, *c.Fallback, models.ParseModeHTML))
		}
	}
	return out
}

// sendCall makes one call, as plain text when plain is set.
func (s *Sender) sendCall(ctx context.Context, t Target, c templates.Call, plain bool) ([]int, error) {
	mode := models.ParseModeHTML
	if plain {
		c, mode = plainCall(c), ""
	}
	if c.Method == templates.SendMessage {
		return s.sendMessage(ctx, t, c, mode)
	}
	return s.sendMedia(ctx, t, c, mode)
}

func (s *Sender) sendMessage(ctx context.Context, t Target, c templates.Call, mode models.ParseMode) ([]int, error) {
	callCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), SendTimeout)
	defer cancel()
	m, err := s.API.SendMessage(callCtx, buildMessage(t, c, mode).Message)
	if err != nil {
		return nil, err
	}
	return []int{m.ID}, nil
}

// sendMedia sends a photo or album: by URL first; images Telegram refuses
// by URL are downloaded and uploaded; if the media still cannot be sent,
// the call's fallback (its caption as a text) goes instead.
func (s *Sender) sendMedia(ctx context.Context, t Target, c templates.Call, mode models.ParseMode) ([]int, error) {
	photos, errs := s.Media.photos(c.Images)
	for attempt := 0; ; attempt++ {
		if len(photos) == 0 {
			return s.fallback(ctx, t, c, mode, errors.Join(errs...))
		}
		ids, err := s.sendPhotos(ctx, t, c, photos, mode)
		if err == nil || !imageProblem(err) {
			return ids, err
		}
		errs = append(errs, err)
		if attempt > 0 || !urlRefused(err) || !hasURL(photos) {
			return s.fallback(ctx, t, c, mode, errors.Join(errs...))
		}
		s.log().Info("deliver: Telegram refused an image URL; uploading it", "chat_id", t.ChatID, "error", err)
		var dlErrs []error
		photos, dlErrs = s.Media.download(context.WithoutCancel(ctx), photos)
		errs = append(errs, dlErrs...)
	}
}

// sendPhotos makes one attempt; the request is built anew, so uploads
// start from their first byte.
func (s *Sender) sendPhotos(ctx context.Context, t Target, c templates.Call, photos []photo, mode models.ParseMode) ([]int, error) {
	callCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), SendTimeout)
	defer cancel()
	r := buildMedia(t, c, photos, mode)
	if r.Photo != nil {
		m, err := s.API.SendPhoto(callCtx, r.Photo)
		if err != nil {
			return nil, err
		}
		return []int{m.ID}, nil
	}
	msgs, err := s.API.SendMediaGroup(callCtx, r.Album)
	if err != nil {
		return nil, err
	}
	ids := make([]int, 0, len(msgs))
	for _, m := range msgs {
		ids = append(ids, m.ID)
	}
	return ids, nil
}

// fallback sends a media call's text alone, when it has one.
func (s *Sender) fallback(ctx context.Context, t Target, c templates.Call, mode models.ParseMode, why error) ([]int, error) {
	s.log().Warn("deliver: sending the post without its images", "chat_id", t.ChatID, "error", why)
	if c.Fallback == nil {
		return nil, nil
	}
	return s.sendMessage(ctx, t, *c.Fallback, mode)
}

func (s *Sender) log() *slog.Logger {
	if s.Logger == nil {
		return slog.Default()
	}
	return s.Logger
}

// imageProblem reports a refusal that may be the images' fault: a bad
// request that is not about the chat, the topic or the HTML (Classify
// knows those). Should the chat be at fault after all, the text fallback
// fails the same way and reports it.
func imageProblem(err error) bool {
	return errors.Is(err, tgbot.ErrorBadRequest) && Classify(err) == Refused
}

// urlRefused reports Telegram's answers for a URL it could not fetch or
// use, which an upload of the same image may cure.
func urlRefused(err error) bool {
	msg := err.Error()
	for _, s := range []string{
		"wrong file identifier/HTTP URL specified",
		"failed to get HTTP URL content",
		"wrong type of the web page content",
		"WEBPAGE_CURL_FAILED",
		"WEBPAGE_MEDIA_EMPTY",
	} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

func hasURL(photos []photo) bool {
	for _, p := range photos {
		if p.upload == nil {
			return true
		}
	}
	return false
}

// describe names a post's shape for logs.
func describe(post templates.Post) string {
	methods := make([]string, len(post.Calls))
	for i, c := range post.Calls {
		methods[i] = c.Method
	}
	return fmt.Sprint(methods)
}
