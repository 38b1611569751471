package main

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"kafkascope/core/player"
)

// linkStore keeps short links: an id and the #part of the share link it
// stands for (Workers KV on the Worker, memory natively).
type linkStore interface {
	// Get answers the stored #part (without "#"), ok false if there is none.
	Get(id string) (fields string, ok bool, err error)
	Put(id, fields string) error
}

// idLen is a short link's id length: 12 base64url characters, 72 bits of
// a SHA-256 of the link (content-addressed: the same link, the same id).
const idLen = 12

// linkID is the id of a link's #part.
func linkID(fields string) string {
	sum := sha256.Sum256([]byte(fields))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:idLen]
}

// validID reports whether id could be one linkID wrote.
func validID(id string) bool {
	if len(id) != idLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// maxLinkBody bounds a POST /s body: the longest #part the page opens,
// and room for the page's address in front of it.
const maxLinkBody = player.MaxHashBytes + 2048

// shorten answers POST /s: the body is a share link (the page's whole
// address, or only its #part); it is checked as the page would read it
// (a session without its replay), stored under its id, and the short
// link answered (201, and in Location).
func (s *server) shorten(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		httpError(w, http.StatusMethodNotAllowed, "a short link is made with POST /s, the share link as the body")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxLinkBody+1))
	switch {
	case err != nil:
		httpError(w, http.StatusBadRequest, "the link could not be read: "+err.Error())
		return
	case len(body) > maxLinkBody:
		httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the link is longer than %d characters", maxLinkBody))
		return
	}
	fields := strings.TrimSpace(string(body))
	if i := strings.IndexByte(fields, '#'); i >= 0 {
		fields = fields[i+1:]
	}
	if err := checkFields(fields); err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	id, err := s.store(fields)
	switch {
	case errors.Is(err, errIDTaken):
		httpError(w, http.StatusConflict, err.Error())
		return
	case err != nil:
		httpError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	short := origin(r) + "/s/" + id
	w.Header().Set("Location", short)
	write(w, r, http.StatusCreated, "text/plain; charset=utf-8", []byte(short+"\n"))
}

// errIDTaken: another link has the id (72 bits of SHA-256 alike).
var errIDTaken = errors.New("another link has this link's short id")

// store keeps a checked #part under its id and answers the id. Storing a
// link again changes nothing.
func (s *server) store(fields string) (string, error) {
	id := linkID(fields)
	had, ok, err := s.links.Get(id)
	switch {
	case err != nil:
		return "", fmt.Errorf("the short links cannot be read now: %w", err)
	case ok && had != fields:
		return "", errIDTaken // refuse rather than answer the other link
	case !ok:
		if err := s.links.Put(id, fields); err != nil {
			return "", fmt.Errorf("the short link cannot be stored now: %w", err)
		}
	}
	return id, nil
}

// checkFields checks a share link's #part as the page reads it: its
// fields (player.ParseURL) and, for a session, its data with its limits
// (timeline.Commands), but not its replay. Describing a link (metaOf)
// reads it so.
func checkFields(fields string) error {
	_, err := metaOf(fields)
	return err
}

var errNoFields = errors.New("give a share link's fields: scenario=ID&step=N, or s=SESSION (lang=en or ko), or id=SHORT-ID")

// errNoLink: a short id that names no stored link.
var errNoLink = errors.New("no such short link")

// failLink answers a link that could not be read, if err says so: 404
// for one this site does not know (no such short link, a bad or empty
// link), 503 for short links that could not be read. It reports whether
// it answered.
func failLink(w http.ResponseWriter, err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, errNoLink) || errors.Is(err, errNotOurs) || errors.Is(err, player.ErrBadLink) || errors.Is(err, errNoFields):
		httpError(w, http.StatusNotFound, err.Error())
	default:
		httpError(w, http.StatusServiceUnavailable, err.Error())
	}
	return true
}

// resolve answers the #part a short id stands for.
func (s *server) resolve(id string) (string, error) {
	if !validID(id) {
		return "", fmt.Errorf("%w: %q is not a short link's id", errNoLink, id)
	}
	fields, ok, err := s.links.Get(id)
	switch {
	case err != nil:
		return "", err
	case !ok:
		return "", fmt.Errorf("%w: /s/%s", errNoLink, id)
	}
	return fields, nil
}

// errNotOurs: a link this site does not serve (oEmbed answers 404 for
// it, as the spec asks).
var errNotOurs = errors.New("not a kafkascope link of this site")

// fieldsOfURL answers the #part that a link to this site stands for: a
// short link (/s/ID) or the page's address with its #part (unchecked:
// metaOf reads it next).
func (s *server) fieldsOfURL(r *http.Request, link string) (fields, short string, err error) {
	u, err := url.Parse(link)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", "", fmt.Errorf("%w: %q is not a web address", errNotOurs, link)
	}
	here, _ := url.Parse(origin(r))
	if !strings.EqualFold(u.Host, here.Host) {
		return "", "", fmt.Errorf("%w (%s): it is on %s", errNotOurs, here.Host, u.Host)
	}
	if id, ok := strings.CutPrefix(u.Path, "/s/"); ok {
		fields, err := s.resolve(id)
		return fields, id, err
	}
	if (u.Path == "" || u.Path == "/" || u.Path == "/index.html") && u.Fragment != "" {
		return u.EscapedFragment(), "", nil // read by metaOf, as a short link's
	}
	return "", "", fmt.Errorf("%w: %s is not a share link (the page's address with its #part, or /s/ID)", errNotOurs, link)
}
