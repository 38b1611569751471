package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// compact rewrites the statements vugugen writes for every static text
// node, every element whose attributes are all static, every event
// handler, and every dynamic attribute and content, into calls of small
// helpers in the package (ui/vgbuild.go):
//
//	vgn = &vugu.VGNode{Type: vugu.VGNodeType(1), Data: "\n  "}
//	vgparent.AppendChild(vgn)
//
// becomes vgn = vgText(vgparent, "\n  ");
//
//	vgn = &vugu.VGNode{Type: vugu.VGNodeType(3), Namespace: "", Data: "div", Attr: []vugu.VGAttribute{{Namespace: "", Key: "class", Val: "kd-bar"}}}
//	vgparent.AppendChild(vgn)
//
// becomes vgn = vgElem(vgparent, "", "div", "class\x00kd-bar") (the
// attributes' keys and values joined by NUL bytes, which no template's
// attribute holds); a text node directly before such an element (mostly
// the template's indentation) and the element become one call,
// vgn = vgElemAfter(vgparent, "\n  ", "", "div", "class\x00kd-bar"); and
//
//	vgn.DOMEventHandlerSpecList = append(vgn.DOMEventHandlerSpecList, vugu.DOMEventHandlerSpec{
//		EventType: "click",
//		Func:      func(event vugu.DOMEvent) { c.act() },
//	})
//
// becomes vgOn(vgn, "click", func(event vugu.DOMEvent) { c.act() }); and
// vgn.AddAttrInterface("title", c.tip()) and vgn.SetInnerHTML(c.label())
// become vgAddAttr(vgn, "title", c.tip()) and vgSetHTML(vgn, c.label()).
//
// Why: in wasm each composite literal compiles to an allocation and one
// store per field, and each call to a resumable call site, at every node
// of every template: the page's Build methods were 417 KB of main.wasm's
// code (41 KB of brotli). The helpers build the same nodes, in the same
// order, with the same fields; after each rewritten statement vgn holds
// the node it held before, the last one built.
//
// Statements of any other shape are left as they are: a node with an
// attribute in a namespace, or a NUL byte in an attribute, keeps its
// literal. The rest of the file is kept byte for byte.
func compact(name string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution|parser.ParseComments)
	if err != nil {
		return nil, err
	}
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	ast.Inspect(f, func(n ast.Node) bool {
		block, ok := n.(*ast.BlockStmt)
		if !ok {
			return true
		}
		for i := 0; i < len(block.List); i++ {
			stmt := block.List[i]
			if helper, ok := valueCall(stmt); ok {
				// Only the callee changes: vgn.SetInnerHTML(v) becomes vgSetHTML(vgn, v).
				call := stmt.(*ast.ExprStmt).X.(*ast.CallExpr)
				edits = append(edits, edit{fset.Position(call.Fun.Pos()).Offset, fset.Position(call.Lparen).Offset + 1, helper + "(vgn, "})
				continue
			}
			if call, ok := handlerCall(stmt, src, fset); ok {
				edits = append(edits, edit{fset.Position(stmt.Pos()).Offset, fset.Position(stmt.End()).Offset, call})
				continue
			}
			if i+1 == len(block.List) || !isAppendChild(block.List[i+1]) {
				continue
			}
			helper, args, ok := nodeCall(stmt)
			if !ok {
				continue
			}
			last := i + 1 // the node's AppendChild
			if helper == "vgText" && i+3 < len(block.List) && isAppendChild(block.List[i+3]) {
				if next, nextArgs, ok := nodeCall(block.List[i+2]); ok && next == "vgElem" {
					// A text node (mostly indentation) then an element: one call.
					helper, args, last = "vgElemAfter", args+", "+nextArgs, i+3
				}
			}
			call := "vgn = " + helper + "(vgparent, " + args + ")"
			edits = append(edits, edit{fset.Position(stmt.Pos()).Offset, fset.Position(block.List[last].End()).Offset, call})
			i = last
		}
		return true
	})
	if len(edits) == 0 {
		return src, nil
	}
	slices.SortFunc(edits, func(a, b edit) int { return a.from - b.from })
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		if e.from < at {
			return nil, fmt.Errorf("%s: overlapping rewrites at byte %d", name, e.from)
		}
		out.Write(src[at:e.from])
		out.WriteString(e.text)
		at = e.to
	}
	out.Write(src[at:])
	return out.Bytes(), nil
}

// isAppendChild reports the statement vgparent.AppendChild(vgn).
func isAppendChild(stmt ast.Stmt) bool {
	es, ok := stmt.(*ast.ExprStmt)
	if !ok {
		return false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !isIdent(call.Args[0], "vgn") {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, "vgparent") && sel.Sel.Name == "AppendChild"
}

// nodeCall returns the helper, vgText or vgElem, and its arguments after
// the parent, that build what the statement vgn = &vugu.VGNode{...}
// builds, if its fields are all literals.
func nodeCall(stmt ast.Stmt) (helper, args string, ok bool) {
	lit, ok := assignedTo(stmt, "vgn")
	if !ok {
		return "", "", false
	}
	ul, ok := lit.(*ast.UnaryExpr)
	if !ok || ul.Op != token.AND {
		return "", "", false
	}
	node, ok := ul.X.(*ast.CompositeLit)
	if !ok || !isSelector(node.Type, "vugu", "VGNode") {
		return "", "", false
	}
	fields := map[string]ast.Expr{}
	for _, elt := range node.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return "", "", false
		}
		key, ok := kv.Key.(*ast.Ident)
		if !ok {
			return "", "", false
		}
		fields[key.Name] = kv.Value
	}
	typ, ok := nodeType(fields["Type"])
	if !ok {
		return "", "", false
	}
	data, ok := stringLit(fields["Data"])
	if !ok {
		return "", "", false
	}
	switch {
	case typ == 1 && len(fields) == 2: // a text node
		return "vgText", strconv.Quote(data), true
	case typ == 3 && len(fields) == 4:
		ns, ok := stringLit(fields["Namespace"])
		if !ok {
			return "", "", false
		}
		attrs, ok := attrList(fields["Attr"])
		if !ok {
			return "", "", false
		}
		return "vgElem", strconv.Quote(ns) + ", " + strconv.Quote(data) + ", " + strconv.Quote(attrs), true
	}
	return "", "", false
}

// nodeType reads vugu.VGNodeType(N).
func nodeType(e ast.Expr) (int, bool) {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 || !isSelector(call.Fun, "vugu", "VGNodeType") {
		return 0, false
	}
	lit, ok := call.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.INT {
		return 0, false
	}
	n, err := strconv.Atoi(lit.Value)
	return n, err == nil
}

// attrList reads []vugu.VGAttribute(nil) (no attributes: "") or a slice
// literal of attributes without a namespace, joined as vgElem takes them.
func attrList(e ast.Expr) (string, bool) {
	if conv, ok := e.(*ast.CallExpr); ok {
		if len(conv.Args) == 1 && isIdent(conv.Args[0], "nil") && isAttrSlice(conv.Fun) {
			return "", true
		}
		return "", false
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok || !isAttrSlice(lit.Type) || len(lit.Elts) == 0 {
		return "", false
	}
	var parts []string
	for _, elt := range lit.Elts {
		a, ok := elt.(*ast.CompositeLit)
		if !ok || (a.Type != nil && !isSelector(a.Type, "vugu", "VGAttribute")) || len(a.Elts) != 3 {
			return "", false
		}
		var ns, key, val string
		for i, field := range []*string{&ns, &key, &val} {
			kv, ok := a.Elts[i].(*ast.KeyValueExpr)
			if !ok || !isIdent(kv.Key, [...]string{"Namespace", "Key", "Val"}[i]) {
				return "", false
			}
			if *field, ok = stringLit(kv.Value); !ok {
				return "", false
			}
		}
		if ns != "" || strings.Contains(key+val, "\x00") {
			return "", false
		}
		parts = append(parts, key, val)
	}
	return strings.Join(parts, "\x00"), true
}

// handlerCall returns vgOn(vgn, EVENT, FUNC) for the statement
// vgn.DOMEventHandlerSpecList = append(vgn.DOMEventHandlerSpecList,
// vugu.DOMEventHandlerSpec{EventType: EVENT, Func: FUNC}), FUNC's text
// as it is in src.
func handlerCall(stmt ast.Stmt, src []byte, fset *token.FileSet) (string, bool) {
	as, ok := stmt.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isHandlerList(as.Lhs[0]) {
		return "", false
	}
	call, ok := as.Rhs[0].(*ast.CallExpr)
	if !ok || !isIdent(call.Fun, "append") || len(call.Args) != 2 || call.Ellipsis.IsValid() || !isHandlerList(call.Args[0]) {
		return "", false
	}
	spec, ok := call.Args[1].(*ast.CompositeLit)
	if !ok || !isSelector(spec.Type, "vugu", "DOMEventHandlerSpec") || len(spec.Elts) != 2 {
		return "", false
	}
	var event string
	var fn ast.Expr
	for _, elt := range spec.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return "", false
		}
		switch {
		case isIdent(kv.Key, "EventType"):
			if event, ok = stringLit(kv.Value); !ok {
				return "", false
			}
		case isIdent(kv.Key, "Func"):
			fn = kv.Value
		default:
			return "", false
		}
	}
	if event == "" || fn == nil {
		return "", false
	}
	fnText := src[fset.Position(fn.Pos()).Offset:fset.Position(fn.End()).Offset]
	return "vgOn(vgn, " + strconv.Quote(event) + ", " + string(fnText) + ")", true
}

// valueHelpers are the generic helpers that take the place of the
// methods vugugen calls with a value of any type, converted to an
// interface at every call (a runtime call each, in wasm): the helpers
// convert it inside, once for each type.
var valueHelpers = map[string]struct {
	helper string
	args   int
}{
	"AddAttrInterface": {"vgAddAttr", 2},
	"SetInnerHTML":     {"vgSetHTML", 1},
}

// valueCall returns the helper that takes the place of the statement
// vgn.AddAttrInterface(key, v) or vgn.SetInnerHTML(v). An untyped nil
// argument (which a generic helper could not take) keeps the method.
func valueCall(stmt ast.Stmt) (string, bool) {
	es, ok := stmt.(*ast.ExprStmt)
	if !ok {
		return "", false
	}
	call, ok := es.X.(*ast.CallExpr)
	if !ok || call.Ellipsis.IsValid() {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || !isIdent(sel.X, "vgn") {
		return "", false
	}
	h, ok := valueHelpers[sel.Sel.Name]
	if !ok || len(call.Args) != h.args || isIdent(call.Args[h.args-1], "nil") {
		return "", false
	}
	return h.helper, true
}

// isHandlerList reports vgn.DOMEventHandlerSpecList.
func isHandlerList(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, "vgn") && sel.Sel.Name == "DOMEventHandlerSpecList"
}

// assignedTo returns X of the statement name = X.
func assignedTo(stmt ast.Stmt, name string) (ast.Expr, bool) {
	as, ok := stmt.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !isIdent(as.Lhs[0], name) {
		return nil, false
	}
	return as.Rhs[0], true
}

func isAttrSlice(e ast.Expr) bool {
	at, ok := e.(*ast.ArrayType)
	return ok && at.Len == nil && isSelector(at.Elt, "vugu", "VGAttribute")
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

func isSelector(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, pkg) && sel.Sel.Name == name
}

// stringLit reads a string literal's value.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}
