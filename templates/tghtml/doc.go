// Package tghtml is Telegram's HTML parse mode, reimplemented exactly: it parses
// text as the Bot API parses parse_mode=HTML (TDLib's parse_html), trims and
// measures it as Telegram does, and refuses what Telegram refuses with the same
// descriptions. Rendering uses it at run time to count characters and to prove
// its output acceptable; the fake Bot API server in bot/telegramtest validates
// every message with it. It depends on nothing but the standard library.
package tghtml
