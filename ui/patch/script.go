package patch

// Script is the page's half of the renderer: evaluate it once, then
//
//   - kfPatchBuffer(n) returns a Uint8Array of at least n bytes to copy a
//     render's operations into, and kfPatch(n) applies its first n bytes;
//   - kfPatchHandler(f) sets the function every listener calls, as
//     f(slot, summary): summary is the event's JSON, its primitive
//     properties and its target's, as Vugu's renderer summarises them
//     (vugu.DOMEvent's Prop reads it);
//   - vuguGetActiveEvent() is the event being handled (the host reads a
//     paste's clipboard through it, as with Vugu's renderer).
//
// An event fired while a render is being applied (none of the events the
// components listen to is) is not delivered: the renderer's state is
// half-way through the update.
const Script = `(function () {
  "use strict";
  if (window.kfPatch) return;
  var NS = {
    html: "http://www.w3.org/1999/xhtml",
    math: "http://www.w3.org/1998/Math/MathML",
    svg: "http://www.w3.org/2000/svg",
    xlink: "http://www.w3.org/1999/xlink",
    xml: "http://www.w3.org/XML/1998/namespace",
    xmlns: "http://www.w3.org/2000/xmlns/"
  };
  var nodes = [];
  var listeners = new Map();
  var dec = new TextDecoder();
  var buf = new Uint8Array(1 << 16);
  var handler = null;
  var active = null;
  var patching = false;
  window.vuguGetActiveEvent = function () { return active; };
  window.kfPatchHandler = function (f) { handler = f; };
  window.kfPatchBuffer = function (n) {
    if (buf.length < n) buf = new Uint8Array(Math.max(n, buf.length * 2));
    return buf;
  };
  function primitives(o) {
    var out = {};
    for (var k in o) {
      try {
        var v = o[k], t = typeof v;
        if (t === "boolean" || t === "number" || t === "string") out[k] = v;
      } catch (e) {}
    }
    return out;
  }
  function deliver(slot, ev) {
    if (patching || !handler) return;
    var s = primitives(ev);
    if (ev.target) s.target = primitives(ev.target);
    active = ev;
    try { handler(slot, JSON.stringify(s)); } finally { active = null; }
  }
  window.kfPatch = function (len) {
    var dv = new DataView(buf.buffer, buf.byteOffset, len);
    var off = 0;
    function u32() { var v = dv.getUint32(off, true); off += 4; return v; }
    function str() {
      var n = u32();
      var s = n === 0 ? "" : dec.decode(buf.subarray(off, off + n));
      off += n;
      return s;
    }
    patching = true;
    try {
      while (off < len) {
        var op = buf[off++];
        var id = u32();
        switch (op) {
        case 1: { var ns = str(), tag = str(); nodes[id] = ns ? document.createElementNS(NS[ns] || ns, tag) : document.createElement(tag); break; }
        case 2: nodes[id] = document.createTextNode(str()); break;
        case 3: nodes[id] = document.createComment(str()); break;
        case 4: { var ans = str(), k = str(), v = str();
          if (ans) nodes[id].setAttributeNS(NS[ans] || ans, k, v); else nodes[id].setAttribute(k, v); break; }
        case 5: { var rns = str(), rk = str();
          if (rns) nodes[id].removeAttributeNS(NS[rns] || rns, rk); else nodes[id].removeAttribute(rk); break; }
        case 6: nodes[id].data = str(); break;
        case 7: nodes[id].innerHTML = str(); break;
        case 8: { var pk = str(), pv = JSON.parse(str()); if (nodes[id][pk] !== pv) nodes[id][pk] = pv; break; }
        case 9: nodes[id].appendChild(nodes[u32()]); break;
        case 10: nodes[id].remove(); nodes[id] = undefined; break;
        case 11: nodes[id] = undefined; break;
        case 12: { var slot = u32(), type = str(), flags = buf[off++];
          var opts = { capture: (flags & 1) !== 0, passive: (flags & 2) !== 0 };
          var f = (function (s) { return function (ev) { deliver(s, ev); }; })(slot);
          listeners.set(slot, [nodes[id], type, f, opts.capture]);
          nodes[id].addEventListener(type, f, opts); break; }
        case 13: { var l = listeners.get(id);
          if (l) { l[0].removeEventListener(l[1], l[2], { capture: l[3] }); listeners.delete(id); } break; }
        case 14: { var nid = u32(); nodes[id].replaceWith(nodes[nid]); nodes[id] = undefined; break; }
        case 16: { var moved = nodes[u32()], before = nodes[u32()]; nodes[id].insertBefore(moved, before); break; }
        case 15: { var sel = str(); nodes[id] = document.querySelector(sel);
          if (!nodes[id]) throw new Error("kafkascope: no element " + sel + " to draw into"); break; }
        default: throw new Error("kafkascope: unknown render operation " + op + " at byte " + (off - 5));
        }
      }
    } finally {
      patching = false;
    }
  };
})();`
