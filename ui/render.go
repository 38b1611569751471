package ui

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vugu/vugu"
)

// Prepare readies a build for the DOM renderer; the render loop calls it
// between RunBuild and Render, for every component's output.
//
//   - Every event handler is wrapped so that a panic in it (in any component,
//     the diagram's included) is recovered and handed to onPanic instead of
//     killing the Go program: Vugu calls handlers from a JavaScript callback
//     with its event lock held, and a panic there leaves a dead page.
//   - An element with no children gets an empty innerHTML. Vugu v0.4.0
//     syncs an element's children only when it has some, so a list that
//     becomes empty (a cleared terminal, a new session's markers) would
//     keep its old children on the page.
//   - Text set with vg-content (a string, which Vugu HTML-escapes into
//     innerHTML) becomes a text node: the renderer (ui/patch) rewrites a
//     text node only when its text changed, where innerHTML would be
//     re-parsed, dropping the user's text selection in the terminal.
//   - A text longer than MaxRenderString becomes several adjacent text
//     nodes (the page shows the same text), and an attribute that long is
//     left out (onPanic hears of it). Vugu's own DOM renderer sent each
//     string in one instruction of its 16 KiB buffer, and a longer one
//     froze the page; the page's renderer has no such limit, but a page
//     built for either stays within it.
//
// onPanic runs with the event lock held, like the handler did.
func Prepare(br *vugu.BuildResults, onPanic func(event string, r any)) {
	eachOut(br, func(n *vugu.VGNode) { prepareNode(n, onPanic) })
}

// Preparer prepares builds (see Prepare) one after another, skipping a
// component output it prepared in the previous build: a component that
// handed back the same *vugu.BuildOut (TermChunk, for one) holds nodes
// prepared already, and preparing them again would wrap their handlers
// once more.
type Preparer struct {
	done map[*vugu.BuildOut]bool
}

// Prepare is Prepare for the next build.
func (p *Preparer) Prepare(br *vugu.BuildResults, onPanic func(event string, r any)) {
	if br == nil || br.Out == nil {
		return
	}
	next := make(map[*vugu.BuildOut]bool, len(p.done))
	var visit func(bo *vugu.BuildOut)
	visit = func(bo *vugu.BuildOut) {
		if bo == nil || next[bo] {
			return
		}
		next[bo] = true
		if !p.done[bo] {
			for _, n := range bo.Out {
				prepareNode(n, onPanic)
			}
		}
		for _, c := range bo.Components {
			visit(br.ResultFor(c))
		}
	}
	visit(br.Out)
	p.done = next
}

// eachOut calls fn on every top-level node of a build's output, each
// component's output once.
func eachOut(br *vugu.BuildResults, fn func(n *vugu.VGNode)) {
	if br == nil || br.Out == nil {
		return
	}
	seen := map[*vugu.BuildOut]bool{}
	var visitOut func(bo *vugu.BuildOut)
	visitOut = func(bo *vugu.BuildOut) {
		if bo == nil || seen[bo] {
			return
		}
		seen[bo] = true
		for _, n := range bo.Out {
			fn(n)
		}
		for _, c := range bo.Components {
			visitOut(br.ResultFor(c))
		}
	}
	visitOut(br.Out)
}

// MaxRenderString bounds the strings a render sends to the page in one
// piece (text nodes, attribute values): half of domrender's 16 KiB
// instruction buffer, for the instruction's own bytes.
const MaxRenderString = 8 << 10

func prepareNode(n *vugu.VGNode, onPanic func(string, any)) {
	for ; n != nil; n = n.NextSibling {
		if n.Type == vugu.TextNode && len(n.Data) > MaxRenderString {
			splitText(n)
		}
		dropLongAttrs(n, onPanic)
		for i := range n.DOMEventHandlerSpecList {
			spec := &n.DOMEventHandlerSpecList[i]
			if spec.Func != nil {
				spec.Func = guardHandler(spec.EventType, spec.Func, onPanic)
			}
		}
		if n.InnerHTML != nil && n.FirstChild == nil && !strings.ContainsRune(*n.InnerHTML, '<') {
			// Escaped text (vg-content of a string, or static text): no
			// markup to keep.
			if text, ok := unescapeText(*n.InnerHTML); ok {
				n.InnerHTML = nil
				if text != "" {
					n.AppendChild(&vugu.VGNode{Type: vugu.TextNode, Data: text}) // split below if long
				}
			}
		}
		if n.FirstChild != nil {
			prepareNode(n.FirstChild, onPanic)
		} else if n.Type == vugu.ElementNode && n.InnerHTML == nil && n.Component == nil && !voidElements[strings.ToLower(n.Data)] {
			empty := ""
			n.InnerHTML = &empty
		}
	}
}

// splitText cuts a long text node into adjacent ones of at most
// MaxRenderString bytes, each ending on a whole UTF-8 character.
func splitText(n *vugu.VGNode) {
	rest := n.Data
	for cur := n; ; {
		cut := min(len(rest), MaxRenderString)
		for cut < len(rest) && cut > 0 && !utf8.RuneStart(rest[cut]) {
			cut--
		}
		cur.Data, rest = rest[:cut], rest[cut:]
		if rest == "" {
			return
		}
		next := &vugu.VGNode{Type: vugu.TextNode, Parent: cur.Parent, PrevSibling: cur, NextSibling: cur.NextSibling}
		if cur.NextSibling != nil {
			cur.NextSibling.PrevSibling = next
		} else if cur.Parent != nil {
			cur.Parent.LastChild = next
		}
		cur.NextSibling = next
		cur = next
	}
}

// dropLongAttrs leaves out attribute values no render could carry.
func dropLongAttrs(n *vugu.VGNode, onPanic func(string, any)) {
	kept := n.Attr[:0]
	for _, a := range n.Attr {
		if len(a.Val) > MaxRenderString {
			if onPanic != nil {
				onPanic("render", fmt.Sprintf("<%s %s> left out: its value has %d bytes, more than a render can carry", n.Data, a.Key, len(a.Val)))
			}
			continue
		}
		kept = append(kept, a)
	}
	n.Attr = kept
}

func guardHandler(event string, f func(vugu.DOMEvent), onPanic func(string, any)) func(vugu.DOMEvent) {
	return func(e vugu.DOMEvent) {
		defer func() {
			if r := recover(); r != nil && onPanic != nil {
				onPanic(event, r)
			}
		}()
		f(e)
	}
}

// voidElements have no children in HTML (setting their innerHTML is
// pointless).
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
}
