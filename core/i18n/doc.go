// Package i18n holds the languages the product speaks, English and Korean,
// and the page's own words in both (ui.go: every label, tooltip and
// message of the UI, under a key). The event feed's sentences (core/feed),
// the scenarios' narration and the Worker's link previews are written in
// the same two languages where they are made. Nothing here is Kafka's: a
// tool's output is Kafka's own, in English, whatever the language.
package i18n
