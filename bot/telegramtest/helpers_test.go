package telegramtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"testing"

	"github.com/go-telegram/bot/models"
)

// apiResponse is the Bot API envelope.
type apiResponse struct {
	OK          bool            `json:"ok"`
	Result      json.RawMessage `json:"result"`
	ErrorCode   int             `json:"error_code"`
	Description string          `json:"description"`
	Parameters  map[string]any  `json:"parameters"`
}

// callJSON posts params as a JSON body and decodes the answer.
func callJSON(t *testing.T, s *Server, method string, params map[string]any) apiResponse {
	t.Helper()
	r, err := postJSON(s, method, params)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// postJSON is callJSON for goroutines other than the test's.
func postJSON(s *Server, method string, params map[string]any) (apiResponse, error) {
	var r apiResponse
	body, err := json.Marshal(params)
	if err != nil {
		return r, err
	}
	resp, err := http.Post(s.URL+"/bot"+s.Token+"/"+method, "application/json", bytes.NewReader(body))
	if err != nil {
		return r, err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		return r, fmt.Errorf("decode response: %w", err)
	}
	if !r.OK && resp.StatusCode != r.ErrorCode {
		return r, fmt.Errorf("HTTP status %d differs from error_code %d", resp.StatusCode, r.ErrorCode)
	}
	return r, nil
}

// pollAsync runs getUpdates in the background.
func pollAsync(s *Server, params map[string]any) <-chan apiResponse {
	out := make(chan apiResponse, 1)
	go func() {
		r, err := postJSON(s, "getUpdates", params)
		if err != nil {
			r = apiResponse{Description: err.Error()}
		}
		out <- r
	}()
	return out
}

// get issues a GET and returns the status and raw body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func decodeResponse(t *testing.T, resp *http.Response) apiResponse {
	t.Helper()
	defer resp.Body.Close()
	var r apiResponse
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatalf("decode response: %v", err)
	}
	if !r.OK && resp.StatusCode != r.ErrorCode {
		t.Errorf("HTTP status %d differs from error_code %d", resp.StatusCode, r.ErrorCode)
	}
	return r
}

// updateIDs decodes a getUpdates result into its update ids.
func updateIDs(t *testing.T, r apiResponse) []int64 {
	t.Helper()
	if !r.OK {
		t.Fatalf("getUpdates failed: %d %s", r.ErrorCode, r.Description)
	}
	var updates []struct {
		ID int64 `json:"update_id"`
	}
	if err := json.Unmarshal(r.Result, &updates); err != nil {
		t.Fatal(err)
	}
	ids := []int64{}
	for _, u := range updates {
		ids = append(ids, u.ID)
	}
	return ids
}

// pngImage encodes a w×h PNG.
func pngImage(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func chatForum(id int64) models.Chat {
	return models.Chat{ID: id, Type: models.ChatTypeSupergroup, Title: "Forum", IsForum: true}
}

func chatNamed(id int64, username string) models.Chat {
	return models.Chat{ID: id, Type: models.ChatTypeChannel, Title: "News", Username: username}
}
