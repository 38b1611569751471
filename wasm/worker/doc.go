// Command worker is kafkascope on the web's edge: a Cloudflare Worker in
// Go (github.com/syumai/workers, GOOS=js GOARCH=wasm) that runs the same
// engine as the page and answers what a static host cannot:
//
//   - GET /snapshot.svg?<a share link's fields> (scenario=04-isr&step=3&lang=ko,
//     or s=<session>): the page's diagram at that moment, as an SVG image
//     (ui/snapshot), for a README's <img> or a blog without scripts.
//
// Off the Worker (natively), workers.Serve falls back to net/http on
// $PORT (9900), reading the page's files from ./public: the handler is
// the same, and its tests run without wrangler.
package main
