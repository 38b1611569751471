//go:build js && wasm

package main

import (
	"fmt"
	"os"

	"github.com/hack-pad/safejs"
	"github.com/vugu/vugu"
)

// langKey is where the language choice is kept between visits.
const langKey = "kafkascope.lang"

// host is ui.Host in the browser, through safejs: every JavaScript error
// comes back as an error (logged), never as a panic.
type host struct {
	ee      vugu.EventEnv
	focusID []string // focused after the next render
	// onPanic reports a panic in a callback (the app shows it).
	onPanic func(doing string, r any)
}

func newHost(ee vugu.EventEnv) *host { return &host{ee: ee} }

func logErr(doing string, err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "kafkascope: %s: %v\n", doing, err)
	}
}

// Copy tries the asynchronous clipboard API, then the old execCommand
// route; done runs from a goroutine with the event lock held.
func (h *host) Copy(text string, done func(ok bool)) {
	finish := func(ok bool) {
		go func() {
			h.ee.Lock()
			defer h.ee.UnlockRender()
			defer func() {
				if r := recover(); r != nil && h.onPanic != nil {
					h.onPanic("copying", r)
				}
			}()
			done(ok)
		}()
	}
	promise, err := clipboardWrite(text)
	if err != nil {
		finish(execCopy(text))
		return
	}
	var onOK, onFail safejs.Func
	release := func() {
		onOK.Release()
		onFail.Release()
	}
	onOK, err = safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		release()
		finish(true)
		return nil
	})
	if err != nil {
		finish(execCopy(text))
		return
	}
	onFail, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		release()
		if len(args) > 0 {
			if s, err := args[0].Call("toString"); err == nil {
				msg, _ := s.String()
				fmt.Fprintln(os.Stderr, "kafkascope: the clipboard refused:", msg)
			}
		}
		finish(execCopy(text))
		return nil
	})
	if err != nil {
		onOK.Release()
		finish(execCopy(text))
		return
	}
	if _, err := promise.Call("then", onOK, onFail); err != nil {
		release()
		finish(execCopy(text))
	}
}

// clipboardWrite starts navigator.clipboard.writeText(text), or the
// page's kafkascopeCopy(text) where the page has one: the Worker's copy of
// the page copies a short link in place of a link to itself
// (scripts/workersite).
func clipboardWrite(text string) (safejs.Value, error) {
	nav, err := safejs.Global().Get("navigator")
	if err != nil {
		return safejs.Undefined(), err
	}
	cb, err := nav.Get("clipboard")
	if err != nil || cb.IsUndefined() || cb.IsNull() {
		return safejs.Undefined(), fmt.Errorf("no navigator.clipboard (%v)", err)
	}
	if f, err := safejs.Global().Get("kafkascopeCopy"); err == nil && f.Type() == safejs.TypeFunction {
		return f.Invoke(text)
	}
	return cb.Call("writeText", text)
}

// execCopy copies through a hidden textarea and document.execCommand.
func execCopy(text string) bool {
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return false
	}
	ta, err := doc.Call("createElement", "textarea")
	if err != nil {
		return false
	}
	body, err := doc.Get("body")
	if err != nil {
		return false
	}
	_ = ta.Set("value", text)
	_, _ = ta.Call("setAttribute", "readonly", "")
	_, _ = ta.Call("setAttribute", "style", "position:fixed;top:-1000px;opacity:0")
	if _, err := body.Call("appendChild", ta); err != nil {
		return false
	}
	defer func() { _, _ = ta.Call("remove") }()
	_, _ = ta.Call("select")
	ok, err := doc.Call("execCommand", "copy")
	if err != nil {
		return false
	}
	b, _ := ok.Bool()
	return b
}

func (h *host) ReplaceHash(hash string) {
	hist, err := safejs.Global().Get("history")
	if err == nil {
		_, err = hist.Call("replaceState", safejs.Null(), "", hash)
	}
	logErr("writing the URL", err)
}

// href is location.href without its #part.
func href() string {
	loc, err := safejs.Global().Get("location")
	if err != nil {
		return ""
	}
	v, err := loc.Get("href")
	if err != nil {
		return ""
	}
	s, _ := v.String()
	for i := 0; i < len(s); i++ {
		if s[i] == '#' {
			return s[:i]
		}
	}
	return s
}

func (h *host) PageURL() string { return href() }

func (h *host) BaseURL() string {
	s := href()
	for i := 0; i < len(s); i++ {
		if s[i] == '?' {
			return s[:i]
		}
	}
	return s
}

func (h *host) SaveLang(lang string) {
	setDocumentLang(lang)
	storage, err := safejs.Global().Get("localStorage") // throws in some sandboxed iframes
	if err == nil && !storage.IsNull() && !storage.IsUndefined() {
		_, err = storage.Call("setItem", langKey, lang)
	}
	logErr("remembering the language", err)
}

// savedLang is the language chosen on an earlier visit ("" if none).
func savedLang() string {
	storage, err := safejs.Global().Get("localStorage")
	if err != nil || storage.IsNull() || storage.IsUndefined() {
		return ""
	}
	v, err := storage.Call("getItem", langKey)
	if err != nil || v.IsNull() {
		return ""
	}
	s, _ := v.String()
	return s
}

func setDocumentLang(lang string) {
	doc, err := safejs.Global().Get("document")
	if err == nil {
		var root safejs.Value
		if root, err = doc.Get("documentElement"); err == nil {
			err = root.Set("lang", lang)
		}
	}
	logErr("marking the document language", err)
}

func (h *host) SetValue(id, value string) {
	el, err := byID(id)
	if err == nil {
		err = el.Set("value", value)
	}
	logErr("setting #"+id, err)
}

func (h *host) Focus(id string) { h.focusID = append(h.focusID, id) }

// afterRender runs what had to wait for the DOM: focus (and selecting the
// text of a textarea, for copying by hand).
func (h *host) afterRender() {
	ids := h.focusID
	h.focusID = nil
	for _, id := range ids {
		el, err := byID(id)
		if err != nil {
			continue // gone again: nothing to focus
		}
		_, err = el.Call("focus")
		if tag, terr := el.Get("tagName"); err == nil && terr == nil {
			if s, _ := tag.String(); s == "TEXTAREA" {
				_, err = el.Call("select")
			}
		}
		logErr("focusing #"+id, err)
	}
}

func (h *host) ClipboardText() string {
	ev, err := safejs.Global().Call("vuguGetActiveEvent")
	if err != nil || ev.IsNull() || ev.IsUndefined() {
		return ""
	}
	data, err := ev.Get("clipboardData")
	if err != nil || data.IsNull() || data.IsUndefined() {
		return ""
	}
	v, err := data.Call("getData", "text")
	if err != nil {
		return ""
	}
	s, _ := v.String()
	return s
}

// byID returns the element with the id, or an error naming it.
func byID(id string) (safejs.Value, error) {
	doc, err := safejs.Global().Get("document")
	if err != nil {
		return safejs.Undefined(), err
	}
	el, err := doc.Call("getElementById", id)
	if err != nil {
		return safejs.Undefined(), fmt.Errorf("finding #%s: %w", id, err)
	}
	if el.IsNull() || el.IsUndefined() {
		return safejs.Undefined(), fmt.Errorf("the page has no #%s element", id)
	}
	return el, nil
}
