package tghtml

// Descriptions Telegram answers with when it refuses a text or caption.
const (
	DescTextEmpty            = "Bad Request: message text is empty"
	DescTooLong              = "Bad Request: message is too long"
	DescCaptionTooLong       = "Bad Request: message caption is too long"
	DescRawTextTooLong       = "Bad Request: text is too long"
	DescParsePrefix          = "Bad Request: can't parse entities: "
	DescUnsupportedParseMode = "Bad Request: unsupported parse_mode"
)

// Error is Telegram's refusal of a text: always a 400 Bad Request, with the
// description the Bot API sends.
type Error struct {
	Description string
}

// Error returns the description, exactly as Telegram words it.
func (e *Error) Error() string { return e.Description }

func refuse(desc string) *Error { return &Error{Description: desc} }
