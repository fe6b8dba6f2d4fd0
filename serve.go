package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/rssbot/rssbot/bot"
	"github.com/rssbot/rssbot/config"
	"github.com/rssbot/rssbot/engine"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/engine/schedule"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/templates"
)

// loadConfig reads the settings; on failure it prints why and returns exit code 2.
func loadConfig(e env) (config.Config, int) {
	cfg, err := config.Load(e.getenv, e.dir, version)
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: configuration:\n%v\n", err)
		return cfg, 2
	}
	return cfg, 0
}

// openStore opens and migrates the database.
func openStore(ctx context.Context, cfg config.Config) (*storage.Store, error) {
	store, err := storage.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	if err := store.Migrate(ctx); err != nil {
		store.Close()
		return nil, err
	}
	return store, nil
}

func migrate(ctx context.Context, e env) int {
	cfg, code := loadConfig(e)
	if code != 0 {
		return code
	}
	store, err := openStore(ctx, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: %v\n", err)
		return 1
	}
	defer store.Close()
	fmt.Fprintln(e.stdout, "rssbot: database is up to date")
	return 0
}

// loadRenderer compiles POST_TEMPLATE, or the built-in template.
func loadRenderer(cfg config.Config) (*templates.Renderer, error) {
	if cfg.PostTemplate == "" {
		return templates.Default(cfg.BotTimezone), nil
	}
	text, err := os.ReadFile(cfg.PostTemplate)
	if err != nil {
		return nil, fmt.Errorf("post template: %w", err)
	}
	return templates.Parse(filepath.Base(cfg.PostTemplate), string(text), cfg.BotTimezone)
}

func newFetcher(cfg config.Config, log *slog.Logger) *fetch.Client {
	return fetch.New(fetch.Options{
		UserAgent:            cfg.UserAgent,
		Timeout:              cfg.FetchTimeout,
		MaxBytes:             cfg.FetchMaxBytes,
		MediaMaxBytes:        cfg.MediaMaxBytes,
		AllowPrivateNetworks: cfg.AllowPrivateNetworks,
		Logger:               log,
	})
}

func newEngine(store *storage.Store, cfg config.Config, log *slog.Logger) *engine.Engine {
	return engine.New(store, newFetcher(cfg, log), engine.Options{
		Schedule:       schedule.Settings{Base: cfg.PollInterval, Max: cfg.PollIntervalMax, Adaptive: cfg.PollAdaptive},
		Tick:           cfg.PollTick,
		Concurrency:    cfg.PollConcurrency,
		HostLease:      2*cfg.FetchTimeout + time.Minute,
		EntryRetention: cfg.EntryRetention,
		AdminChatID:    cfg.AdminID,
		Logger:         log,
	})
}

// serve runs the engine and the bot until ctx ends (SIGINT, SIGTERM).
func serve(ctx context.Context, e env) int {
	cfg, code := loadConfig(e)
	if code != 0 {
		return code
	}
	if err := cfg.RequireBot(); err != nil {
		fmt.Fprintf(e.stderr, "rssbot: %v\n", err)
		return 2
	}
	log := cfg.Logger(e.stderr)
	renderer, err := loadRenderer(cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: %v\n", err)
		return 2
	}
	store, err := openStore(ctx, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: %v\n", err)
		return 1
	}
	defer store.Close()
	eng := newEngine(store, cfg, log)
	b, err := bot.New(bot.Options{
		Token: cfg.BotToken, APIURL: cfg.TelegramAPIURL, AdminID: cfg.AdminID, Language: cfg.BotLanguage,
		Store: store, Engine: eng, Renderer: renderer, Logger: log,
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: %v\n", err)
		return 1
	}
	log.Info("rssbot: serving", "version", version, "config", cfg)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Go(func() { errs[0] = eng.Run(ctx) })
	wg.Go(func() { errs[1] = b.Run(ctx) })
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		log.Error("rssbot: stopped", "error", err)
		return 1
	}
	log.Info("rssbot: stopped")
	return 0
}
