package raster

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// element is one SVG element of the document.
type element struct {
	tag      string
	attrs    []xml.Attr
	classes  []string
	text     string // a <text>'s or <style>'s character data
	parent   *element
	children []*element
	position int // among its parent's children, from 1 (:nth-child)

	style *style // its computed style (style.go)
}

// attr is the element's attribute name, or "".
func (e *element) attr(name string) string {
	v, _ := e.lookup(name)
	return v
}

// lookup is the element's attribute name and whether it has one.
func (e *element) lookup(name string) (string, bool) {
	for _, a := range e.attrs {
		if a.Name.Local == name && (a.Name.Space == "" || a.Name.Space == "xmlns") {
			return a.Value, true
		}
	}
	return "", false
}

// hasClass tells whether class is one of the element's classes.
func (e *element) hasClass(class string) bool {
	for _, c := range e.classes {
		if c == class {
			return true
		}
	}
	return false
}

// maxDepth bounds how deep elements nest: a snapshot nests a dozen.
const maxDepth = 64

// parseSVG reads an SVG document into its root element.
func parseSVG(doc []byte) (*element, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	var root, open *element
	depth := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("raster: the SVG is not well-formed: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxDepth {
				return nil, fmt.Errorf("raster: elements nest deeper than %d", maxDepth)
			}
			e := &element{tag: t.Name.Local, attrs: t.Attr, parent: open}
			e.classes = strings.Fields(e.attr("class"))
			if open == nil {
				if root != nil {
					return nil, errors.New("raster: the SVG has two root elements")
				}
				root = e
			} else {
				open.children = append(open.children, e)
				e.position = len(open.children)
			}
			open = e
		case xml.EndElement:
			depth--
			open = open.parent
		case xml.CharData:
			if open != nil {
				open.text += string(t)
			}
		}
	}
	if root == nil || root.tag != "svg" {
		return nil, errors.New("raster: the document is not an <svg>")
	}
	return root, nil
}
