package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

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

// openFromEnv loads the settings and opens the migrated database; on
// failure it says why and returns the exit code.
func openFromEnv(ctx context.Context, e env) (config.Config, *storage.Store, int) {
	cfg, code := loadConfig(e)
	if code != 0 {
		return cfg, nil, code
	}
	store, err := openStore(ctx, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "rssbot: %v\n", err)
		return cfg, nil, 1
	}
	return cfg, store, 0
}

func migrate(ctx context.Context, e env) int {
	_, store, code := openFromEnv(ctx, e)
	if code != 0 {
		return code
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

// newEngine builds the poller; metrics may be nil (CLI subcommands).
func newEngine(store *storage.Store, cfg config.Config, log *slog.Logger, metrics *engine.Metrics) *engine.Engine {
	return engine.New(store, newFetcher(cfg, log), engine.Options{
		Schedule:       schedule.Settings{Base: cfg.PollInterval, Max: cfg.PollIntervalMax, Adaptive: cfg.PollAdaptive},
		Tick:           cfg.PollTick,
		Concurrency:    cfg.PollConcurrency,
		HostLease:      2*cfg.FetchTimeout + time.Minute,
		EntryRetention: cfg.EntryRetention,
		MediaMaxBytes:  cfg.MediaMaxBytes,
		AdminChatID:    cfg.AdminID,
		Metrics:        metrics,
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
	reg := newRegistry()
	eng := newEngine(store, cfg, log, engine.NewMetrics(reg))
	ws := engine.NewWebSub(eng, engine.WebSubOptions{PublicURL: cfg.PublicURL, MaxBytes: cfg.FetchMaxBytes})
	var listener net.Listener
	if cfg.HTTPAddr != "" {
		if listener, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
			fmt.Fprintf(e.stderr, "rssbot: HTTP_ADDR: %v\n", err)
			return 1
		}
	}
	b, err := bot.New(bot.Options{
		Token: cfg.BotToken, APIURL: cfg.TelegramAPIURL, AdminID: cfg.AdminID, Language: cfg.BotLanguage,
		Store: store, Engine: eng, Renderer: renderer, Fetcher: newFetcher(cfg, log), MediaMaxBytes: cfg.MediaMaxBytes, Logger: log,
		WebhookURL: webhookURL(cfg),
	})
	if err != nil {
		if listener != nil {
			listener.Close()
		}
		fmt.Fprintf(e.stderr, "rssbot: %v\n", err)
		return 1
	}
	log.Info("rssbot: serving", "version", version, "config", cfg)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	wg.Go(func() { errs[0] = eng.Run(ctx) })
	wg.Go(func() { errs[1] = b.Run(ctx) })
	wg.Go(func() { errs[2] = ws.Run(ctx) })
	if listener != nil {
		wg.Go(func() { errs[3] = serveHTTP(ctx, listener, httpRoutes(cfg, ws, b, eng, reg)) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		log.Error("rssbot: stopped", "error", err)
		return 1
	}
	log.Info("rssbot: stopped")
	return 0
}

// newRegistry is the Prometheus registry of one serve process, with the Go
// runtime and process collectors.
func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// webhookURL is where Telegram pushes updates: only with PUBLIC_URL.
func webhookURL(cfg config.Config) string {
	if cfg.PublicURL == "" {
		return ""
	}
	return bot.WebhookURL(cfg.PublicURL, cfg.BotToken)
}

// httpRoutes are the HTTP_ADDR endpoints; with PUBLIC_URL also the
// Telegram webhook and the WebSub callbacks (served on every instance,
// whichever one Telegram or a hub reaches).
func httpRoutes(cfg config.Config, ws *engine.WebSub, b *bot.Bot, eng *engine.Engine, reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", eng.Healthz)
	mux.HandleFunc("GET /readyz", eng.Readyz)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	if cfg.PublicURL != "" {
		mux.Handle(bot.WebhookPath(cfg.BotToken), b.WebhookHandler())
		mux.Handle("/websub/", ws.Handler())
	}
	return mux
}

// serveHTTP serves h on ln until ctx ends, then shuts down gracefully.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("http: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	err := srv.Shutdown(sctx)
	<-errc
	if err != nil {
		return fmt.Errorf("http: shutdown: %w", err)
	}
	return nil
}
