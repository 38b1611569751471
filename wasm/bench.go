//go:build js && wasm

package main

import (
	"fmt"
	"time"

	"github.com/hack-pad/safejs"

	"kafkascope/core/cluster"
)

// listenBench installs window.kafkascopeBench(records): it runs the same
// fixed workload as the native benchmark (cluster.RunWorkload) inside the
// page, in the background, and publishes the result on #status as
// data-bench="records events milliseconds" (or data-bench-error). The
// browser benchmark (make bench-browser) compares it with the native run.
func listenBench() {
	fn, err := safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		records := 2000
		if len(args) > 0 {
			if n, err := args[0].Int(); err == nil && n > 0 && n <= 1_000_000 {
				records = n
			}
		}
		go runBench(records) // never block in a JavaScript callback
		return nil
	})
	if err == nil {
		err = safejs.Global().Set("kafkascopeBench", fn)
	}
	logErr("installing kafkascopeBench", err)
}

func runBench(records int) {
	status, err := byID("status")
	if err != nil {
		logErr("benchmark", err)
		return
	}
	began := time.Now()
	res, err := cluster.RunWorkload(records)
	if err != nil {
		_, err = status.Call("setAttribute", "data-bench-error", err.Error())
		logErr("benchmark", err)
		return
	}
	ms := float64(time.Since(began)) / float64(time.Millisecond)
	_, err = status.Call("setAttribute", "data-bench", fmt.Sprintf("%d %d %.1f", res.Records, res.Events, ms))
	logErr("benchmark", err)
}
