package bot

import (
	"strconv"

	"github.com/go-telegram/bot/models"
)

// buttonTitle is how many characters of a feed title a button shows.
const buttonTitle = 40

// candidateButton is one discovered feed in /sub's offer.
type candidateButton struct {
	n     int // its number in the message
	title string
	token string
}

// candidateKeyboard has one row per feed: subscribe (the title) and
// preview.
func (b *Bot) candidateKeyboard(cands []candidateButton) *models.InlineKeyboardMarkup {
	rows := make([][]models.InlineKeyboardButton, len(cands))
	for i, c := range cands {
		rows[i] = []models.InlineKeyboardButton{
			{Text: "➕ " + strconv.Itoa(c.n) + ". " + clip(c.title, buttonTitle),
				CallbackData: callbackFor(callbackData{kind: cbSubscribe, token: c.token})},
			{Text: b.msg.T("button_preview", nil),
				CallbackData: callbackFor(callbackData{kind: cbPreview, token: c.token})},
		}
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// pageKeyboard is ◀ ▶ for page (0-based) of pages of a chat's /rss; nil
// when everything fits on one page.
func pageKeyboard(chatID int64, page, pages int) *models.InlineKeyboardMarkup {
	if pages <= 1 {
		return nil
	}
	var row []models.InlineKeyboardButton
	if page > 0 {
		row = append(row, models.InlineKeyboardButton{Text: "◀", CallbackData: callbackFor(callbackData{kind: cbRSSPage, chat: chatID, page: page - 1})})
	}
	if page < pages-1 {
		row = append(row, models.InlineKeyboardButton{Text: "▶", CallbackData: callbackFor(callbackData{kind: cbRSSPage, chat: chatID, page: page + 1})})
	}
	return &models.InlineKeyboardMarkup{InlineKeyboard: [][]models.InlineKeyboardButton{row}}
}
