// Command rssbot is a Telegram bot that follows feeds and posts every new
// entry once. This file holds the subcommands and their wiring only.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is set at build time: -ldflags "-X main.version=1.2.3".
var version = "dev"

// env is what a subcommand may touch of the outside world, so tests can run
// the real wiring with their own settings.
type env struct {
	getenv func(string) string
	dir    string // where .env is read
	stdout io.Writer
	stderr io.Writer
}

const usage = `usage: rssbot [command]

commands:
  serve      run the bot (default)
  migrate    apply database migrations and exit
  preview [--json] [-n N] URL|FILE
             print the first N entries exactly as they would be posted
  poll [--all]
             poll due (or all) feeds once, print a summary, exit
  opml import FILE [--chat ID] | opml export
             subscribe to every feed of an OPML file; write all subscriptions as OPML
  version    print the version
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	wd, _ := os.Getwd()
	os.Exit(run(ctx, os.Args[1:], env{getenv: os.Getenv, dir: wd, stdout: os.Stdout, stderr: os.Stderr}))
}

// run dispatches a subcommand and returns the process exit code: 0 done,
// 1 failed, 2 bad usage or configuration.
func run(ctx context.Context, args []string, e env) int {
	cmd := "serve"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, e)
	case "migrate":
		return migrate(ctx, e)
	case "preview":
		return previewCmd(ctx, args, e)
	case "poll":
		return pollCmd(ctx, args, e)
	case "opml":
		return opmlCmd(ctx, args, e)
	case "version", "--version", "-version":
		fmt.Fprintln(e.stdout, "rssbot", version)
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(e.stdout, usage)
		return 0
	default:
		fmt.Fprintf(e.stderr, "rssbot: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
}
