module kafkascope

go 1.26.0

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/hack-pad/safejs v0.1.0
	github.com/srwiley/rasterx v0.0.0-20220730225603-2ab79fcdd4ef
	github.com/syumai/workers v0.32.0
	github.com/tdewolff/minify/v2 v2.25.0
	github.com/twmb/franz-go/pkg/kmsg v1.15.0
	github.com/vugu/html v0.0.0-20190914200101-c62dc20b8289
	github.com/vugu/vugu v0.4.0
	golang.org/x/image v0.48.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/tdewolff/parse/v2 v2.25.0 // indirect
	github.com/vugu/xxhash v0.0.0-20191111030615-ed24d0179019 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.44.0 // indirect
)

tool github.com/vugu/vugu/cmd/vugugen
