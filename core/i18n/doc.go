// Package i18n names the languages the product speaks, English and
// Korean, for everything that writes text for a person: the UI's words
// (core/player), the event feed's sentences (core/feed), the scenarios'
// narration and the Worker's link previews. Nothing here is Kafka's: a
// tool's output is Kafka's own, in English, whatever the language.
package i18n
