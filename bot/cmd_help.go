package bot

import (
	"context"

	"github.com/go-telegram/bot/models"
)

// handler runs one command.
type handler func(b *Bot, ctx context.Context, c command)

// commandNames lists the commands in the order /help and Telegram's
// command menu show them; each has a description "cmd_<name>" in the
// catalogs.
func commandNames() []string {
	return []string{
		"sub", "unsub", "rss", "pause", "resume", "pollnow", "preview", "stats", "set",
		"filter", "repl_add", "repl_add_re", "repl_list", "repl_del", "export", "import", "help",
	}
}

// commandHandlers maps every command (and /start) to its handler.
func commandHandlers() map[string]handler {
	return map[string]handler{
		"sub":         (*Bot).cmdSub,
		"unsub":       (*Bot).cmdUnsub,
		"rss":         (*Bot).cmdRSS,
		"pause":       func(b *Bot, ctx context.Context, c command) { b.cmdPause(ctx, c, true) },
		"resume":      func(b *Bot, ctx context.Context, c command) { b.cmdPause(ctx, c, false) },
		"pollnow":     (*Bot).cmdPollNow,
		"preview":     (*Bot).cmdPreview,
		"stats":       (*Bot).cmdStats,
		"set":         (*Bot).cmdSet,
		"filter":      (*Bot).cmdFilter,
		"repl_add":    func(b *Bot, ctx context.Context, c command) { b.cmdReplAdd(ctx, c, false) },
		"repl_add_re": func(b *Bot, ctx context.Context, c command) { b.cmdReplAdd(ctx, c, true) },
		"repl_list":   (*Bot).cmdReplList,
		"repl_del":    (*Bot).cmdReplDel,
		"export":      (*Bot).cmdExport,
		"import":      (*Bot).cmdImport,
		"help":        (*Bot).cmdHelp,
		"start":       (*Bot).cmdHelp,
	}
}

// botCommands is the command menu setMyCommands registers, described in
// the bot's language.
func (b *Bot) botCommands() []models.BotCommand {
	names := commandNames()
	cmds := make([]models.BotCommand, len(names))
	for i, name := range names {
		cmds[i] = models.BotCommand{Command: name, Description: b.msg.T("cmd_"+name, nil)}
	}
	return cmds
}

func (b *Bot) cmdHelp(ctx context.Context, c command) {
	b.reply(ctx, c, "help", nil)
}
