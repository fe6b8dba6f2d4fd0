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
// fails too the text goes out alone.
type Sender struct {
	API    API
	Media  Media
	Logger *slog.Logger
}

// Send sends a post's calls in order and returns the ids of the messages
// sent. An error after some messages went out comes with their ids: the
// post is then partly sent and must not be repeated. A call in flight is
// finished even when ctx ends; only waits stop early.
func (s *Sender) Send(ctx context.Context, t Target, post templates.Post) ([]int, error) {
	var ids []int
	for i, c := range post.Calls {
		got, err := s.sendCall(ctx, t, c)
		if wait := retryAfter(err); err != nil && i > 0 && wait > 0 && wait <= maxInlineWait {
			select {
			case <-ctx.Done():
			case <-time.After(wait):
				got, err = s.sendCall(ctx, t, c)
			}
		}
		ids = append(ids, got...)
		if err != nil {
			return ids, err
		}
	}
	return ids, nil
}

// Requests returns the Bot API calls of a post as a first attempt sends
// them, for showing rather than sending (`rssbot preview`).
func (s *Sender) Requests(t Target, post templates.Post) []Request {
	var out []Request
	for _, c := range post.Calls {
		if c.Method == templates.SendMessage {
			out = append(out, buildMessage(t, c))
			continue
		}
		photos, _ := s.Media.photos(c.Images)
		switch {
		case len(photos) > 0:
			out = append(out, buildMedia(t, c, photos))
		case c.Fallback != nil:
			out = append(out, buildMessage(t, *c.Fallback))
		}
	}
	return out
}

func (s *Sender) sendCall(ctx context.Context, t Target, c templates.Call) ([]int, error) {
	if c.Method == templates.SendMessage {
		return s.sendMessage(ctx, t, c)
	}
	return s.sendMedia(ctx, t, c)
}

func (s *Sender) sendMessage(ctx context.Context, t Target, c templates.Call) ([]int, error) {
	callCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), SendTimeout)
	defer cancel()
	m, err := s.API.SendMessage(callCtx, buildMessage(t, c).Message)
	if err != nil {
		return nil, err
	}
	return []int{m.ID}, nil
}

// sendMedia sends a photo or album: by URL first; images Telegram refuses
// by URL are downloaded and uploaded; if the media still cannot be sent,
// the call's fallback (its caption as a text) goes instead.
func (s *Sender) sendMedia(ctx context.Context, t Target, c templates.Call) ([]int, error) {
	photos, errs := s.Media.photos(c.Images)
	for attempt := 0; ; attempt++ {
		if len(photos) == 0 {
			return s.fallback(ctx, t, c, errors.Join(errs...))
		}
		ids, err := s.sendPhotos(ctx, t, c, photos)
		if err == nil || !imageProblem(err) {
			return ids, err
		}
		errs = append(errs, err)
		if attempt > 0 || !urlRefused(err) || !hasURL(photos) {
			return s.fallback(ctx, t, c, errors.Join(errs...))
		}
		s.log().Info("deliver: Telegram refused an image URL; uploading it", "chat_id", t.ChatID, "error", err)
		var dlErrs []error
		photos, dlErrs = s.Media.download(context.WithoutCancel(ctx), photos)
		errs = append(errs, dlErrs...)
	}
}

// sendPhotos makes one attempt; the request is built anew, so uploads
// start from their first byte.
func (s *Sender) sendPhotos(ctx context.Context, t Target, c templates.Call, photos []photo) ([]int, error) {
	callCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), SendTimeout)
	defer cancel()
	r := buildMedia(t, c, photos)
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
func (s *Sender) fallback(ctx context.Context, t Target, c templates.Call, why error) ([]int, error) {
	s.log().Warn("deliver: sending the post without its images", "chat_id", t.ChatID, "error", why)
	if c.Fallback == nil {
		return nil, nil
	}
	return s.sendMessage(ctx, t, *c.Fallback)
}

func (s *Sender) log() *slog.Logger {
	if s.Logger == nil {
		return slog.Default()
	}
	return s.Logger
}

// imageProblem reports a refusal that may be the images' fault: a bad
// request that is not a chat migration. Should the chat be at fault after
// all, the text fallback fails the same way and reports it.
func imageProblem(err error) bool {
	var migrate *tgbot.MigrateError
	return errors.Is(err, tgbot.ErrorBadRequest) && !errors.As(err, &migrate)
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
