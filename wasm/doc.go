// Command wasm is kafkascope's browser entry point, built with
// GOOS=js GOARCH=wasm into public/main.wasm (`make wasm`) and started by
// index.html through public/wasm_exec.js.
//
// It owns everything that touches the browser: DOM access (through
// github.com/hack-pad/safejs, so every JavaScript error comes back as a Go
// error instead of a panic), the render loop, and later the URL, clipboard
// and postMessage bridges. It holds no simulation logic: that lives in core/,
// and the views in ui/.
//
// Until the Vugu app arrives it shows a terminal on the real engine: the
// page creates the default cluster and runs the command language
// (core/console) line by line, as the native kafkasim terminal does. Built
// natively the command only explains how to build it (see native.go), so
// that `go build ./...` and `go vet ./...` work on any platform.
package main
