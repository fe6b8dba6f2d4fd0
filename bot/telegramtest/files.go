package telegramtest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"image"
	_ "image/gif" // photo uploads are checked as Telegram checks them: decodable images only
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// maxDownloadBytes is the largest file a bot may download (getFile).
const maxDownloadBytes = 20 << 20

// storedFile is a file the server holds: uploads and documents users sent.
type storedFile struct {
	id, uniqueID string
	path         string // file_path for getFile and downloads
	data         []byte
	width        int // photos only
	height       int
}

// storeFileLocked keeps data under dir ("documents", "photos") and assigns it
// a file_id without dots, so it can't be mistaken for a URL.
func (s *Server) storeFileLocked(dir, name string, data []byte) *storedFile {
	s.st.nextFile++
	sum := sha256.Sum256(data)
	h := hex.EncodeToString(sum[:4])
	f := &storedFile{
		id:       fmt.Sprintf("BQACAgIAAx%s%06d", h, s.st.nextFile),
		uniqueID: fmt.Sprintf("AgAD%s%d", h, s.st.nextFile),
		path:     fmt.Sprintf("%s/file_%d%s", dir, s.st.nextFile, strings.ToLower(path.Ext(name))),
		data:     data,
	}
	s.st.files[f.id] = f
	return f
}

// FileContent returns the content of a file the server holds by file_id, so
// tests can inspect what a bot uploaded.
func (s *Server) FileContent(fileID string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.st.files[fileID]
	if !ok {
		return nil, false
	}
	return bytes.Clone(f.data), true
}

func (s *Server) getFile(_ *http.Request, req *request) (any, *APIError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.st.files[req.str("file_id")]
	if !ok {
		return nil, badRequest(DescWrongFileID)
	}
	if len(f.data) > maxDownloadBytes {
		return nil, badRequest("Bad Request: file is too big")
	}
	return map[string]any{
		"file_id": f.id, "file_unique_id": f.uniqueID,
		"file_size": len(f.data), "file_path": f.path,
	}, nil
}

// serveFile serves /file/bot<token>/<file_path> downloads.
func (s *Server) serveFile(w http.ResponseWriter, _ *http.Request, rest string) {
	token, filePath, _ := strings.Cut(rest, "/")
	if token != s.Token {
		writeError(w, &APIError{Code: 401, Description: DescUnauthorized})
		return
	}
	s.mu.Lock()
	var data []byte
	for _, f := range s.st.files {
		if f.path == filePath {
			data = f.data
			break
		}
	}
	s.mu.Unlock()
	if data == nil {
		writeError(w, &APIError{Code: 404, Description: DescNotFound})
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	_, _ = w.Write(data)
}

// mimeType guesses a document's type from its name, without consulting the
// host's MIME tables, so results don't vary by machine.
func mimeType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".opml", ".xml":
		return "application/xml"
	case ".txt":
		return "text/plain"
	case ".json":
		return "application/json"
	case ".pdf":
		return "application/pdf"
	case ".zip":
		return "application/zip"
	case ".png":
		return "image/png"
	case ".jpg", ".jpeg":
		return "image/jpeg"
	case ".gif":
		return "image/gif"
	}
	return "application/octet-stream"
}

// checkPhoto reads an uploaded photo's size as Telegram's image processing
// would: unreadable content and extreme dimensions fail.
func checkPhoto(data []byte) (width, height int, err *APIError) {
	width, height, ok := imageSize(data)
	if !ok {
		return 0, 0, badRequest("Bad Request: IMAGE_PROCESS_FAILED")
	}
	if width <= 0 || height <= 0 || width+height > 10000 ||
		max(width, height) > 20*min(width, height) {
		return 0, 0, badRequest("Bad Request: PHOTO_INVALID_DIMENSIONS")
	}
	return width, height, nil
}

// imageSize reads the dimensions of JPEG, PNG, GIF, WebP and BMP images.
func imageSize(data []byte) (int, int, bool) {
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		return cfg.Width, cfg.Height, true
	}
	if len(data) >= 26 && string(data[:2]) == "BM" {
		w := int32(binary.LittleEndian.Uint32(data[18:22]))
		h := int32(binary.LittleEndian.Uint32(data[22:26]))
		return int(abs32(w)), int(abs32(h)), true
	}
	return webpSize(data)
}

// webpSize reads the canvas size from a WebP file's first chunk.
func webpSize(data []byte) (int, int, bool) {
	if len(data) < 30 || string(data[:4]) != "RIFF" || string(data[8:12]) != "WEBP" {
		return 0, 0, false
	}
	switch string(data[12:16]) {
	case "VP8X":
		w := int(data[24]) | int(data[25])<<8 | int(data[26])<<16
		h := int(data[27]) | int(data[28])<<8 | int(data[29])<<16
		return w + 1, h + 1, true
	case "VP8 ":
		w := int(binary.LittleEndian.Uint16(data[26:28]) & 0x3FFF)
		h := int(binary.LittleEndian.Uint16(data[28:30]) & 0x3FFF)
		return w, h, true
	case "VP8L":
		bits := binary.LittleEndian.Uint32(data[21:25])
		return int(bits&0x3FFF) + 1, int(bits>>14&0x3FFF) + 1, true
	}
	return 0, 0, false
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
