package telegramtest

import (
	"encoding/json"

	"github.com/go-telegram/bot/models"
)

// firstUpdateID is where update ids start; real ids are large, and starting far
// from message ids keeps tests from mixing the two up.
const firstUpdateID = 1000

// state is everything a Server remembers; Server.mu guards it.
type state struct {
	// incoming updates
	nextUpdateID int64
	updates      []queuedUpdate
	updateSignal chan struct{} // closed and replaced when an update arrives
	allowed      []string      // allowed_updates; nil means Telegram's default
	pollCancel   chan struct{} // closed to end the pending getUpdates
	webhookURL   string
	hookSecret   string            // secret_token of setWebhook
	deliveries   []WebhookDelivery // every push attempt, in order

	// bot output
	nextMessageID int
	messages      []Message
	messageSignal chan struct{} // closed and replaced when a message is recorded
	sent          map[messageKey]map[string]any

	// bookkeeping
	calls    map[string]int
	requests []Request
	failNext map[string][]*APIError
	failChat map[int64]*APIError
	refused  map[string]string

	// the world
	chats     map[int64]models.Chat
	users     map[int64]models.User
	members   map[memberKey]json.RawMessage
	commands  map[string][]models.BotCommand
	files     map[string]*storedFile
	nextFile  int
	callbacks map[string]callbackInfo
	answers   []CallbackAnswer
}

type queuedUpdate struct {
	id   int64
	kind string // the update's field: message, callback_query, …
	raw  json.RawMessage
}

type messageKey struct {
	chatID    int64
	messageID int
}

type memberKey struct {
	chatID, userID int64
}

type callbackInfo struct {
	chatID    int64
	messageID int
	data      string
}

func newState() state {
	return state{
		nextUpdateID:  firstUpdateID,
		updateSignal:  make(chan struct{}),
		nextMessageID: 1,
		messageSignal: make(chan struct{}),
		sent:          map[messageKey]map[string]any{},
		calls:         map[string]int{},
		failNext:      map[string][]*APIError{},
		failChat:      map[int64]*APIError{},
		refused:       map[string]string{},
		chats:         map[int64]models.Chat{},
		users:         map[int64]models.User{},
		members:       map[memberKey]json.RawMessage{},
		commands:      map[string][]models.BotCommand{},
		files:         map[string]*storedFile{},
		callbacks:     map[string]callbackInfo{},
	}
}
