// Command wasmfloor times plain Go code of the kinds the engine spends its
// time in (sorting, maps, allocation, copying structs, encoding integers,
// CRC-32C, formatting, and handing control between goroutines), one line
// per kind: "name ns/op". Built natively and for the browser
// (GOOS=js GOARCH=wasm), the two runs' ratio per kind is what Go's
// WebAssembly port costs on this machine for code with no engine in it:
// the floor under the engine's own wasm/native ratio (issue 15's goal 4,
// which `make bench-browser` prints beside it).
//
// It is a measuring tool for scripts/e2e, not part of the page.
package main
