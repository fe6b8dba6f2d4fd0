package telegramtest

import (
	"encoding/json"
	"fmt"

	"github.com/rssbot/rssbot/templates/tghtml"
)

// Descriptions Telegram sends for common failures, for use with FailNext and FailChat
// and for comparing errors in tests.
const (
	DescBlocked        = "Forbidden: bot was blocked by the user"
	DescKickedGroup    = "Forbidden: bot was kicked from the group chat"
	DescKickedChannel  = "Forbidden: bot was kicked from the channel chat"
	DescNotMember      = "Forbidden: bot is not a member of the channel chat"
	DescDeactivated    = "Forbidden: user is deactivated"
	DescCantInitiate   = "Forbidden: bot can't initiate conversation with a user"
	DescChatNotFound   = "Bad Request: chat not found"
	DescChatIDEmpty    = "Bad Request: chat_id is empty"
	DescMigrated       = "Bad Request: group chat was upgraded to a supergroup chat"
	DescThreadNotFound = "Bad Request: message thread not found"
	DescWrongFile      = "Bad Request: wrong file identifier/HTTP URL specified"
	DescWrongFileID    = "Bad Request: wrong file_id or the file is temporarily unavailable"
	DescTextEmpty      = tghtml.DescTextEmpty
	DescTooLong        = tghtml.DescTooLong
	DescCaptionTooLong = tghtml.DescCaptionTooLong
	DescRawTextTooLong = tghtml.DescRawTextTooLong
	DescParsePrefix    = tghtml.DescParsePrefix
	DescNotFound       = "Not Found"
	DescMethodNotFound = "Not Found: method not found"
	DescBadToken       = "Unauthorized: invalid token specified"
	DescUnauthorized   = "Unauthorized"
	DescWebhookActive  = "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
	DescPollTerminated = "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
	DescNotUTF8        = "Bad Request: strings must be encoded in UTF-8"
)

// APIError is a failed Bot API call as Telegram reports it: the HTTP status equals
// Code, and the body is {"ok":false,"error_code":Code,"description":…,"parameters":…}.
type APIError struct {
	Code        int
	Description string
	// Parameters is the optional ResponseParameters object (retry_after,
	// migrate_to_chat_id); nil when absent.
	Parameters map[string]any
}

// Error returns the description, which is what Telegram clients show.
func (e *APIError) Error() string { return e.Description }

// MarshalJSON writes the error body with Telegram's key order:
// ok, error_code, description, parameters.
func (e *APIError) MarshalJSON() ([]byte, error) {
	desc, err := json.Marshal(e.Description)
	if err != nil {
		return nil, fmt.Errorf("telegramtest: encode description: %w", err)
	}
	out := fmt.Appendf(nil, `{"ok":false,"error_code":%d,"description":%s`, e.Code, desc)
	if len(e.Parameters) > 0 {
		params, err := json.Marshal(e.Parameters)
		if err != nil {
			return nil, fmt.Errorf("telegramtest: encode parameters: %w", err)
		}
		out = append(out, `,"parameters":`...)
		out = append(out, params...)
	}
	return append(out, '}'), nil
}

// badRequest builds a 400 error; desc is the full description.
func badRequest(desc string) *APIError {
	return &APIError{Code: 400, Description: desc}
}

// RetryAfterError is the 429 Telegram sends when a bot exceeds its rate limits.
func RetryAfterError(seconds int) *APIError {
	return &APIError{
		Code:        429,
		Description: fmt.Sprintf("Too Many Requests: retry after %d", seconds),
		Parameters:  map[string]any{"retry_after": seconds},
	}
}

// MigrateError is the 400 Telegram sends when a group became a supergroup.
func MigrateError(newChatID int64) *APIError {
	return &APIError{
		Code:        400,
		Description: DescMigrated,
		Parameters:  map[string]any{"migrate_to_chat_id": newChatID},
	}
}

// clone copies e so queued errors can't be changed through a returned pointer.
func (e *APIError) clone() *APIError {
	c := *e
	if e.Parameters != nil {
		c.Parameters = make(map[string]any, len(e.Parameters))
		for k, v := range e.Parameters {
			c.Parameters[k] = v
		}
	}
	return &c
}
