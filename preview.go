package main

import (
	"context"
	"fmt"
)

// previewCmd is a placeholder until the rendering issue lands.
func previewCmd(ctx context.Context, args []string, e env) int {
	fmt.Fprintln(e.stderr, "rssbot: not implemented yet")
	return 1
}
