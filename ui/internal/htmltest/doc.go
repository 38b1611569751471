// Package htmltest renders Vugu components as the page's tests read them:
// through Vugu's static renderer to HTML, parsed back into a tree. The ui
// package's tests and ui/snapshot's (which compares its pictures with the
// page's diagram) share it.
package htmltest
