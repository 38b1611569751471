// Package ui will hold kafkascope's Vugu components (.vugu files and their
// paired .go files): the cluster diagram, the terminal, the story panel, the
// timeline and the segment and consumer-group panels.
//
// Every component is a view of core/cluster state and forwards user actions
// (a click on a broker, a typed command) to core/cluster. Components never
// hold simulation logic and never decide what the cluster does; they only
// draw what the engine's real state is.
package ui
