package engine

import (
	"errors"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// Pruning forgets delivered notices older than ENTRY_RETENTION beside old
// entries, so the notices table stays bounded; a waiting notice stays.
func TestPruneForgetsDoneNotices(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	e := newTestEngine(t, st, clk, func(o *Options) { o.EntryRetention = time.Hour })
	ctx := ctxT(t)
	done, err := st.AddNotice(ctx, storage.Notice{ChatID: testAdmin, Kind: NoticeMoved, Text: "old", CreatedAt: clk.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if ns, err := st.ClaimNotices(ctx, "w", clk.Now(), time.Minute, 1); err != nil || len(ns) != 1 {
		t.Fatalf("ClaimNotices = %v, %v", ns, err)
	}
	if err := st.MarkNoticeSent(ctx, done, "w", clk.Now()); err != nil {
		t.Fatal(err)
	}
	waiting, err := st.AddNotice(ctx, storage.Notice{ChatID: testAdmin, Kind: NoticeMoved, Text: "waiting", CreatedAt: clk.Now()})
	if err != nil {
		t.Fatal(err)
	}
	clk.advance(2 * time.Hour)
	e.prune(ctx, clk.Now())
	if _, err := st.NoticeByID(ctx, done); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("sent notice after prune: %v; want ErrNotFound", err)
	}
	if _, err := st.NoticeByID(ctx, waiting); err != nil {
		t.Errorf("waiting notice after prune: %v; want it kept", err)
	}
}
