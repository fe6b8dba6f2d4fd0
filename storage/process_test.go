package storage_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
)

// childProc is the test binary re-executed as a claim worker.
type childProc struct {
	cmd   *exec.Cmd
	out   bytes.Buffer
	ready string
}

func startChild(t *testing.T, spec, ready string) *childProc {
	t.Helper()
	c := &childProc{ready: ready}
	c.cmd = exec.Command(os.Args[0], "-test.run=^TestHostClaimsFromTwoProcesses$", "-test.count=1", "-test.v")
	c.cmd.Env = append(os.Environ(), childEnv+"="+spec+"|"+ready)
	c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.out
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c.cmd.ProcessState == nil {
			c.cmd.Process.Kill()
			c.cmd.Wait()
		}
	})
	return c
}

// waitReady waits until the child has opened the database.
func (c *childProc) waitReady(t *testing.T) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(c.ready); err == nil {
			return
		}
		if c.cmd.ProcessState != nil {
			break
		}
	}
	t.Fatalf("claim worker never got ready:\n%s", c.out.String())
}

var heldLine = regexp.MustCompile(`(?m)^held=(\d+)$`)

// finish waits for the child and returns how many hosts it held.
func (c *childProc) finish() (int, string, error) {
	err := c.cmd.Wait()
	out := c.out.String()
	if err != nil {
		return 0, out, err
	}
	for _, bad := range []string{"SQLITE_BUSY", "database is locked"} {
		if strings.Contains(out, bad) {
			return 0, out, fmt.Errorf("%s surfaced", bad)
		}
	}
	m := heldLine.FindStringSubmatch(out)
	if m == nil {
		return 0, out, fmt.Errorf("no held= line")
	}
	n, err := strconv.Atoi(m[1])
	return n, out, err
}

// runClaimChild is the worker side: open the shared file, say ready, wait
// for the start signal so both processes overlap, then claim.
func runClaimChild(t *testing.T, spec string) {
	parts := strings.Split(spec, "|")
	if len(parts) != 5 {
		t.Fatalf("bad %s %q", childEnv, spec)
	}
	url, holders, goFile, name, ready := parts[0], parts[1], parts[2], parts[3], parts[4]
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := storage.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := os.WriteFile(ready, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(goFile); err == nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatal("no start signal")
		}
		time.Sleep(time.Millisecond)
	}
	feed, err := st.FeedByURL(ctx, "https://h0.example/rss")
	if err != nil {
		t.Fatal(err)
	}
	held, err := claimLoop(ctx, st, name, hostHolders{holders}, feed.ID)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("\nheld=%d\n", held)
}
