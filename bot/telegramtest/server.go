package telegramtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
)

// DefaultToken is the token a Server accepts unless WithToken says otherwise.
const DefaultToken = "123456:TEST"

// maxPollTimeout is the longest getUpdates wait the Bot API grants.
const maxPollTimeout = 50 * time.Second

// Server is a fake Bot API server on a loopback httptest.Server. All methods are
// safe for concurrent use.
type Server struct {
	// URL is the base URL for bot.WithServerURL, without a trailing slash.
	URL string
	// Token is the bot token the server accepts.
	Token string

	http      *httptest.Server
	done      chan struct{}
	closeOnce sync.Once
	bot       models.User
	maxPoll   time.Duration
	handlers  map[string]handlerFunc
	hook      webhookConfig
	pushDone  chan struct{} // closed when the webhook pusher has stopped

	mu sync.Mutex
	st state
}

// Option configures a Server.
type Option func(*config)

type config struct {
	token    string
	username string
	maxPoll  time.Duration
	hook     webhookConfig
}

// WithToken sets the accepted token; its numeric prefix becomes the bot's user id.
// New panics on a token Telegram would refuse, since that is a bug in the test.
func WithToken(token string) Option { return func(c *config) { c.token = token } }

// WithBotUsername sets the username getMe reports (default "test_bot").
func WithBotUsername(username string) Option { return func(c *config) { c.username = username } }

// WithMaxPollTimeout caps how long getUpdates waits (default 50 s, Telegram's cap).
func WithMaxPollTimeout(d time.Duration) Option { return func(c *config) { c.maxPoll = d } }

// New starts a Server and closes it when the test ends.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := NewServer(opts...)
	t.Cleanup(s.Close)
	return s
}

// NewServer starts a Server; the caller must Close it.
func NewServer(opts ...Option) *Server {
	c := config{token: DefaultToken, username: "test_bot", maxPoll: maxPollTimeout, hook: defaultWebhookConfig()}
	for _, o := range opts {
		o(&c)
	}
	id, ok := tokenBotID(c.token)
	if !ok {
		panic(fmt.Sprintf("telegramtest: token %q is not a valid bot token", c.token))
	}
	s := &Server{
		Token:   c.token,
		done:    make(chan struct{}),
		maxPoll: min(c.maxPoll, maxPollTimeout),
		bot: models.User{
			ID: id, IsBot: true, FirstName: "Test Bot", Username: c.username,
			CanJoinGroups: true,
		},
		st:       newState(),
		hook:     c.hook,
		pushDone: make(chan struct{}),
	}
	s.handlers = s.routes()
	s.http = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	s.URL = s.http.URL
	go s.pushLoop()
	return s
}

// Close ends pending long polls and webhook pushes and shuts the server down;
// it is idempotent.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		<-s.pushDone
		s.http.Close()
	})
}

// Bot returns the bot user getMe reports.
func (s *Server) Bot() models.User { return s.bot }

// tokenBotID applies the Bot API server's token sanity checks and returns the bot id.
func tokenBotID(token string) (int64, bool) {
	idPart, _, found := strings.Cut(token, ":")
	if !found || len(token) > 80 || strings.HasPrefix(token, "0") {
		return 0, false
	}
	id, err := strconv.ParseInt(idPart, 10, 64)
	if err != nil || id <= 0 || id >= 1<<54 {
		return 0, false
	}
	return id, true
}

// serveHTTP routes /bot<token>/[test/]<method> and /file/bot<token>/<path>.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if rest, ok := strings.CutPrefix(path, "/file/bot"); ok {
		s.serveFile(w, r, rest)
		return
	}
	rest, ok := strings.CutPrefix(path, "/bot")
	if !ok {
		writeError(w, &APIError{Code: 404, Description: DescNotFound})
		return
	}
	token, method, found := strings.Cut(rest, "/")
	if !found {
		writeError(w, &APIError{Code: 404, Description: DescNotFound})
		return
	}
	if _, ok := tokenBotID(token); !ok {
		writeError(w, &APIError{Code: 401, Description: DescBadToken})
		return
	}
	if token != s.Token {
		writeError(w, &APIError{Code: 401, Description: DescUnauthorized})
		return
	}
	method = strings.TrimPrefix(method, "test/")
	h, ok := s.handlers[strings.ToLower(method)]
	if !ok {
		writeError(w, &APIError{Code: 404, Description: DescMethodNotFound})
		return
	}
	req, apiErr := parseRequest(r)
	if apiErr != nil {
		s.logCall(canonicalMethod(method), nil, apiErr)
		writeError(w, apiErr)
		return
	}
	req.method = canonicalMethod(method)
	if injected := s.takeFailure(req); injected != nil {
		s.logCall(req.method, req, injected)
		writeError(w, injected)
		return
	}
	result, apiErr := h(r, req)
	s.logCall(req.method, req, apiErr)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	if result == nil { // the long poll's client went away
		return
	}
	writeResult(w, result)
}

// handlerFunc serves one method; a nil result with a nil error writes nothing.
type handlerFunc func(r *http.Request, req *request) (any, *APIError)

// routes maps lower-cased method names to their handlers.
func (s *Server) routes() map[string]handlerFunc {
	return map[string]handlerFunc{
		"getme":                  s.getMe,
		"getupdates":             s.getUpdates,
		"setwebhook":             s.setWebhook,
		"deletewebhook":          s.deleteWebhook,
		"getwebhookinfo":         s.getWebhookInfo,
		"setmycommands":          s.setMyCommands,
		"getmycommands":          s.getMyCommands,
		"getchat":                s.getChat,
		"getchatmember":          s.getChatMember,
		"getfile":                s.getFile,
		"sendmessage":            s.sendMessage,
		"sendphoto":              s.sendPhoto,
		"senddocument":           s.sendDocument,
		"sendmediagroup":         s.sendMediaGroup,
		"sendchataction":         s.sendChatAction,
		"editmessagetext":        s.editMessageText,
		"editmessagereplymarkup": s.editMessageReplyMarkup,
		"deletemessage":          s.deleteMessage,
		"answercallbackquery":    s.answerCallbackQuery,
	}
}

// canonicalMethod spells a method as the Bot API documents it, so recorded calls
// and failure queues don't depend on the letter case a client used.
func canonicalMethod(method string) string {
	names := []string{
		"getMe", "getUpdates", "setWebhook", "deleteWebhook", "getWebhookInfo",
		"setMyCommands", "getMyCommands", "getChat", "getChatMember", "getFile",
		"sendMessage", "sendPhoto", "sendDocument", "sendMediaGroup", "sendChatAction",
		"editMessageText", "editMessageReplyMarkup", "deleteMessage", "answerCallbackQuery",
	}
	for _, n := range names {
		if strings.EqualFold(n, method) {
			return n
		}
	}
	return method
}

// writeResult writes {"ok":true,"result":…}.
func writeResult(w http.ResponseWriter, result any) {
	body, err := json.Marshal(struct {
		OK     bool `json:"ok"`
		Result any  `json:"result"`
	}{true, result})
	if err != nil {
		writeError(w, &APIError{Code: 500, Description: "Internal Server Error: " + err.Error()})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// writeError writes Telegram's error body with the HTTP status equal to its code.
func writeError(w http.ResponseWriter, e *APIError) {
	body, err := e.MarshalJSON()
	if err != nil {
		body = []byte(`{"ok":false,"error_code":500,"description":"Internal Server Error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Code)
	_, _ = w.Write(body)
}
