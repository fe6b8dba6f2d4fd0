package config

import (
	"io"
	"log/slog"
)

// Logger returns a logger writing to w at LOG_LEVEL in LOG_FORMAT ("json", or
// text for anything else, so a zero Config still logs readably).
func (c Config) Logger(w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: c.LogLevel}
	if c.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
