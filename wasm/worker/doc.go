// Command worker is kafkascope on the web's edge: a Cloudflare Worker in
// Go (github.com/syumai/workers, GOOS=js GOARCH=wasm) that runs the same
// engine as the page and answers what a static host cannot. The site's
// static files (make dist) are served by the platform before the Worker
// runs; the Worker answers:
//
//   - GET /snapshot.svg?<a share link's fields> (scenario=04-isr&step=3&lang=ko,
//     s=<session>, sim=<seed>…), or ?id=<short id>: the page's diagram at
//     that moment, as an SVG image (ui/snapshot), for a README's <img> or a
//     blog without scripts.
//   - POST /s (the body: a share link) answers a short link, /s/ID, kept in
//     Workers KV under a hash of the link; GET /s/ID is the app's page with
//     the link's title, description and picture in its head (Open Graph,
//     Twitter cards, oEmbed discovery), and moves to the full link.
//   - GET /oembed?url=<a share link>&format=json: an oEmbed "rich" answer,
//     the embed's iframe with the snapshot as its thumbnail.
//
// What costs a replay is kept in the data center's cache (the Cache API)
// by its URL: the engine is deterministic, so a URL always draws the same.
// Bad links answer 4xx with a one-line "kafkascope: " reason.
//
// Off the Worker (natively), workers.Serve falls back to net/http on
// $PORT (9900), reading the site from $KAFKASCOPE_SITE or the current
// directory, with short links and the cache in memory: the handler is the
// same, and its tests run without wrangler.
package main
