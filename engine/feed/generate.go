package feed

//go:generate go run windowszones_gen.go
