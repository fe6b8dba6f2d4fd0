package main

import (
	"context"
	"fmt"
)

// pollCmd is a placeholder until the poller issue lands.
func pollCmd(ctx context.Context, args []string, e env) int {
	fmt.Fprintln(e.stderr, "rssbot: not implemented yet")
	return 1
}
