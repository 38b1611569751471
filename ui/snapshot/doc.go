// Package snapshot draws the page's cluster diagram at one moment as a
// standalone SVG image: a README's <img>, a link preview, the Worker's
// /snapshot.svg. It is not drawn a second time: ui.Diagram builds exactly
// what the page shows, and its two SVG drawings, the brokers with their
// links and the partitions' lanes, are written out as XML one under the
// other, styled by the page's own diagram.css.
//
// Not in the image (they are HTML in the page, not SVG): the diagram's
// title bar and legend, and the producer and consumer group cards beside
// the brokers.
//
// With Options.Dashboard (a link's panel=metrics) the on-call dashboard
// goes under the diagram: the page's Metrics panel, built as the page
// builds it, its rows' titles and values written as SVG text beside the
// panel's own plot paths (dashboard.go). Its few rules are the
// snapshot's own: the page's plot rules use color-mix() and
// vector-effect, which a standalone image and package raster lack.
//
// The drawings are written straight from the build's nodes, without
// vugu's static renderer and an HTML parser, and from a package of their
// own: the page (package ui's importers) links none of it, and its
// main.wasm has no bytes to spare.
package snapshot
