package telegramtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxRequestBytes bounds a request body; Telegram accepts 50 MB uploads.
const maxRequestBytes = 64 << 20

// Upload is a file sent as a multipart part.
type Upload struct {
	// Field is the form field (part name) that carried the file.
	Field string
	// Name is the file name the client gave.
	Name string
	// Bytes is the size of the file.
	Bytes int
	// SHA256 is the hex SHA-256 of the content.
	SHA256 string
	// Data is the content.
	Data []byte
}

// request is one Bot API call's parameters, whatever encoding carried them.
// Non-string JSON values are kept as their JSON text, as form fields carry them.
type request struct {
	method string
	values map[string]string
	files  map[string]*Upload
}

// parseRequest reads the query string and the body (multipart, urlencoded or
// JSON); body values override query values.
func parseRequest(r *http.Request) (*request, *APIError) {
	req := &request{values: map[string]string{}, files: map[string]*Upload{}}
	for k, v := range r.URL.Query() {
		if len(v) > 0 {
			req.values[k] = v[0]
		}
	}
	r.Body = http.MaxBytesReader(nil, r.Body, maxRequestBytes)
	mediaType, typeParams, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var err *APIError
	switch mediaType {
	case "multipart/form-data":
		err = req.readMultipart(r, typeParams["boundary"])
	case "application/x-www-form-urlencoded":
		err = req.readForm(r)
	case "application/json":
		err = req.readJSON(r)
	}
	if err != nil {
		return nil, err
	}
	for _, v := range req.values {
		if !utf8.ValidString(v) {
			return nil, badRequest(DescNotUTF8)
		}
	}
	return req, nil
}

func (req *request) readMultipart(r *http.Request, boundary string) *APIError {
	if boundary == "" {
		return badRequest("Bad Request: can't parse multipart/form-data: no boundary")
	}
	mr := multipart.NewReader(r.Body, boundary)
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) { // also an empty body: clients send one for calls without parameters
			return nil
		}
		if err != nil {
			return badRequest("Bad Request: can't parse multipart/form-data: " + err.Error())
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return &APIError{Code: 413, Description: "Request Entity Too Large"}
		}
		name := part.FormName()
		if part.FileName() == "" {
			req.values[name] = string(data)
			continue
		}
		sum := sha256.Sum256(data)
		req.files[name] = &Upload{
			Field: name, Name: part.FileName(), Bytes: len(data),
			SHA256: hex.EncodeToString(sum[:]), Data: data,
		}
	}
}

func (req *request) readForm(r *http.Request) *APIError {
	if err := r.ParseForm(); err != nil {
		return badRequest("Bad Request: can't parse request body: " + err.Error())
	}
	for k, v := range r.PostForm {
		if len(v) > 0 {
			req.values[k] = v[0]
		}
	}
	return nil
}

func (req *request) readJSON(r *http.Request) *APIError {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return &APIError{Code: 413, Description: "Request Entity Too Large"}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return badRequest("Bad Request: can't parse JSON object")
	}
	for k, raw := range fields {
		var s string
		switch {
		case string(raw) == "null":
			continue
		case json.Unmarshal(raw, &s) == nil:
			req.values[k] = s
		default:
			req.values[k] = string(raw)
		}
	}
	return nil
}

// str returns a parameter, "" when absent.
func (req *request) str(name string) string { return req.values[name] }

// has reports whether a parameter was sent.
func (req *request) has(name string) bool {
	_, ok := req.values[name]
	return ok
}

// int64 reads an integer parameter; absent or malformed reads as 0, as the Bot
// API server's to_integer does.
func (req *request) int64(name string) int64 {
	v, err := strconv.ParseInt(strings.TrimSpace(req.values[name]), 10, 64)
	if err != nil {
		return 0
	}
	return v
}

func (req *request) int(name string) int { return int(req.int64(name)) }

// bool reads a Boolean parameter as the Bot API server does: "true" or "1".
func (req *request) bool(name string) bool {
	v := strings.ToLower(strings.TrimSpace(req.values[name]))
	return v == "true" || v == "1"
}

// json decodes a JSON-valued parameter; it reports whether one was present.
func (req *request) json(name string, dest any) (bool, error) {
	v, ok := req.values[name]
	if !ok || v == "" {
		return false, nil
	}
	return true, json.Unmarshal([]byte(v), dest)
}

// snapshot copies the parameters for the call log.
func (req *request) snapshot() map[string]string {
	out := make(map[string]string, len(req.values))
	for k, v := range req.values {
		out[k] = v
	}
	return out
}
