package storage

import "errors"

// ErrLeaseLost is returned (wrapped) when a worker reports on an outbox row
// or notice whose lease it no longer holds: another worker reclaimed it
// after the lease ran out, or it is no longer being sent.
var ErrLeaseLost = errors.New("storage: lease lost")

// ErrDuplicate is returned (wrapped) when a change would break a unique key,
// e.g. moving a subscription to a topic that already has one for its feed.
var ErrDuplicate = errors.New("storage: already exists")
