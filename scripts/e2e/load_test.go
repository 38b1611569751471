package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// statusRecorder runs before the page's own scripts and keeps every value
// #status's data-state and text had, in order: the old values from each
// mutation record (a state the page held only within one task is kept too),
// then the current ones once the engine is loaded.
const statusRecorder = `(() => {
	const log = window.__kafkascopeStatusLog = {states: [], texts: []};
	const observer = new MutationObserver(records => {
		for (const r of records) {
			if (!r.target || r.target.id !== "status") continue;
			if (r.type === "attributes" && r.attributeName === "data-state") log.states.push(r.oldValue);
			if (r.type === "childList") for (const n of r.removedNodes) log.texts.push(n.textContent);
		}
	});
	observer.observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"], attributeOldValue: true});
})()`

// TestLoadProgress loads the page with main.wasm sent slowly, and checks the
// status line's progress: loading, then "downloading N%" rising to 100%,
// then compiling, starting and loaded. The percentage counts the decoded
// bytes against the raw size: Content-Length for a plain response, the
// X-Decoded-Content-Length header for a gzip-encoded one; with neither, the
// line counts megabytes and shows no percentage. A revisit (the page from
// the browser's cache) counts nothing: loading, starting, loaded.
func TestLoadProgress(t *testing.T) {
	requireChromium(t)
	repo := repoRoot(t)
	built := buildWasm(t, repo)
	raw, err := os.ReadFile(filepath.Join(built, "main.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	if _, err := zw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}

	b := startBrowser(t)
	percent := regexp.MustCompile(`^Downloading the kafkascope engine… (\d+)%$`)
	megabytes := regexp.MustCompile(`^Downloading the kafkascope engine… \d+\.\d MB$`)
	for _, tc := range []struct {
		name        string
		body        []byte
		header      map[string]string
		wantPercent bool
	}{
		{"plain", raw, map[string]string{"Content-Length": strconv.Itoa(len(raw))}, true},
		{"gzip with the decoded size", gz.Bytes(), map[string]string{
			"Content-Encoding": "gzip", "Content-Length": strconv.Itoa(gz.Len()), "X-Decoded-Content-Length": strconv.Itoa(len(raw))}, true},
		{"gzip without the decoded size", gz.Bytes(), map[string]string{
			"Content-Encoding": "gzip", "Content-Length": strconv.Itoa(gz.Len())}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := b.t
			b.t = t // the browser's helpers report to the subtest
			defer func() { b.t = parent }()
			pageHandler := newPageHandler(repo, built)
			var wasmRequests atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/public/main.wasm" {
					pageHandler.ServeHTTP(w, r)
					return
				}
				wasmRequests.Add(1)
				w.Header().Set("Content-Type", "application/wasm")
				w.Header().Set("Cache-Control", "no-store")
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				sendSlowly(w, tc.body, 48)
			}))
			defer srv.Close()

			tab := b.newTab()
			defer b.closeTab(tab)
			if _, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: statusRecorder}); err != nil {
				t.Fatalf("installing the status recorder: %v", err)
			}
			b.open(tab, srv.URL+"/")
			// The preload in index.html and the loader's fetch share one
			// download.
			if n := wasmRequests.Load(); n != 1 {
				t.Errorf("main.wasm was requested %d times for one load of the page", n)
			}
			states, texts := statusLog(t, tab)
			if got, want := strings.Join(states, " → "), "loading → downloading → compiling → starting → loaded"; got != want {
				t.Errorf("#status went through %s, want %s", got, want)
			}
			if tc.name == "plain" {
				// Loaded again, the page comes from the browser's cache
				// (revalidated): no download is counted.
				b.open(tab, srv.URL+"/")
				again, againTexts := statusLog(t, tab)
				if got, want := strings.Join(again, " → "), "loading → starting → loaded"; got != want {
					t.Errorf("on a revisit #status went through %s (%q), want %s", got, againTexts, want)
				}
			}

			var percents []int
			downloading := 0
			for _, text := range texts {
				if !strings.HasPrefix(text, "Downloading") {
					continue
				}
				downloading++
				if m := percent.FindStringSubmatch(text); m != nil {
					n, _ := strconv.Atoi(m[1])
					percents = append(percents, n)
				} else if !megabytes.MatchString(text) {
					t.Errorf("download line %q", text)
				}
			}
			if !tc.wantPercent {
				if len(percents) > 0 || downloading < 3 {
					t.Errorf("without a size to count against, want several lines in MB and no percentage; got %q", texts)
				}
				return
			}
			if len(percents) < 5 || percents[len(percents)-1] != 100 {
				t.Fatalf("want at least 5 download percentages ending at 100; got %v", percents)
			}
			for i := 1; i < len(percents); i++ {
				if percents[i] <= percents[i-1] {
					t.Errorf("the percentage went from %d to %d: %v", percents[i-1], percents[i], percents)
					break
				}
			}
			if percents[0] > 50 {
				t.Errorf("the first percentage shown is %d: the download was not followed (%v)", percents[0], percents)
			}
		})
	}
}

// statusLog is what the status recorder saw on the tab's page: the states
// (consecutive repeats merged: "downloading" is set at every step) and the
// texts, the current ones last.
func statusLog(t *testing.T, tab context.Context) (states, texts []string) {
	t.Helper()
	logJSON := evalString(tab, `JSON.stringify({
		states: [...window.__kafkascopeStatusLog.states, document.getElementById("status").dataset.state],
		texts: [...window.__kafkascopeStatusLog.texts, document.getElementById("status").textContent]})`)
	var log struct{ States, Texts []string }
	if err := json.Unmarshal([]byte(logJSON), &log); err != nil {
		t.Fatalf("reading the status log %s: %v", logJSON, err)
	}
	for _, s := range log.States {
		if len(states) == 0 || states[len(states)-1] != s {
			states = append(states, s)
		}
	}
	return states, log.Texts
}

// sendSlowly writes body in parts of chunks, flushing each and pausing
// between them, so that the page sees its download progress.
func sendSlowly(w http.ResponseWriter, body []byte, chunks int) {
	step := (len(body) + chunks - 1) / chunks
	flusher, _ := w.(http.Flusher)
	for off := 0; off < len(body); off += step {
		if _, err := w.Write(body[off:min(off+step, len(body))]); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		time.Sleep(15 * time.Millisecond)
	}
}
