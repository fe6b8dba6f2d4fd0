package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/engine"
)

const (
	// importMaxBytes bounds an OPML file sent to the bot.
	importMaxBytes = 10 << 20
	// downloadTimeout bounds fetching it from the Bot API server.
	downloadTimeout = time.Minute
	// importListed is how many refused entries an import report names.
	importListed = 10
	// exportName is the file name of /export's document.
	exportName = "rssbot-subscriptions.opml"
)

// errTooBig is wrapped when a file sent to the bot is over importMaxBytes.
var errTooBig = errors.New("bot: file too big")

// cmdExport is /export: every subscription as an OPML document.
func (b *Bot) cmdExport(ctx context.Context, c command) {
	subs, err := b.opts.Store.AllSubscriptions(ctx)
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	if len(subs) == 0 {
		b.reply(ctx, c, "export_empty", nil)
		return
	}
	var buf bytes.Buffer
	if err := b.opts.Engine.ExportOPML(ctx, &buf, 0); err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	_, err = b.api.SendDocument(ctx, &tgbot.SendDocumentParams{
		ChatID:          c.at.chatID,
		MessageThreadID: c.at.thread,
		Document:        &models.InputFileUpload{Filename: exportName, Data: &buf},
		Caption:         b.msg.N("export_caption", len(subs), nil),
		ParseMode:       models.ParseModeHTML,
	})
	if err != nil {
		b.reply(ctx, c, "export_failed", map[string]any{"Error": err})
	}
}

// cmdImport is /import [chat] as the caption of an OPML document, or as
// a reply to one: subscribe the chat (the current one by default) to
// every feed in it.
func (b *Bot) cmdImport(ctx context.Context, c command) {
	doc := c.msg.Document
	if doc == nil && c.msg.ReplyToMessage != nil {
		doc = c.msg.ReplyToMessage.Document
	}
	if doc == nil || len(c.args) > 1 {
		b.reply(ctx, c, "import_usage", nil)
		return
	}
	if doc.FileSize > importMaxBytes {
		b.reply(ctx, c, "import_too_big", map[string]any{"MiB": importMaxBytes >> 20})
		return
	}
	target, ok := b.target(ctx, c, c.args, accessPost)
	if !ok {
		return
	}
	body, err := b.download(ctx, doc.FileID)
	if errors.Is(err, errTooBig) {
		b.reply(ctx, c, "import_too_big", map[string]any{"MiB": importMaxBytes >> 20})
		return
	}
	if err != nil {
		b.reply(ctx, c, "import_failed", map[string]any{"Error": err})
		return
	}
	res, err := b.opts.Engine.ImportOPML(ctx, bytes.NewReader(body), target.chat.ID, target.topic)
	if errors.Is(err, engine.ErrNotOPML) {
		b.reply(ctx, c, "import_not_opml", map[string]any{"Error": err})
		return
	}
	if err != nil {
		b.reply(ctx, c, "import_failed", map[string]any{"Error": err})
		return
	}
	b.sendAt(ctx, c.at, b.importReport(res, b.where(target)), nil)
}

// importReport words what an import did: counts, then the refused URLs.
func (b *Bot) importReport(res engine.OPMLImport, where string) string {
	lines := []string{b.msg.T("import_done", escapeAll(map[string]any{
		"Where": where, "Added": len(res.Added), "NewFeeds": res.NewFeeds, "Existing": len(res.Existing),
		"Duplicates": len(res.Duplicates), "Invalid": len(res.Invalid),
	}))}
	for i, p := range res.Invalid {
		if i == importListed {
			lines = append(lines, b.msg.N("import_more", len(res.Invalid)-importListed, nil))
			break
		}
		lines = append(lines, b.msg.T("import_invalid_line", escapeAll(map[string]any{"URL": clip(p.URL, 200), "Reason": p.Reason})))
	}
	return strings.Join(lines, "\n")
}

// download fetches a file the admin sent from the Bot API server
// (getFile, then <api>/file/bot<token>/<path>). Errors never carry the
// download URL: it holds the bot token.
func (b *Bot) download(ctx context.Context, fileID string) ([]byte, error) {
	f, err := b.api.GetFile(ctx, &tgbot.GetFileParams{FileID: fileID})
	if err != nil {
		return nil, fmt.Errorf("bot: getFile: %w", err)
	}
	if f.FileSize > importMaxBytes {
		return nil, errTooBig
	}
	ctx, cancel := context.WithTimeout(ctx, downloadTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.api.FileDownloadLink(f), nil)
	if err != nil {
		return nil, errors.New("bot: downloading the file: bad Bot API URL")
	}
	resp, err := (&http.Client{}).Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("bot: downloading the file: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("bot: downloading the file: HTTP %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, importMaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("bot: downloading the file: %w", err)
	}
	if len(body) > importMaxBytes {
		return nil, errTooBig
	}
	return body, nil
}
