package main

import (
	"context"
	"fmt"
)

// opmlCmd is a placeholder until the poller issue lands.
func opmlCmd(ctx context.Context, args []string, e env) int {
	fmt.Fprintln(e.stderr, "rssbot: not implemented yet")
	return 1
}
