package ui

// Host is what the page offers the components: the browser in wasm/
// (through safejs), a recording double in tests. The components never touch
// JavaScript themselves, so they build and test natively.
//
// Methods are called with the event lock held (from a handler or from
// App.Frame). None may call back into the components synchronously; work
// that must wait for the DOM (focus) runs after the next render.
type Host interface {
	// Copy puts text on the clipboard. done runs later, with the event
	// lock held, reporting whether it worked.
	Copy(text string, done func(ok bool))
	// ReplaceHash sets the URL's #part without a new history entry.
	ReplaceHash(hash string)
	// PageURL is the page's address without its #part (query kept);
	// BaseURL is it without the query too (for embed snippets).
	PageURL() string
	BaseURL() string
	// SaveLang remembers the language for the next visit and marks the
	// document's language.
	SaveLang(lang string)
	// SetValue sets an input's value now (the inputs are not bound to
	// component state, so typing never fights a render).
	SetValue(id, value string)
	// Focus focuses the element with this id after the next render.
	Focus(id string)
	// ClipboardText is the text of the paste event being handled ("" if
	// there is none).
	ClipboardText() string
}

// NopHost does nothing; it stands in before a page is attached.
type NopHost struct{}

func (NopHost) Copy(_ string, done func(bool)) { done(false) }
func (NopHost) ReplaceHash(string)             {}
func (NopHost) PageURL() string                { return "" }
func (NopHost) BaseURL() string                { return "" }
func (NopHost) SaveLang(string)                {}
func (NopHost) SetValue(string, string)        {}
func (NopHost) Focus(string)                   {}
func (NopHost) ClipboardText() string          { return "" }
