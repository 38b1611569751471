// Package raster draws a snapshot (the SVG that package snapshot writes)
// as pixels, for the places that take no SVG: the Worker's
// /snapshot.png, which chat apps (Slack, Discord, KakaoTalk) and social
// sites show as a link's preview image.
//
// It is not a second drawing of the cluster: it reads the same SVG and
// the same stylesheet (the page's diagram.css) that a browser reads, and
// does what a browser does with them, for the part of SVG and CSS the
// snapshot uses:
//
//   - svg.go reads the document into a tree of elements;
//   - css.go and selector.go read the stylesheet and match its
//     selectors (classes, types, attributes, the four combinators, :is,
//     :not, :root, :nth-child; :hover and the like match nothing, as in
//     a picture nobody points at);
//   - style.go runs the cascade: specificity, order, !important,
//     presentation attributes, inheritance and var();
//   - paint.go fills and strokes rects, circles, lines and paths
//     (golang.org/x/image/vector through github.com/srwiley/rasterx),
//     with opacity, dashes and group layers;
//   - text.go lays out and draws text with fonts embedded here: Go Mono
//     for the monospaced labels and a subset of Noto Sans KR for the rest
//     and for Korean (fonts/README.md); decoration.go strikes it through
//     (a killed broker's title).
//
// Where it differs from a browser, on purpose: the fonts are these and
// not the reader's (a browser picks system-ui), text has pair kerning
// only from the fonts' kern tables, italics are drawn upright, and CSS
// animations are drawn at rest. A snapshot is drawn light, as the SVG's
// own rules say when no page sets a dark theme around it.
//
// Invariant: the same SVG bytes and scale give the same pixels (no maps
// are iterated, no clock is read).
package raster
