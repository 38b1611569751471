# kafkascope — build, serve and test.
#
#   make serve    build the wasm engine and serve the page on http://127.0.0.1:8080/
#   make generate regenerate the Vugu components (ui/*_gen.go)
#   make wasm     build public/main.wasm only
#   make dist     the files a static host needs, in build/dist/ (see the README)
#   make worker   build the Cloudflare Worker (wasm/worker) and its site, and run it offline on http://127.0.0.1:8787/
#                 (wrangler dev; first: npm ci --prefix scripts/worker)
#   make worker-build  the Worker in build/worker/build/ and the page for its static assets in build/worker/site/
#   make worker-size   the upload wrangler deploy would send, gzipped (Cloudflare's limit: 3 MiB free, 10 MiB paid)
#   make test-worker   only the Worker's end-to-end test (scripts/e2e TestWorker: wrangler dev and Chromium)
#   make test     everything CI checks, in order, stopping at the first failure
#   make bench    benchmarks of core/ (make test runs each once: bench-short)
#   make bench-browser  load time, wasm speed and frame times in headless Chromium
#   make bench-long  the page left playing for hours in headless Chromium: its memory over time (LONG=3h, LONGSPEED=1)
#   make simtest  the randomized fault simulator over a fixed seed range (SIMSEEDS=...)
#   make simlong  a long simulator sweep, not part of make test (SIMSEEDS=a-b, default 1-10000; SIMJOBS=n)
#   make fuzz     fuzz every Fuzz target under core/, 60s each (FUZZTIME=...; make test runs FUZZSHORT=3s each)
#   make clean    remove build outputs
#
# Every recipe line runs with `set -e` semantics (one command per line, or
# commands joined with && / an explicit `set -e`), so any failure stops make.

GO       = go
GOFMT    = gofmt
PORT     = 8080
FUZZTIME = 60s
SIMSEEDS = 1-40
FUZZSHORT = 3s

WASM_OUT   = public/main.wasm
WASM_EXEC  = public/wasm_exec.js
# Inlining is off (-l) in the packages listed: kafkascope's command-line
# tools (with their Java command-line parsers, JDK behaviours and
# transcript format), scenarios, metadata record codec, brokers, clients, Raft,
# controller, configs, views, group assignors, fault simulator, timeline,
# player, cold-path sorts, JSON and URL query helpers, request and response
# types, RPC, event feed, share links' deflate writer, page components (ui, whose generated Build methods
# inlined vugu's AppendChild at every element), page renderer (ui/patch) and
# entry point (wasm), Vugu, its and safejs's JavaScript bindings, and the
# standard library's regexp, encoding/json, compress/flate, fmt, reflect,
# unicode, time, html, internal/fmtsort and syscall/js. It stays on in the
# simulation's core (sim, storage, record, cluster), the standard library's
# other packages and the runtime. In wasm an inlined call is a full copy of
# the callee inside a function that the browser must compile before it first
# runs. Off in the command-line tools, the scenarios, the metadata codec and
# the standard packages, it made main.wasm 0.6 MB smaller (7% of its brotli
# size); off in the engine's other packages listed, 85 KB of brotli more;
# off in ui, 72 KB more; off in the page's other packages and the last
# standard ones, 18 KB more. None changed the measured speed under node,
# with inlining against without, within noise (interleaved runs on a shared
# machine): engine packages, BenchmarkTimeAdvance (core/console) 1.55
# against 1.55 s per op and BenchmarkFrame9x30 (ui: nine brokers, producers
# and a group; one frame per op) 21.5 against 21.3 ms, fastest of each; ui,
# BenchmarkFrame9x30 19.7 against 21.9 ms fastest but 26.1 against 23.3 ms
# median of 8, BenchmarkDiagramBuild 5.6 against 5.3 ms fastest; the page's
# packages, BenchmarkFrame9x30 13.4 against 13.5 ms fastest and 15.9 against
# 16.8 ms median of six processes' fastest warm runs. Off in protocol, rpc
# and feed, 5 KB of brotli more, with no change measured under node (load
# 2-4, interleaved): BenchmarkTimeAdvance/stepped fastest 0.90 against
# 0.90 s, median 0.98 against 1.00 s of 8; BenchmarkFrame9x30 median 17.1
# against 16.2 ms of 10. Off in event (the engine's typed notes: a Key and
# a Fields method per note type, each called once per note), i18n and
# invariant, 9.4 KB of brotli less (2,013,780 against 2,004,381 bytes),
# though 6.5 KB more raw. Off in the whole simulation's core (these three,
# sim, storage, record, cluster) it saved 30 KB of brotli, and off in
# strings 20 KB, but they made BenchmarkTimeAdvance 9% and 5% slower
# (medians of 32 runs); off everywhere, runtime included, 94 KB more but
# BenchmarkTimeAdvance twice as slow.
WASM_NOINLINE = kafkascope/core/console kafkascope/core/javacli kafkascope/core/jdk kafkascope/core/transcript \
	kafkascope/core/scenario kafkascope/core/metadata \
	kafkascope/core/broker kafkascope/core/client kafkascope/core/raft kafkascope/core/controller \
	kafkascope/core/config kafkascope/core/view kafkascope/core/group kafkascope/core/groupcoordinator kafkascope/core/simulate \
	kafkascope/core/timeline kafkascope/core/player kafkascope/core/sorts kafkascope/core/jsonvalue \
	kafkascope/core/urlquery kafkascope/core/protocol kafkascope/core/rpc kafkascope/core/feed kafkascope/core/deflate \
	kafkascope/core/event kafkascope/core/i18n kafkascope/core/invariant \
	kafkascope/ui kafkascope/ui/patch kafkascope/wasm \
	github.com/vugu/vugu github.com/vugu/vugu/js github.com/hack-pad/safejs \
	regexp regexp/syntax encoding/json compress/flate fmt reflect unicode time \
	html internal/fmtsort syscall/js
WASM_FLAGS = -trimpath -ldflags='-s -w' $(foreach p,$(WASM_NOINLINE),-gcflags=$(p)=-l)

# Golden transcripts: every *.txt under core/ inside a testdata/ or scenarios/
# directory (at any depth below it). Override on the command line to check a
# few: make transcripts TRANSCRIPTS=core/scenario/scenarios/foo.txt
TRANSCRIPTS != find core -type f -name '*.txt' \( -path '*/testdata/*' -o -path '*/scenarios/*' \) 2>/dev/null | LC_ALL=C sort

.PHONY: generate generate-check help serve wasm wasm-exec assets dist-files dist worker-wasm worker-site worker-build worker worker-size wrangler-check test-worker bench-short test fmt-check vet vet-wasm test-core test-other transcripts fuzz-short simtest simlong bench bench-browser bench-long fuzz clean

help:
	@sed -n 's/^#   //p' Makefile

serve: assets
	$(GO) run ./scripts/serve -open -port $(PORT)

# The page embeds the built-in scenarios without their expected output and
# state claims, which only make test reads (scripts/pagescenarios writes
# those copies and the go build overlay that puts them in place: 16 KB of
# brotli). scripts/lazyentities adds to that overlay a copy of the standard
# library's html/entity.go whose table of character references is built on
# first use, not kept by the package's initialization (19 KB of brotli:
# the page never unescapes HTML). scripts/wasmdata then rewrites the
# module's data section in a few long segments instead of the linker's
# 100,000 short ones: the same memory image, 1 MB larger raw but 108 KB
# smaller in brotli and 181 KB gzipped.
PAGE_SCENARIOS = build/page-scenarios

wasm:
	$(GO) run ./scripts/pagescenarios $(PAGE_SCENARIOS)
	$(GO) run ./scripts/lazyentities $(PAGE_SCENARIOS) "$$($(GO) env GOROOT)"
	GOOS=js GOARCH=wasm $(GO) build $(WASM_FLAGS) -overlay=$(PAGE_SCENARIOS)/overlay.json -o $(WASM_OUT) ./wasm
	$(GO) run ./scripts/wasmdata $(WASM_OUT)

# The wasm build plus what serving it needs: wasm_exec.js from the same Go
# that built it, a gzipped copy (written to a temporary name first so an
# interrupted run never leaves a truncated .gz behind) and a brotli copy
# (scripts/precompress: slow to write, so kept while the engine is unchanged).
wasm-exec:
	cp "$$($(GO) env GOROOT)/lib/wasm/wasm_exec.js" $(WASM_EXEC)

assets: wasm wasm-exec
	gzip -9 -n -c $(WASM_OUT) > $(WASM_OUT).gz.tmp
	mv $(WASM_OUT).gz.tmp $(WASM_OUT).gz
	$(GO) run ./scripts/precompress $(WASM_OUT)

# Everything a static web host needs, and nothing else: the page, its CSS
# and icon, the Go runtime glue, the engine, and the engine gzipped and in
# brotli (a host must send it compressed: see the README's "Host it for a
# workshop"). The page's copy of index.html records the engine's raw size,
# against which it counts the download of a compressed copy. The copies of
# the page's text files are minified (scripts/pagemin), as scripts/serve
# sends them, and written gzipped and in brotli beside themselves too: a
# host that sends precompressed files (http-server -g -b, nginx's
# gzip_static) then sends some 15 KB of them (17 KB gzipped) rather than
# 70 KB.
#
# make dist-files writes the same files without the compressed copies
# (into DIST_DIR): the Worker's site (make worker-site) needs no copies,
# Cloudflare compresses what it sends, and brotli takes some 40 s on the
# engine.
DIST_DIR = build/dist
DIST_PUBLIC = public/style.css public/diagram.css public/favicon.svg $(WASM_EXEC) $(WASM_OUT) $(WASM_OUT).gz $(WASM_OUT).br
DIST_COMPRESSED = $(filter %.gz %.br,$(DIST_PUBLIC))
DIST_TEXT = $(DIST_DIR)/index.html $(DIST_DIR)/public/style.css $(DIST_DIR)/public/diagram.css $(DIST_DIR)/public/wasm_exec.js

dist-files: wasm wasm-exec
	rm -rf $(DIST_DIR)
	mkdir -p $(DIST_DIR)/public
	sed 's|<meta name="kafkascope-wasm-bytes" content="">|<meta name="kafkascope-wasm-bytes" content="'"$$(wc -c < $(WASM_OUT) | tr -d ' ')"'">|' index.html > $(DIST_DIR)/index.html
	grep -q '<meta name="kafkascope-wasm-bytes" content="[0-9][0-9]*">' $(DIST_DIR)/index.html
	cp $(filter-out $(DIST_COMPRESSED),$(DIST_PUBLIC)) $(DIST_DIR)/public/
	$(GO) run ./scripts/pagemin $(DIST_TEXT)
	grep -q '<meta name="kafkascope-wasm-bytes" content="[0-9][0-9]*">' $(DIST_DIR)/index.html

dist: assets dist-files
	cp $(DIST_COMPRESSED) $(DIST_DIR)/public/
	for f in $(DIST_TEXT); do gzip -9 -n -k -f $$f; done
	$(GO) run ./scripts/precompress $(DIST_TEXT)
	@echo "build/dist/ holds the app: serve it compressed, e.g. npx http-server build/dist -b -g"

# The Cloudflare Worker (wasm/worker: /snapshot.svg, /oembed, short links
# under /s) and, as its static assets, the page. scripts/worker holds
# wrangler's config (wrangler.jsonc) and wrangler itself, pinned in
# package.json (4.86.0: later ones need node 22): npm ci --prefix
# scripts/worker. wrangler runs offline: no metrics, no error reports, no
# request for Cloudflare's request metadata, its own config dir.
#
# The Worker's wasm takes the page's tricks (make wasm): inlining off in
# the packages of WASM_NOINLINE and, here, in the Worker's own (its entry,
# ui/snapshot, net/http and its helpers, syumai/workers), the scenarios
# without their expected output (with html's lazy entity table), and
# wasmdata's long data segments. Measured on the Worker of issue 16 (Go
# 1.26, app.wasm raw and gzip -9): plain -trimpath -ldflags='-s -w'
# 20.4 MB, 5.10 MB gzipped; the scenarios overlay alone 5.05 MB; the
# page's list of packages without inlining alone 4.62 MB; both 4.58 MB;
# the Worker's packages too 4.45 MB; wasmdata then 20.1 MB raw, 4.27 MB
# gzipped (wasmdata alone saves 186 KB). wrangler deploy --dry-run then
# counts 4,250 KiB gzipped for the whole upload (make worker-size). Even
# without inlining anywhere (-gcflags=all=-l, which makes the engine far
# slower) it is 4.08 MB: over the free plan's 3 MiB, well under the paid
# plan's 10 MiB. Built so, the Worker was no slower than the plain build
# under wrangler dev: /snapshot.svg of 15 scenario steps took 3.0 and
# 2.9 s in all (wrangler's request times; two interleaved runs each),
# against 3.7 and 4.4 s.
WORKER_DIR  = build/worker
WORKER_WASM = $(WORKER_DIR)/build/app.wasm
WORKER_NOINLINE = $(WASM_NOINLINE) kafkascope/wasm/worker kafkascope/ui/snapshot \
	net/http net/textproto net/url net mime mime/multipart crypto/tls crypto/x509 \
	github.com/syumai/workers github.com/syumai/workers/internal/jshttp github.com/syumai/workers/internal/jsutil \
	github.com/syumai/workers/cloudflare github.com/syumai/workers/cloudflare/fetch github.com/syumai/workers/cloudflare/kv
WORKER_FLAGS = -trimpath -ldflags='-s -w' $(foreach p,$(WORKER_NOINLINE),-gcflags=$(p)=-l)
WORKER_PORT = 8787
WRANGLER = cd scripts/worker && WRANGLER_SEND_METRICS=false WRANGLER_SEND_ERROR_REPORTS=false \
	CLOUDFLARE_CF_FETCH_ENABLED=false WRANGLER_HIDE_BANNER=true XDG_CONFIG_HOME=$(CURDIR)/$(WORKER_DIR)/xdg \
	./node_modules/.bin/wrangler

# The Worker's code: syumai/workers' JavaScript glue (worker.mjs,
# runtime.mjs, wasm_exec.js) and app.wasm, in build/worker/build/.
worker-wasm:
	$(GO) run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o $(WORKER_DIR)/build
	$(GO) run ./scripts/pagescenarios $(WORKER_DIR)/scenarios
	$(GO) run ./scripts/lazyentities $(WORKER_DIR)/scenarios "$$($(GO) env GOROOT)"
	GOOS=js GOARCH=wasm $(GO) build $(WORKER_FLAGS) -overlay=$(WORKER_DIR)/scenarios/overlay.json -o $(WORKER_WASM) ./wasm/worker
	$(GO) run ./scripts/wasmdata $(WORKER_WASM)
	@echo "$(WORKER_WASM): $$(wc -c < $(WORKER_WASM) | tr -d ' ') bytes, $$(gzip -9 -n -c $(WORKER_WASM) | wc -c | tr -d ' ') gzipped (make worker-size: the whole upload)"

# The Worker's static assets (scripts/workersite): the page as make dist
# writes it, without compressed copies, the engine under a hashed name,
# a _headers file, and the script that copies short links.
worker-site:
	@$(MAKE) --no-print-directory dist-files DIST_DIR=$(WORKER_DIR)/dist
	$(GO) run ./scripts/workersite $(WORKER_DIR)/dist $(WORKER_DIR)/site

worker-build: worker-wasm worker-site

# wrangler, if npm ci installed it (npx would fetch the newest one).
wrangler-check:
	@test -x scripts/worker/node_modules/.bin/wrangler || { echo "wrangler is not installed: run npm ci --prefix scripts/worker"; exit 1; }

# Local state (short links in KV, the cache) is kept in build/worker/state.
# The cache is emptied at each start: its keys name the build's commit,
# and a local build changes without one.
worker: wrangler-check worker-build
	rm -rf $(WORKER_DIR)/state/v3/cache
	$(WRANGLER) dev --ip 127.0.0.1 --port $(WORKER_PORT) --persist-to $(CURDIR)/$(WORKER_DIR)/state --show-interactive-dev-session=false

# wrangler bundles what it would upload (no network) and says how large
# it is: the gzip figure is the one Cloudflare's limit applies to.
worker-size: wrangler-check worker-build
	@set -e; out=$$($(WRANGLER) deploy --dry-run --outdir $(CURDIR)/$(WORKER_DIR)/dry-run 2>&1) || { echo "$$out"; exit 1; }; \
	echo "$$out" | grep 'Total Upload' || { echo "$$out"; echo "worker-size: wrangler printed no Total Upload line"; exit 1; }

test-worker:
	$(GO) test -count=1 -run '^TestWorker' -v ./scripts/e2e/

# Vugu components (ui/*.vugu) compile to ui/*_gen.go; the generated files
# are committed, and make test checks they are up to date. scripts/vugutrim
# then drops the log and vjson imports vugugen adds to every file but
# nothing uses: their package initialization alone cost main.wasm 67 KB
# (15 KB gzipped, 10 KB brotli). It also rewrites the Build methods' node
# literals, event handlers, attributes and contents into calls of small
# helpers (ui/vgbuild.go): main.wasm 192 KB smaller, 24 KB in brotli.
generate:
	$(GO) tool vugugen -skip-go-mod -skip-main ./ui
	$(GO) run ./scripts/vugutrim ui

generate-check:
	@echo "==> vugugen output is up to date"
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	cp -R ui "$$tmp/ui"; \
	$(GO) tool vugugen -skip-go-mod -skip-main ./ui; \
	$(GO) run ./scripts/vugutrim ui; \
	if ! diff -r -q "$$tmp/ui" ui >/dev/null; then \
		diff -r "$$tmp/ui" ui | head -40; \
		cp -R "$$tmp/ui/." ui/; \
		echo "ui/*_gen.go are stale: run make generate and commit the result"; exit 1; \
	fi

# Sub-makes run the steps strictly in order, even under make -j.
test:
	@$(MAKE) --no-print-directory generate-check
	@$(MAKE) --no-print-directory fmt-check
	@$(MAKE) --no-print-directory vet
	@$(MAKE) --no-print-directory vet-wasm
	@$(MAKE) --no-print-directory test-core
	@$(MAKE) --no-print-directory test-other
	@$(MAKE) --no-print-directory wasm
	@$(MAKE) --no-print-directory transcripts
	@$(MAKE) --no-print-directory simtest
	@$(MAKE) --no-print-directory fuzz-short
	@$(MAKE) --no-print-directory bench-short
	@echo "make test: all checks passed"

# gofmt over tracked and untracked (not ignored) Go files; generated *_gen.go
# files are not gofmt-clean and are left out. Outside a git checkout, all
# files are checked.
fmt-check:
	@echo "==> gofmt"
	@set -e; \
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		files=$$(git ls-files -c -o --exclude-standard -- '*.go'); \
	else \
		files=$$(find . -name '*.go' ! -path './.git/*'); \
	fi; \
	existing=; \
	for f in $$files; do \
		case "$$f" in *_gen.go) continue ;; esac; \
		if [ -f "$$f" ]; then existing="$$existing $$f"; fi; \
	done; \
	if [ -z "$$existing" ]; then echo "no Go files"; exit 0; fi; \
	unformatted=$$($(GOFMT) -l $$existing); \
	if [ -n "$$unformatted" ]; then \
		echo "these files are not gofmt-clean (run gofmt -w):"; echo "$$unformatted"; exit 1; \
	fi

vet:
	@echo "==> go vet ./..."
	$(GO) vet ./...

vet-wasm:
	@echo "==> go vet ./wasm/... ./ui/... (js/wasm)"
	GOOS=js GOARCH=wasm $(GO) vet ./wasm/... ./ui/...

test-core:
	@echo "==> go test -race ./core/..."
	$(GO) test -race ./core/...

# Everything outside core/, without -race (the wasm entry and tooling),
# the browser tests of scripts/e2e among them: TestWorker builds the
# Worker (make worker-build) and runs it under wrangler dev.
test-other:
	@echo "==> go test (packages outside core/)"
	@set -e; \
	pkgs=$$($(GO) list ./... | grep -Ev '^kafkascope/core(/|$$)'); \
	$(GO) test $$pkgs

transcripts:
	@echo "==> transcripts"
	@if [ -z "$(TRANSCRIPTS)" ]; then \
		echo "no transcripts under core/**/testdata or core/**/scenarios; skipped"; \
	else \
		echo "$(GO) run ./scripts/kafkasim check $(TRANSCRIPTS)"; \
		$(GO) run ./scripts/kafkasim check $(TRANSCRIPTS); \
	fi

# A short pass of every Fuzz target (FUZZSHORT each; the seed corpora
# already ran as plain tests in test-core): the record batch, metadata and
# group protocol decoders, the command line against a live cluster, the
# transcript parser, share links and the page URL, and the JSON and URL
# query readers against encoding/json and net/url.
fuzz-short:
	@echo "==> fuzz every target ($(FUZZSHORT) each)"
	@$(MAKE) --no-print-directory fuzz FUZZTIME=$(FUZZSHORT)

# The fault simulator over a fixed seed range with default configs: every
# seed must hold every guarantee (go run ./scripts/kafkasim simulate).
simtest:
	@echo "==> simulate --seeds $(SIMSEEDS)"
	$(GO) run ./scripts/kafkasim simulate --seeds $(SIMSEEDS)

# A long sweep (make simlong SIMSEEDS=a-b): the range given on the command
# line, else 1-10000, SIMJOBS seeds at a time (the simulator's default
# without it); it prints the seeds with violations and runs/s. Not part
# of make test: 10,000 seeds take about 20 minutes on 2 cores.
SIMLONG = $(if $(filter command line,$(origin SIMSEEDS)),$(SIMSEEDS),1-10000)
simlong:
	@echo "==> simulate --seeds $(SIMLONG)"
	$(GO) run ./scripts/kafkasim simulate --seeds $(SIMLONG) $(if $(SIMJOBS),--jobs $(SIMJOBS))

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./core/... ./ui/...

# Every benchmark once (make test): a benchmark that cannot run fails the
# build instead of rotting until someone measures.
bench-short:
	@echo "==> every benchmark once"
	$(GO) test -run '^$$' -bench . -benchtime 1x ./core/... ./ui/...

# The page in headless Chromium: load time, engine speed against native,
# frame times while a scenario plays (figures in build/bench-browser.txt).
bench-browser:
	KAFKASCOPE_BENCH=1 $(GO) test -count=1 -timeout 30m -run '^TestBrowserBenchmark' -v ./scripts/e2e/

# The page left playing with producers running (scripts/e2e
# TestBrowserLongSession): the tab's memory every 10 simulated minutes, in
# build/long-session.txt. LONG is simulated time, LONGSPEED the page's
# playback speed (wall time is LONG / LONGSPEED).
LONG      = 3h
LONGSPEED = 1
bench-long:
	KAFKASCOPE_LONG=$(LONG) KAFKASCOPE_LONG_SPEED=$(LONGSPEED) $(GO) test -count=1 -timeout 0 -run '^TestBrowserLongSession$$' -v ./scripts/e2e/

# Every func FuzzXxx in a _test.go file under core/, one after another
# (go test fuzzes one target per run). A failing input is written to the
# package's testdata/fuzz/<target>/ and fails the run. Go 1.26's fuzz
# coordinator can also end a run with a bare "context deadline exceeded"
# at the -fuzztime boundary and no input (golang/go#75804, fixed in Go
# 1.27): that is reported as a flake and does not fail the run.
fuzz:
	@set -e; found=0; log=$$(mktemp); trap 'rm -f "$$log"' EXIT; \
	for f in $$(grep -rls --include='*_test.go' '^func Fuzz' core | LC_ALL=C sort); do \
		dir=$$(dirname "$$f"); \
		for target in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$$f"); do \
			found=1; \
			echo "==> $(GO) test -run '^\$$' -fuzz '^$$target\$$' -fuzztime $(FUZZTIME) ./$$dir/"; \
			before=$$(ls "$$dir/testdata/fuzz/$$target" 2>/dev/null | wc -l); \
			if $(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) "./$$dir/" >"$$log" 2>&1; then \
				tail -n 3 "$$log"; \
			else \
				after=$$(ls "$$dir/testdata/fuzz/$$target" 2>/dev/null | wc -l); \
				if [ "$$after" = "$$before" ] && grep -q '^    context deadline exceeded$$' "$$log"; then \
					tail -n 3 "$$log"; echo "(flake: golang/go#75804, no failing input; not a failure)"; \
				else \
					cat "$$log"; exit 1; \
				fi; \
			fi; \
		done; \
	done; \
	if [ "$$found" = 0 ]; then echo "no Fuzz targets under core/"; fi

clean:
	rm -f $(WASM_OUT) $(WASM_OUT).gz $(WASM_OUT).gz.tmp $(WASM_OUT).br $(WASM_OUT).br.tmp $(WASM_EXEC)
	rm -rf build
