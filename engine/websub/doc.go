// Package websub is the subscriber side of W3C WebSub: the form a
// subscription request sends to a hub, the callback handler that answers a
// hub's verification of intent and receives signed pushes, push signature
// checks, and when a lease is renewed. Storage and import are behind the
// Backend interface; the engine provides it.
package websub
