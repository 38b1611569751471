// Command wasm is kafkascope's browser entry point, built with
// GOOS=js GOARCH=wasm into public/main.wasm (`make wasm`) and started by
// index.html through public/wasm_exec.js.
//
// It owns everything that touches the browser: it boots a core/player from
// the URL (query and #part), mounts the Vugu app (ui.App) on #app, runs the
// render loop (drawing each build with ui/patch: render.go), and plays the
// cluster one requestAnimationFrame at a time under the event lock, each
// frame's events set by player.FrameBudget from what frames cost here;
// while a scenario step has more work than a frame, frames alternate
// between the engine and the render (player.FrameSplit). A DOM event's
// handler runs at once and the next frame draws what it changed (one
// render before each paint; the frame after, when that frame ran the
// engine alone). The bridges to the page (clipboard, URL,
// localStorage, focus, scrolling lists that follow their newest line) go
// through github.com/hack-pad/safejs, so every JavaScript error comes back as
// a Go error instead of a panic. It holds no simulation logic (core/) and no
// views (ui/).
//
// Built natively the command only explains how to build it (see native.go),
// so that `go build ./...` and `go vet ./...` work on any platform.
package main
