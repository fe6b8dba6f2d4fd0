// Command pollbench measures `rssbot opml import` and `rssbot poll --all`
// on a farm of loopback feed servers: N feeds on H hosts (127.0.0.x), a
// cold cycle (every feed answers 200 with E entries, all stored as seen)
// and an all-304 cycle, on SQLite and on MySQL/MariaDB. For each step it
// reports wall time, polls/s, CPU seconds and peak RSS of the rssbot
// process (the farm runs in this process and is not counted).
//
//	go run ./bench/pollbench                      # 10,000 feeds on 100 hosts, SQLite and MariaDB
//	go run ./bench/pollbench -db sqlite -feeds 2000
//
// It is a program, not a test: `go test ./...` never runs it. Only loopback
// addresses are used.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/go-sql-driver/mysql"
)

func main() {
	feeds := flag.Int("feeds", 10000, "feeds in the farm")
	hosts := flag.Int("hosts", 100, "loopback hosts (127.0.0.10 …)")
	entries := flag.Int("entries", 20, "entries per feed")
	dbs := flag.String("db", "sqlite,mysql", "databases to measure: sqlite, mysql or both")
	mysqlDSN := flag.String("mysql", "root@tcp(127.0.0.1:3306)/", "MySQL/MariaDB server DSN (a database is created and dropped)")
	concurrency := flag.Int("concurrency", 8, "POLL_CONCURRENCY")
	flag.Parse()
	if err := run(*feeds, *hosts, *entries, strings.Split(*dbs, ","), *mysqlDSN, *concurrency); err != nil {
		fmt.Fprintln(os.Stderr, "pollbench:", err)
		os.Exit(1)
	}
}

// measurement is one rssbot run.
type measurement struct {
	step   string
	wall   time.Duration
	cpu    time.Duration
	maxRSS int64 // bytes
	polls  int
	out    string
}

func run(feeds, hosts, entries int, dbs []string, mysqlDSN string, concurrency int) error {
	dir, err := os.MkdirTemp("", "pollbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "rssbot")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building rssbot: %w", err)
	}
	urls, stop, err := startFarm(hosts, feeds, entries)
	if err != nil {
		return err
	}
	defer stop()
	opml := filepath.Join(dir, "farm.opml")
	if err := writeOPML(opml, urls); err != nil {
		return err
	}
	fmt.Printf("farm: %d feeds on %d loopback hosts, %d entries each; POLL_CONCURRENCY=%d\n\n", feeds, hosts, entries, concurrency)
	fmt.Println("| database | step | wall | polls/s | CPU s | peak RSS |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, db := range dbs {
		dbURL, drop, err := database(strings.TrimSpace(db), dir, mysqlDSN)
		if err != nil {
			return err
		}
		env := []string{"DATABASE_URL=" + dbURL, "ADMIN_ID=1", "ALLOW_PRIVATE_NETWORKS=true",
			"LOG_LEVEL=warn", "POLL_CONCURRENCY=" + strconv.Itoa(concurrency), "PATH=" + os.Getenv("PATH")}
		steps := []struct {
			name string
			args []string
			want string
		}{
			{"migrate", []string{"migrate"}, ""},
			{"opml import", []string{"opml", "import", opml}, fmt.Sprintf("to %d feeds", feeds)},
			{"poll --all, cold (200)", []string{"poll", "--all"}, fmt.Sprintf("ok             %d", feeds)},
			{"poll --all, all 304", []string{"poll", "--all"}, fmt.Sprintf("not_modified   %d", feeds)},
		}
		for _, s := range steps {
			m, err := measure(bin, dir, env, s.args)
			if err != nil {
				drop()
				return fmt.Errorf("%s %s: %w\n%s", db, s.name, err, m.out)
			}
			if !strings.Contains(m.out, s.want) {
				drop()
				return fmt.Errorf("%s %s: output lacks %q:\n%s", db, s.name, s.want, m.out)
			}
			if s.name == "migrate" {
				continue
			}
			rate := "—"
			if m.polls > 0 {
				rate = fmt.Sprintf("%.0f", float64(m.polls)/m.wall.Seconds())
			}
			fmt.Printf("| %s | %s | %.2f s | %s | %.2f | %d MB |\n", db, s.name, m.wall.Seconds(), rate, m.cpu.Seconds(), m.maxRSS>>20)
		}
		drop()
	}
	return nil
}

var polledLine = regexp.MustCompile(`polled (\d+) feeds`)

// measure runs rssbot once and reads its resource use.
func measure(bin, dir string, env, args []string) (measurement, error) {
	var out bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, &out, &out
	start := time.Now()
	err := cmd.Run()
	m := measurement{step: strings.Join(args, " "), wall: time.Since(start), out: out.String()}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		m.maxRSS = ru.Maxrss << 10 // kilobytes on Linux
	}
	if sub := polledLine.FindStringSubmatch(m.out); sub != nil {
		m.polls, _ = strconv.Atoi(sub[1])
	}
	return m, err
}

// database returns a fresh DATABASE_URL and a function that drops it.
func database(kind, dir, mysqlDSN string) (string, func(), error) {
	switch kind {
	case "sqlite":
		path := filepath.Join(dir, "bench.db")
		return "sqlite:" + path, func() {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(path + suffix)
			}
		}, nil
	case "mysql":
		admin, err := sql.Open("mysql", mysqlDSN)
		if err != nil {
			return "", nil, err
		}
		name := fmt.Sprintf("rssbot_bench_%d", os.Getpid())
		ctx := context.Background()
		if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"); err != nil {
			admin.Close()
			return "", nil, fmt.Errorf("create database: %w", err)
		}
		base := strings.TrimSuffix(mysqlDSN, "/")
		if i := strings.LastIndex(base, "/"); i >= 0 && strings.Contains(base[:i], "@") {
			base = base[:i]
		}
		return "mysql://" + base + "/" + name, func() {
			admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name)
			admin.Close()
		}, nil
	}
	return "", nil, fmt.Errorf("unknown database %q (want sqlite or mysql)", kind)
}

// startFarm serves feeds/hosts feeds on each of hosts loopback addresses
// and returns every feed URL.
func startFarm(hosts, feeds, entries int) ([]string, func(), error) {
	var (
		urls    []string
		servers []*http.Server
	)
	stop := func() {
		for _, s := range servers {
			s.Close()
		}
	}
	for h := range hosts {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.%d:0", 10+h))
		if err != nil {
			stop()
			return nil, nil, fmt.Errorf("loopback host %d: %w", h, err)
		}
		srv := &http.Server{Handler: farmHandler(entries), ReadHeaderTimeout: 10 * time.Second}
		servers = append(servers, srv)
		go srv.Serve(ln)
		for f := h; f < feeds; f += hosts {
			urls = append(urls, fmt.Sprintf("http://%s/feeds/%d.xml", ln.Addr(), f))
		}
	}
	return urls, stop, nil
}

// farmHandler answers /feeds/N.xml with an RSS 2.0 feed of entries items,
// and 304 to a request that names its ETag.
func farmHandler(entries int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		n := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/feeds/"), ".xml")
		etag := `"` + n + `-v1"`
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Content-Type", "application/rss+xml; charset=utf-8")
		var b bytes.Buffer
		fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Feed %s</title><link>http://%s/</link><description>Benchmark feed</description>`, n, r.Host)
		base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := entries; i >= 1; i-- {
			fmt.Fprintf(&b, `<item><title>Entry %d of feed %s</title><link>http://%s/posts/%s/%d</link><guid>http://%s/posts/%s/%d</guid>`+
				`<pubDate>%s</pubDate><description>&lt;p&gt;Paragraph %d with &lt;a href="/x"&gt;a link&lt;/a&gt; and some text to make the entry a realistic size for a feed reader benchmark.&lt;/p&gt;</description></item>`,
				i, n, r.Host, n, i, r.Host, n, i, base.Add(time.Duration(i)*time.Hour).Format(time.RFC1123Z), i)
		}
		b.WriteString(`</channel></rss>`)
		w.Write(b.Bytes())
	}
}

func writeOPML(path string, urls []string) error {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0"?><opml version="2.0"><head><title>farm</title></head><body><outline text="farm">` + "\n")
	for _, u := range urls {
		fmt.Fprintf(&b, `<outline type="rss" text="%s" xmlUrl="%s"/>`+"\n", u, u)
	}
	b.WriteString("</outline></body></opml>\n")
	return os.WriteFile(path, b.Bytes(), 0o600)
}
