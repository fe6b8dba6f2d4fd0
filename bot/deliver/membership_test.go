package deliver

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
	"github.com/rssbot/rssbot/templates"
)

func member(status models.ChatMemberType) models.ChatMember {
	m := models.ChatMember{Type: status}
	switch status {
	case models.ChatMemberTypeAdministrator:
		m.Administrator = &models.ChatMemberAdministrator{CanPostMessages: true}
	case models.ChatMemberTypeRestricted:
		m.Restricted = &models.ChatMemberRestricted{IsMember: true, CanSendMessages: true}
	}
	return m
}

// The rules are the Bot API's ChatMember statuses: who may post.
func TestCanPost(t *testing.T) {
	muted := member(models.ChatMemberTypeRestricted)
	muted.Restricted.CanSendMessages = false
	outside := member(models.ChatMemberTypeRestricted)
	outside.Restricted.IsMember = false
	noPost := member(models.ChatMemberTypeAdministrator)
	noPost.Administrator.CanPostMessages = false
	tests := []struct {
		name string
		m    models.ChatMember
		chat models.ChatType
		want bool
	}{
		{"member", member(models.ChatMemberTypeMember), models.ChatTypeGroup, true},
		{"owner", member(models.ChatMemberTypeOwner), models.ChatTypeSupergroup, true},
		{"administrator", member(models.ChatMemberTypeAdministrator), models.ChatTypeSupergroup, true},
		{"channel administrator who may post", member(models.ChatMemberTypeAdministrator), models.ChatTypeChannel, true},
		{"channel administrator who may not post", noPost, models.ChatTypeChannel, false},
		{"group administrator without channel rights", noPost, models.ChatTypeGroup, true},
		{"restricted member who may write", member(models.ChatMemberTypeRestricted), models.ChatTypeSupergroup, true},
		{"muted", muted, models.ChatTypeSupergroup, false},
		{"restricted, not a member", outside, models.ChatTypeSupergroup, false},
		{"left", member(models.ChatMemberTypeLeft), models.ChatTypeGroup, false},
		{"kicked (or blocked in a private chat)", member(models.ChatMemberTypeBanned), models.ChatTypePrivate, false},
	}
	for _, tt := range tests {
		if got := CanPost(tt.m, tt.chat); got != tt.want {
			t.Errorf("%s: CanPost = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func membershipUpdate(chat int64, chatType models.ChatType, old, new models.ChatMemberType) *models.ChatMemberUpdated {
	return &models.ChatMemberUpdated{
		Chat:          models.Chat{ID: chat, Type: chatType, Title: "Team"},
		From:          models.User{ID: 99, FirstName: "Someone"},
		OldChatMember: member(old),
		NewChatMember: member(new),
	}
}

// Removed from a chat: its active subscriptions pause (posts wait) and the
// admin is told; added back: they resume, posts go out in order, the
// admin is told. The admin's own pause is left alone throughout.
func TestOnMembership(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		const group = -7
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{ChatID: group, MediaMode: storage.MediaNone})
		ctx := context.Background()
		holiday := fx.subscribe(t, fx.addFeed(t, "https://example.org/other.xml", "Other"),
			storage.Subscription{ChatID: group, Paused: true, PausedReason: "holiday"})
		d := fx.deliverer(api, templates.Default(time.UTC))

		d.OnMembership(ctx, membershipUpdate(group, models.ChatTypeGroup, models.ChatMemberTypeMember, models.ChatMemberTypeBanned))
		fx.queue(t, entries("e", 2)...) // queued while paused: nothing (the engine stores them as seen)
		if sub := mustSub(t, fx.store, fx.sub.ID); !sub.Paused || sub.PausedReason != ReasonChat+"status kicked" {
			t.Errorf("after the kick the subscription is %+v", sub)
		}
		if c, err := fx.store.ChatByID(ctx, group); err != nil || c.Title != "Team" || c.Type != "group" {
			t.Errorf("chat = %+v, %v; want its description from the update", c, err)
		}
		// A second removal (left after kicked) tells nobody again.
		d.OnMembership(ctx, membershipUpdate(group, models.ChatTypeGroup, models.ChatMemberTypeBanned, models.ChatMemberTypeLeft))
		if n := noticesOf(t, fx, NoticeChatPaused); len(n) != 1 || n[0].Count != 1 || n[0].Reason != "status kicked" {
			t.Errorf("pause notices = %+v, want one", n)
		}

		d.OnMembership(ctx, membershipUpdate(group, models.ChatTypeGroup, models.ChatMemberTypeLeft, models.ChatMemberTypeAdministrator))
		if sub := mustSub(t, fx.store, fx.sub.ID); sub.Paused {
			t.Errorf("after the bot came back the subscription is %+v", sub)
		}
		if sub := mustSub(t, fx.store, holiday.ID); !sub.Paused || sub.PausedReason != "holiday" {
			t.Errorf("the admin's pause became %+v", sub)
		}
		if n := noticesOf(t, fx, NoticeChatResumed); len(n) != 1 || n[0].Count != 1 {
			t.Errorf("resume notices = %+v, want one", n)
		}
		fx.queue(t, entries("n", 2)...)
		fx.drain(t, d, 10)
		if got := titles(tg, group); !slices.Equal(got, want("n", 2)) {
			t.Errorf("after the return the group got %v", got)
		}

		// A chat without subscriptions is left alone.
		d.OnMembership(ctx, membershipUpdate(-999, models.ChatTypeGroup, models.ChatMemberTypeMember, models.ChatMemberTypeLeft))
		if _, err := fx.store.ChatByID(ctx, -999); err == nil {
			t.Error("a chat without subscriptions was stored")
		}
		if n := len(fx.notices(t)); n != 0 {
			t.Errorf("%d more notices for a chat without subscriptions", n)
		}
	})
}

// Rows waiting when the bot was removed are kept and go out, in order,
// once it is back.
func TestOnMembershipKeepsWaitingRows(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		const group = -7
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{ChatID: group, MediaMode: storage.MediaNone})
		fx.queue(t, entries("e", 3)...)
		d := fx.deliverer(api, templates.Default(time.UTC))
		ctx := context.Background()
		d.OnMembership(ctx, membershipUpdate(group, models.ChatTypeGroup, models.ChatMemberTypeMember, models.ChatMemberTypeLeft))
		fx.drain(t, d, 5)
		if n := len(tg.Messages()); n != 0 {
			t.Fatalf("%d messages to a chat the bot left", n)
		}
		if n := noticesOf(t, fx, NoticeChatPaused); len(n) != 1 || n[0].Waiting != 3 {
			t.Errorf("notices = %+v, want one with 3 waiting posts", n)
		}
		d.OnMembership(ctx, membershipUpdate(group, models.ChatTypeGroup, models.ChatMemberTypeLeft, models.ChatMemberTypeMember))
		fx.drain(t, d, 20)
		if got := titles(tg, group); !slices.Equal(got, want("e", 3)) {
			t.Errorf("after the return the group got %v, want all 3 in order", got)
		}
	})
}
