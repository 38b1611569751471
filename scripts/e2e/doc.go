// Package e2e holds kafkascope's end-to-end browser tests. They build the wasm
// engine, serve the page from a local test server and drive headless Chromium
// (/usr/bin/chromium) through the Chrome DevTools Protocol with chromedp, as a
// user would: type commands into the terminal and read what it prints.
//
// Without Chromium the tests skip, except in CI (CI=true) or with
// KAFKASCOPE_E2E=1, where a missing browser is a failure. The package has no
// non-test code beyond this comment.
package e2e
