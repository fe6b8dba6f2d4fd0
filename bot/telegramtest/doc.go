// Package telegramtest is an in-process fake of the Telegram Bot API for tests.
//
// A Server speaks the Bot API over loopback HTTP the way api.telegram.org does:
// the same routing (/bot<token>/<method>, method names case-insensitive), the same
// token checks, the same request encodings (query string, urlencoded, JSON and
// multipart uploads) and the same error bodies and descriptions. Point
// go-telegram/bot at it with bot.WithServerURL(s.URL) and s.Token.
//
// Messages a bot sends are validated as Telegram validates them (parse_mode HTML,
// text and caption limits, album sizes, file references) and recorded for
// inspection. Tests inject incoming traffic (text messages, commands, documents,
// button presses), queue failures (429 with retry_after, 403 blocked, chat
// migration) and refuse media URLs to exercise delivery paths. Once a bot calls
// setWebhook, queued updates are pushed to its URL instead, one at a time, as
// POSTed JSON with the X-Telegram-Bot-Api-Secret-Token header, and retried until
// the webhook answers 2xx (WithWebhookClient trusts an httptest TLS server).
//
// The validator is exported as pure functions (ParseHTML, ParseText, CheckText,
// CheckCaption). They wrap templates/tghtml, the one implementation of Telegram's
// HTML parse mode that the renderer also uses at run time, so what rssbot sends
// and what this server accepts are judged alike.
package telegramtest
