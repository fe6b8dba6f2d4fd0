package storage_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestReplacements(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		g := mustFeed(t, st, "https://other.example/rss", "other.example")
		global, err := st.AddReplacement(ctx, storage.Replacement{Pattern: "Ad:", Replacement: "", CreatedAt: t0})
		if err != nil {
			t.Fatal(err)
		}
		ofF, err := st.AddReplacement(ctx, storage.Replacement{FeedID: f.ID, Pattern: `\s+$`, IsRegex: true, Replacement: "x"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddReplacement(ctx, storage.Replacement{FeedID: g.ID, Pattern: "g"}); err != nil {
			t.Fatal(err)
		}
		_, err = st.AddReplacement(ctx, storage.Replacement{FeedID: 987654, Pattern: "x"})
		wantErrIs(t, err, storage.ErrNotFound)

		rs, err := st.Replacements(ctx, f.ID)
		if err != nil || len(rs) != 2 || rs[0].ID != global || rs[1].ID != ofF {
			t.Fatalf("Replacements(f) = %+v, %v; want the global rule and f's", rs, err)
		}
		if r := rs[0]; r.FeedID != 0 || r.Pattern != "Ad:" || r.IsRegex || !r.CreatedAt.Equal(t0) {
			t.Fatalf("global rule = %+v", r)
		}
		if r := rs[1]; r.FeedID != f.ID || r.Pattern != `\s+$` || !r.IsRegex || r.Replacement != "x" || r.CreatedAt.IsZero() {
			t.Fatalf("feed rule = %+v", r)
		}
		if rs, err := st.Replacements(ctx, 0); err != nil || len(rs) != 1 || rs[0].ID != global {
			t.Fatalf("Replacements(0) = %+v, %v; want only the global rule", rs, err)
		}
		if err := st.DeleteReplacement(ctx, ofF); err != nil {
			t.Fatal(err)
		}
		wantErrIs(t, st.DeleteReplacement(ctx, ofF), storage.ErrNotFound)
		// A feed's rules go with it.
		if err := st.DeleteFeed(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		if rs, err := st.Replacements(ctx, g.ID); err != nil || len(rs) != 1 {
			t.Fatalf("Replacements(deleted g) = %+v, %v", rs, err)
		}
	})
}

func TestFilters(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		a := mustSub(t, st, f.ID, 1)
		b := mustSub(t, st, f.ID, 2)
		global, err := st.AddFilter(ctx, storage.Filter{Action: "exclude", Field: "title", Pattern: "sponsored", CreatedAt: t0})
		if err != nil {
			t.Fatal(err)
		}
		ofA, err := st.AddFilter(ctx, storage.Filter{SubscriptionID: a.ID, Action: "include", Field: "any", Pattern: "go(lang)?", IsRegex: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddFilter(ctx, storage.Filter{SubscriptionID: b.ID, Action: "exclude", Field: "author", Pattern: "bot"}); err != nil {
			t.Fatal(err)
		}
		_, err = st.AddFilter(ctx, storage.Filter{SubscriptionID: 987654, Action: "exclude", Field: "title", Pattern: "x"})
		wantErrIs(t, err, storage.ErrNotFound)

		fs, err := st.Filters(ctx, a.ID)
		if err != nil || len(fs) != 2 || fs[0].ID != global || fs[1].ID != ofA {
			t.Fatalf("Filters(a) = %+v, %v", fs, err)
		}
		want := storage.Filter{ID: ofA, SubscriptionID: a.ID, Action: "include", Field: "any", Pattern: "go(lang)?", IsRegex: true, CreatedAt: fs[1].CreatedAt}
		if fs[1] != want || fs[1].CreatedAt.IsZero() || fs[0].SubscriptionID != 0 || !fs[0].CreatedAt.Equal(t0) {
			t.Fatalf("filters = %+v", fs)
		}
		if err := st.DeleteFilter(ctx, global); err != nil {
			t.Fatal(err)
		}
		wantErrIs(t, st.DeleteFilter(ctx, global), storage.ErrNotFound)
		if _, err := st.Unsubscribe(ctx, b.ID); err != nil {
			t.Fatal(err)
		}
		if fs, err := st.Filters(ctx, b.ID); err != nil || len(fs) != 0 {
			t.Fatalf("Filters(unsubscribed b) = %+v, %v; want none", fs, err)
		}
	})
}

func TestActivityIsBounded(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		g := mustFeed(t, st, "https://other.example/rss", "other.example")
		if err := st.AddActivity(ctx, storage.Activity{FeedID: g.ID, At: t0, Kind: "poll"}); err != nil {
			t.Fatal(err)
		}
		for i := range 105 {
			a := storage.Activity{FeedID: f.ID, At: t0.Add(time.Duration(i) * time.Minute), Kind: "poll", Detail: fmt.Sprint(i)}
			if err := st.AddActivity(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		all, err := st.Activities(ctx, f.ID, 1000)
		if err != nil || len(all) != 100 {
			t.Fatalf("Activities = %d lines, %v; want the newest 100", len(all), err)
		}
		if all[0].Detail != "104" || all[99].Detail != "5" || !all[0].At.Equal(t0.Add(104*time.Minute)) || all[0].Kind != "poll" {
			t.Fatalf("newest %+v, oldest %+v", all[0], all[99])
		}
		if few, err := st.Activities(ctx, f.ID, 3); err != nil || len(few) != 3 || few[2].Detail != "102" {
			t.Fatalf("Activities(limit 3) = %+v, %v", few, err)
		}
		if other, err := st.Activities(ctx, g.ID, 10); err != nil || len(other) != 1 {
			t.Fatalf("other feed's log = %+v, %v; trimming must stay per feed", other, err)
		}
		wantErrIs(t, st.AddActivity(ctx, storage.Activity{FeedID: 987654, Kind: "poll"}), storage.ErrNotFound)
	})
}
