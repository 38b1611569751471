//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main exists so the package builds natively (`go build ./...` links every
// main package and fails on one without a main function). The real entry is
// in main.go, built only for js/wasm.
func main() {
	fmt.Fprintln(os.Stderr, "kafkascope: this is the browser entry; build it with `make wasm` "+
		"(GOOS=js GOARCH=wasm go build -o public/main.wasm ./wasm)")
	os.Exit(2)
}
