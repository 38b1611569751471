//go:build js && wasm

package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/hack-pad/safejs"

	"kafkascope/core/console"
)

// defaultCluster is what the page runs before the user types anything: the
// browser opens with the default cluster already created (DESIGN.md), and the
// terminal shows the command so the scrollback reads like a transcript.
const defaultCluster = "cluster create"

func main() {
	if err := boot(); err != nil {
		// Never panic: a panic exits the Go program, and the page would only
		// say "the engine stopped". Say what failed instead.
		fmt.Fprintln(os.Stderr, "kafkascope:", err)
		showStatus("error", "The kafkascope engine could not start: "+err.Error()+
			". See the browser console for details, and reload the page to try again.")
	}
	select {} // keep the Go runtime alive for the terminal's callbacks
}

// boot creates the session and the default cluster, mounts the terminal in
// #app and marks #status loaded. A panic anywhere in it comes back as an
// error.
func boot() (err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "kafkascope: panic while starting: %v\n%s", r, debug.Stack())
			err = fmt.Errorf("internal error while starting: %v", r)
		}
	}()

	document, err := safejs.Global().Get("document")
	if err != nil {
		return fmt.Errorf("reading window.document: %w", err)
	}
	app, err := elementByID(document, "app")
	if err != nil {
		return err
	}

	session := console.NewSession()
	term, err := newTerminal(document, app, session)
	if err != nil {
		return fmt.Errorf("building the terminal: %w", err)
	}
	term.note("kafkascope: the Kafka " + console.KafkaVersion +
		" command-line tools on a simulated cluster that runs in this tab.")
	began := time.Now()
	term.runCommand(defaultCluster)
	createMs := time.Since(began).Milliseconds()
	if session.Cluster() == nil {
		term.start()
		showStatus("error", "The kafkascope engine started, but `"+defaultCluster+
			"` failed (see the terminal). Reload the page to try again.")
		return nil
	}
	term.note("Type help for the commands, or try: " +
		"kafka-topics.sh --create --topic demo --partitions 3 --replication-factor 3")
	term.start()

	text := fmt.Sprintf("kafkascope engine ready (Go %s)", strings.TrimPrefix(runtime.Version(), "go"))
	if err := showStatus("loaded", text); err != nil {
		return err
	}
	// How long after navigation the page became usable, for tests and for
	// anyone measuring in devtools.
	if ms, ok := sinceNavigationMs(); ok {
		if status, err := elementByID(document, "status"); err == nil {
			if _, err := status.Call("setAttribute", "data-ready-ms", strconv.Itoa(ms)); err != nil {
				fmt.Fprintln(os.Stderr, "kafkascope: setting data-ready-ms:", err)
			}
		}
		fmt.Printf("kafkascope: engine ready %d ms after navigation (%s: %d ms)\n", ms, defaultCluster, createMs)
	}
	return nil
}

// showStatus sets #status's text and its data-state (loading, starting,
// loaded or error; the stylesheet keys on it).
func showStatus(state, text string) error {
	document, err := safejs.Global().Get("document")
	if err != nil {
		return fmt.Errorf("reading window.document: %w", err)
	}
	status, err := elementByID(document, "status")
	if err != nil {
		return err
	}
	if err := status.Set("textContent", text); err != nil {
		return fmt.Errorf("setting #status text: %w", err)
	}
	if _, err := status.Call("setAttribute", "data-state", state); err != nil {
		return fmt.Errorf("setting #status state: %w", err)
	}
	return nil
}

// elementByID returns the element with the id, or an error naming it.
func elementByID(document safejs.Value, id string) (safejs.Value, error) {
	el, err := document.Call("getElementById", id)
	if err != nil {
		return safejs.Undefined(), fmt.Errorf("finding #%s: %w", id, err)
	}
	if el.IsNull() || el.IsUndefined() {
		return safejs.Undefined(), fmt.Errorf("the page has no #%s element", id)
	}
	return el, nil
}

// sinceNavigationMs is performance.now(): milliseconds since the page's
// navigation started.
func sinceNavigationMs() (int, bool) {
	perf, err := safejs.Global().Get("performance")
	if err != nil || perf.IsUndefined() || perf.IsNull() {
		return 0, false
	}
	now, err := perf.Call("now")
	if err != nil {
		return 0, false
	}
	ms, err := now.Float()
	if err != nil {
		return 0, false
	}
	return int(ms + 0.5), true
}
