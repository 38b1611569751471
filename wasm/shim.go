//go:build js && wasm

package main

// rendererShim makes Vugu's DOM sync leave unchanged nodes alone. Vugu
// v0.4.0 re-sends the whole tree on every render and assigns every text
// node's textContent and every attribute, changed or not; a render happens
// on every animation frame while the cluster plays. Rewriting a text node
// collapses a text selection inside it (the user could not select terminal
// output to copy it) and every write invalidates style. With the shim a
// write that changes nothing is skipped; any write that changes something
// behaves exactly as before.
const rendererShim = `(function () {
  "use strict";
  if (window.__kafkascopeShim) return;
  window.__kafkascopeShim = true;
  var text = Object.getOwnPropertyDescriptor(Node.prototype, "textContent");
  Object.defineProperty(Text.prototype, "textContent", {
    configurable: true,
    enumerable: text.enumerable,
    get: function () { return text.get.call(this); },
    set: function (v) {
      v = v == null ? "" : String(v);
      if (this.data !== v) text.set.call(this, v);
    }
  });
  // ui.Prepare gives childless elements an empty innerHTML so that stale
  // children go; an element that is already empty is left alone.
  var inner = Object.getOwnPropertyDescriptor(Element.prototype, "innerHTML");
  Object.defineProperty(Element.prototype, "innerHTML", {
    configurable: true,
    enumerable: inner.enumerable,
    get: function () { return inner.get.call(this); },
    set: function (v) {
      if (v === "" && this.firstChild === null) return;
      inner.set.call(this, v);
    }
  });
  var setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    value = String(value);
    if (this.getAttribute(name) !== value) setAttribute.call(this, name, value);
  };
  var setAttributeNS = Element.prototype.setAttributeNS;
  Element.prototype.setAttributeNS = function (ns, name, value) {
    value = String(value);
    var local = String(name).split(":").pop();
    if (this.getAttributeNS(ns, local) !== value) setAttributeNS.call(this, ns, name, value);
  };
})();`
