package player

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"kafkascope/core/i18n"
	"kafkascope/core/timeline"
	"kafkascope/core/urlquery"
)

// URLState is what a URL asks for.
type URLState struct {
	Embed    bool
	Panel    string // PanelMetrics (panel=metrics in the query) or ""
	Lang     i18n.Lang
	Session  string // an encoded timeline (s=...)
	Scenario string // a built-in scenario id
	// Step is the scenario step asked for, as written: it may lie before
	// the first step or past the last (OpenScenario opens the nearest,
	// and Boot says so). Numbers too large for an int saturate.
	Step int
	Sim  *SimLink // a simulator run (sim=...)
}

// linkParts are the parts of a session or scenario link (a simulator
// link's are simParts). A link's parts are case-sensitive, as URL query
// keys are and as the Worker's are: any other part, "Step" or "SIM"
// included, makes the link one that cannot be opened, as an unknown part
// of a simulator link always has.
var linkParts = map[string]bool{"lang": true, "s": true, "scenario": true, "step": true}

// unknownPart is the error for a link part the page does not know; a
// part that is a known one in other letter case says so.
func unknownPart(k, of string) error {
	hint := ""
	if l := strings.ToLower(k); l != k && (linkParts[l] || simParts[l]) {
		hint = fmt.Sprintf(" (a link's parts are lower case: %s)", l)
	}
	return fmt.Errorf("%w: unknown part %q%s%s", ErrBadLink, k, of, hint)
}

// MaxHashBytes bounds the part of a URL the app reads.
const MaxHashBytes = timeline.MaxEncodedBytes + 256

var scenarioID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// ErrBadLink is wrapped by every URL problem.
var ErrBadLink = errors.New("this link could not be opened")

// ParseURL reads the query (embed=1) and the hash (s=..., or scenario=...
// and step=..., and lang=en|ko). The input is untrusted: sizes are bounded
// and every value checked. What could be read is returned with the error.
func ParseURL(query, hash string) (URLState, error) {
	var st URLState
	if len(query) > 1024 || len(hash) > MaxHashBytes {
		return st, fmt.Errorf("%w: it is too long", ErrBadLink)
	}
	if q, err := urlquery.Parse(trimPrefix(query, "?")); err == nil {
		st.Embed = q.Get("embed") == "1"
		st.Lang = lang(q.Get("lang"))
		// Like lang, an unknown panel is the default one: the query is
		// the page's, and a host may add parts of its own.
		if q.Get("panel") == PanelMetrics {
			st.Panel = PanelMetrics
		}
	}
	h, err := urlquery.Parse(trimPrefix(hash, "#"))
	if err != nil {
		return st, fmt.Errorf("%w: its #part is malformed", ErrBadLink)
	}
	// An unknown language is reported, but the rest of the link is still
	// read: its scenario or session opens in the default language.
	var langErr error
	if l := h.Get("lang"); l != "" {
		if st.Lang = lang(l); st.Lang == "" {
			langErr = unknownLanguage{l}
		}
	}
	if !h.Has("sim") {
		for _, k := range slices.Sorted(maps.Keys(h)) { // the first unknown part by name, not by map order
			if !linkParts[k] {
				return st, unknownPart(k, "")
			}
		}
	}
	switch {
	case h.Get("s") != "" && h.Get("scenario") != "":
		return st, fmt.Errorf("%w: it names both a session and a scenario", ErrBadLink)
	case h.Has("sim") && (h.Get("s") != "" || h.Get("scenario") != ""):
		return st, fmt.Errorf("%w: it names both a simulator run and a session or scenario", ErrBadLink)
	case h.Has("sim"):
		sl, err := parseSimLink(h)
		if err != nil {
			return st, err
		}
		st.Sim = sl
	case h.Get("s") != "":
		st.Session = h.Get("s")
	case h.Get("scenario") != "":
		id := h.Get("scenario")
		if !scenarioID.MatchString(id) {
			return st, fmt.Errorf("%w: %q is not a scenario name", ErrBadLink, id)
		}
		st.Scenario = id
		if s := h.Get("step"); s != "" {
			// A whole number out of the scenario's range opens its
			// nearest step, before the first as past the last (a link
			// to a step a later edition of the scenario dropped still
			// opens); what is no number at all is refused.
			n, err := strconv.Atoi(s)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return st, fmt.Errorf("%w: step %q is not a step number", ErrBadLink, s)
			}
			st.Step = n
		}
	case h.Has("s") || h.Has("scenario"):
		return st, fmt.Errorf("%w: its s= or scenario= is empty", ErrBadLink)
	case h.Has("step"):
		return st, fmt.Errorf("%w: it names a step but no scenario", ErrBadLink)
	}
	return st, langErr
}

// unknownLanguage is a link's lang= that names no language the page
// has: the link is still opened, in the default language, and the page
// says so.
type unknownLanguage struct{ lang string }

func (e unknownLanguage) Error() string {
	return fmt.Sprintf("%v: unknown language %q", ErrBadLink, e.lang)
}
func (e unknownLanguage) Unwrap() error { return ErrBadLink }

// note is what the page says when it opens the link anyway.
func (e unknownLanguage) note() string {
	return fmt.Sprintf("The link asks for lang=%s, a language kafkascope does not have: it opened in English", e.lang)
}

func lang(s string) i18n.Lang {
	switch s {
	case "en":
		return i18n.English
	case "ko":
		return i18n.Korean
	}
	return ""
}

func trimPrefix(s, p string) string {
	if len(s) > 0 && s[:1] == p {
		return s[1:]
	}
	return s
}

// PanelMetrics is the query's panel=metrics: the dashboard beside the
// diagram (in an embed, in the story's place; its Back and Next stay).
const PanelMetrics = "metrics"

// The embed frame: as wide as the column it is pasted in, up to
// EmbedWidthMax px, and EmbedHeight px tall at every width. The embed view
// lays out from 450 px high at 480 to 960 px wide; a wide frame puts the
// story beside the diagram, a narrow one (under 600 px) under it, which
// needs this height to leave the diagram room.
const (
	EmbedWidthMax = 960
	EmbedHeight   = 600
)

// EmbedSnippet is the iframe HTML for embedding what is shown now; base is
// the page's address without query or hash, and the frame is at most
// maxWidth px wide (EmbedWidthMax, or an oEmbed consumer's maxwidth) and
// height px tall (EmbedHeight, or its maxheight). The frame's width follows
// the column with HTML and CSS alone (no script in the host page): what
// WordPress's Custom HTML block, Ghost's HTML card and a plain page keep.
// A host that drops the style attribute still gets width="100%" and the
// height.
func (p *Player) EmbedSnippet(base string, maxWidth, height int) string {
	src := base + "?embed=1"
	if p.Panel == PanelMetrics {
		src += "&panel=" + PanelMetrics
	}
	src += p.Hash()
	title := "kafkascope"
	if sc := p.Scenario(); sc != nil {
		title += ": " + sc.Title(p.Lang)
	}
	style := fmt.Sprintf("display:block;width:100%%;max-width:%dpx;height:%dpx;border:0", maxWidth, height)
	return fmt.Sprintf(`<iframe src="%s" width="100%%" height="%d" style="%s" title="%s" loading="lazy"></iframe>`,
		htmlAttr(src), height, style, htmlAttr(title))
}

func htmlAttr(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			out = append(out, "&amp;"...)
		case '"':
			out = append(out, "&quot;"...)
		case '<':
			out = append(out, "&lt;"...)
		case '>':
			out = append(out, "&gt;"...)
		default:
			out = append(out, c)
		}
	}
	return string(out)
}
