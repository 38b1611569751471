//go:build js && wasm

package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/hack-pad/safejs"
)

func main() {
	if err := showLoaded(); err != nil {
		// Never panic: a panic exits the Go program, and the page would only
		// say "the engine stopped". The message goes to the browser console.
		fmt.Fprintln(os.Stderr, "kafkascope:", err)
	}
	select {} // keep the Go runtime alive for callbacks and, later, the render loop
}

// showLoaded replaces the page's loading message in #status with proof that
// the Go program is running, and marks it loaded for the stylesheet.
func showLoaded() error {
	document, err := safejs.Global().Get("document")
	if err != nil {
		return fmt.Errorf("reading window.document: %w", err)
	}
	status, err := document.Call("getElementById", "status")
	if err != nil {
		return fmt.Errorf("finding #status: %w", err)
	}
	if status.IsNull() || status.IsUndefined() {
		return fmt.Errorf("the page has no #status element")
	}
	text := fmt.Sprintf("kafkascope engine loaded (Go %s)", runtime.Version())
	if err := status.Set("textContent", text); err != nil {
		return fmt.Errorf("setting #status text: %w", err)
	}
	if _, err := status.Call("setAttribute", "data-state", "loaded"); err != nil {
		return fmt.Errorf("setting #status state: %w", err)
	}
	return nil
}
