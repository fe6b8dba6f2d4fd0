package telegramtest

import (
	"net/http"
	"path"
	"strconv"
	"strings"
)

// DescAlbumSize is the fake's own refusal of a one-item album: the Bot API
// documents 2-10 items, but the real server quietly sends a lone item as an
// ordinary message. Refusing it keeps renderers to the documented contract.
const DescAlbumSize = "Bad Request: telegramtest: media must contain 2-10 items"

func (s *Server) sendPhoto(_ *http.Request, req *request) (any, *APIError) {
	return s.sendSingleMedia(req, "sendPhoto", "photo")
}

func (s *Server) sendDocument(_ *http.Request, req *request) (any, *APIError) {
	return s.sendSingleMedia(req, "sendDocument", "document")
}

// sendSingleMedia serves sendPhoto and sendDocument: caption, then file, then
// markup and chat, as the Bot API server reads them.
func (s *Server) sendSingleMedia(req *request, method, kind string) (any, *APIError) {
	caption := req.str("caption")
	f, err := checkCaption(caption, req.str("parse_mode"))
	if err != nil {
		return nil, err
	}
	media, err := s.readFile(req, kind, req.str(kind), kind,
		badRequest("Bad Request: there is no "+kind+" in the request"))
	if err != nil {
		return nil, err
	}
	media.HasSpoiler = req.bool("has_spoiler")
	media.ShowCaptionAboveMedia = req.bool("show_caption_above_media")
	o, err := s.readSendOptions(req)
	if err != nil {
		return nil, err
	}
	m := newMessage(method, req, o)
	m.Text, m.Plain, m.Entities, m.IsCaption = caption, f.Text, f.Entities, true
	s.mu.Lock()
	defer s.mu.Unlock()
	fields := s.mediaFieldsLocked(&media)
	addCaptionFields(fields, f, media)
	result, id := s.newResultLocked(o, fields)
	m.MessageID, m.MessageIDs, m.Media = id, []int{id}, []Media{media}
	s.recordLocked(m)
	return result, nil
}

// inputMedia is an item of sendMediaGroup's media array.
type inputMedia struct {
	Type                  string `json:"type"`
	Media                 string `json:"media"`
	Caption               string `json:"caption"`
	ParseMode             string `json:"parse_mode"`
	HasSpoiler            bool   `json:"has_spoiler"`
	ShowCaptionAboveMedia bool   `json:"show_caption_above_media"`
}

func (s *Server) sendMediaGroup(_ *http.Request, req *request) (any, *APIError) {
	items, err := s.readAlbum(req)
	if err != nil {
		return nil, err
	}
	o := sendOptions{}
	if o.chat, err = s.resolveChat(req); err != nil {
		return nil, err
	}
	o.threadID = req.int("message_thread_id")
	if err := checkThread(o.chat, o.threadID); err != nil {
		return nil, err
	}
	m := newMessage("sendMediaGroup", req, o)
	m.IsCaption = true
	s.mu.Lock()
	defer s.mu.Unlock()
	groupID := strconv.FormatInt(1_300_000_000_000_000+int64(s.st.nextMessageID), 10)
	results := make([]map[string]any, 0, len(items))
	for _, item := range items {
		fields := s.mediaFieldsLocked(&item.media)
		addCaptionFields(fields, item.caption, item.media)
		fields["media_group_id"] = groupID
		result, id := s.newResultLocked(o, fields)
		results = append(results, result)
		m.MessageIDs = append(m.MessageIDs, id)
		m.Media = append(m.Media, item.media)
		if m.Text == "" && item.media.Caption != "" {
			m.Text, m.Plain, m.Entities = item.media.Caption, item.caption.Text, item.caption.Entities
			m.ParseMode = item.media.ParseMode
		}
	}
	m.MessageID = m.MessageIDs[0]
	s.recordLocked(m)
	return results, nil
}

// albumItem is a validated album item.
type albumItem struct {
	media   Media
	caption Formatted
}

// readAlbum validates sendMediaGroup's media: its size, item types, captions,
// files and the mixing rules.
func (s *Server) readAlbum(req *request) ([]albumItem, *APIError) {
	if !req.has("media") {
		return nil, badRequest(`Bad Request: parameter "media" is required`)
	}
	var raw []inputMedia
	if _, err := req.json("media", &raw); err != nil {
		return nil, badRequest("Bad Request: can't parse media JSON object")
	}
	switch {
	case len(raw) == 0:
		return nil, badRequest("Bad Request: there are no messages to send")
	case len(raw) > 10:
		return nil, badRequest("Bad Request: too many messages to send as an album")
	case len(raw) == 1:
		return nil, badRequest(DescAlbumSize)
	}
	items := make([]albumItem, 0, len(raw))
	kinds := map[string]bool{}
	for _, in := range raw {
		switch in.Type {
		case "photo", "video", "document", "audio":
		case "animation":
			return nil, badRequest(`Bad Request: can't parse InputMedia: type "animation" can't be used in sendMediaGroup`)
		default:
			return nil, badRequest(`Bad Request: can't parse InputMedia: type "` + in.Type + `" is unsupported`)
		}
		caption, err := checkCaption(in.Caption, in.ParseMode)
		if err != nil {
			return nil, err
		}
		media, err := s.readFile(req, in.Type, in.Media, "",
			badRequest("Bad Request: can't parse InputMedia: media not found"))
		if err != nil {
			return nil, err
		}
		media.Caption, media.ParseMode = in.Caption, in.ParseMode
		media.Plain, media.Entities = caption.Text, caption.Entities
		media.HasSpoiler, media.ShowCaptionAboveMedia = in.HasSpoiler, in.ShowCaptionAboveMedia
		items = append(items, albumItem{media: media, caption: caption})
		kinds[in.Type] = true
	}
	for _, kind := range []string{"document", "audio"} {
		if kinds[kind] && len(kinds) > 1 {
			return nil, badRequest("Bad Request: " + kind + " can't be mixed with other media types")
		}
	}
	return items, nil
}

// readFile resolves a file parameter: an upload in the part named part (the
// parameter's own name) or in the part an attach://name value names, a URL
// (anything with "://" or a dot, as Telegram tells them apart), or a file_id
// the server issued. missing is the error for an absent file.
func (s *Server) readFile(req *request, kind, value, part string, missing *APIError) (Media, *APIError) {
	m := Media{Type: kind}
	var up *Upload
	switch {
	case part != "" && req.files[part] != nil:
		up = req.files[part]
	case strings.HasPrefix(value, "attach://"):
		if up = req.files[strings.TrimPrefix(value, "attach://")]; up == nil {
			return m, missing
		}
	case strings.TrimSpace(value) == "":
		return m, missing
	case strings.Contains(value, "://") || strings.Contains(value, "."):
		m.Source, m.URL = "url", value
		s.mu.Lock()
		desc, refused := s.st.refused[value]
		s.mu.Unlock()
		if refused {
			return m, badRequest(desc)
		}
		return m, nil
	default:
		m.Source, m.FileID = "file_id", value
		s.mu.Lock()
		_, known := s.st.files[value]
		s.mu.Unlock()
		if !known {
			return m, badRequest(DescWrongFile)
		}
		return m, nil
	}
	if up.Bytes == 0 {
		return m, badRequest("Bad Request: file must be non-empty")
	}
	if kind == "photo" {
		if _, _, err := checkPhoto(up.Data); err != nil {
			return m, err
		}
	}
	m.Source, m.Upload = "upload", up
	return m, nil
}

// mediaFieldsLocked stores the file behind m (new uploads and URLs get a
// file_id) and returns the Message fields describing it.
func (s *Server) mediaFieldsLocked(m *Media) map[string]any {
	var f *storedFile
	switch m.Source {
	case "upload":
		f = s.storeFileLocked(m.Type+"s", m.Upload.Name, m.Upload.Data)
		if m.Type == "photo" {
			f.width, f.height, _ = checkPhoto(f.data)
		}
	case "url":
		f = s.storeFileLocked(m.Type+"s", path.Base(m.URL), nil)
	default:
		f = s.st.files[m.FileID]
	}
	m.FileID = f.id
	ref := map[string]any{"file_id": f.id, "file_unique_id": f.uniqueID, "file_size": len(f.data)}
	switch m.Type {
	case "photo":
		ref["width"], ref["height"] = f.width, f.height
		return map[string]any{"photo": []map[string]any{ref}}
	case "document":
		name := path.Base(f.path)
		if m.Upload != nil {
			name = m.Upload.Name
		}
		ref["file_name"], ref["mime_type"] = name, mimeType(name)
	case "video":
		ref["width"], ref["height"], ref["duration"] = f.width, f.height, 0
	case "audio":
		ref["duration"] = 0
	}
	return map[string]any{m.Type: ref}
}

// addCaptionFields adds a caption to a media Message object.
func addCaptionFields(fields map[string]any, caption Formatted, m Media) {
	if caption.Text != "" {
		fields["caption"] = caption.Text
	}
	if len(caption.Entities) > 0 {
		fields["caption_entities"] = caption.Entities
	}
	if m.HasSpoiler {
		fields["has_media_spoiler"] = true
	}
	if m.ShowCaptionAboveMedia {
		fields["show_caption_above_media"] = true
	}
}
