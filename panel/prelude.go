package panel

// prelude is the script every call runs first, before the system's panelLib: a function
// that, given the glossary, defines the global PackRat (with window and document,
// plain-JS stand-ins for what Pack Rat's panels expect of a page) and returns run, which
// Go calls with the slot and the state (plain JS values Go built) once the panel's
// scripts have run. run lives in this closure, out of the panel's reach, and uses JSON's
// functions as they were before the panel ran, so a panel that replaces them only
// spoils its own result — which Go reads strictly and bounds anyway.
//
// What the panel draws is a tree of Node objects ({t: tag, a: attributes, k: children});
// event handlers (onclick…) are dropped, since nothing on Discord can call them back.
const prelude = `(function (glossary) {
  "use strict";
  const parse = JSON.parse, stringify = JSON.stringify, isArray = Array.isArray, freeze = Object.freeze;
  const MAX_NODES = 5000, MAX_NEST = 32, MAX_REQUESTS = 50, MAX_PARTS = 20;
  const KEEP = ["class", "title", "value", "checked", "selected", "type", "id"];
  let nodes = 0, parts = [], current = null;
  const requests = [], drawn = [], roots = {}, handlers = { state: [], compute: [] };

  function Node(t, a) { this.t = t; this.a = a; this.k = []; }
  function node(t, a) {
    if (++nodes > MAX_NODES) throw new RangeError("a panel draws at most " + MAX_NODES + " elements");
    return new Node(t, a);
  }
  function append(el, kids, depth) {
    for (const k of kids) {
      if (k == null || k === false || k === "") continue;
      if (isArray(k)) {
        if (depth >= MAX_NEST) throw new RangeError("children are nested in lists more than " + MAX_NEST + " deep");
        append(el, k, depth + 1);
      } else el.k.push(k instanceof Node ? k : String(k));
    }
  }
  function h(tag, attrs, ...kids) {
    const a = {};
    if (attrs && typeof attrs === "object") {
      for (const key of KEEP) {
        const v = attrs[key];
        if (v == null || v === false || typeof v === "function" || typeof v === "object") continue;
        a[key] = v === true ? "true" : String(v);
      }
    }
    const el = node(String(tag).toLowerCase(), a);
    append(el, kids, 0);
    return el;
  }
  function render(el, ...kids) {
    if (!(el instanceof Node)) throw new TypeError("PackRat.render draws into an element (PackRat.h or document.getElementById)");
    el.k = [];
    append(el, kids, 0);
    if (drawn.indexOf(el) < 0) drawn.push(el);
  }
  const text = v => v == null ? "" : String(v);
  function summary(list) {
    parts = [];
    if (!isArray(list)) return;
    for (const p of list) {
      if (!p || typeof p !== "object") continue;
      if (parts.length >= MAX_PARTS) break;
      parts.push({ text: text(p.text), icon: text(p.icon), title: text(p.title), warn: !!p.warn, closed: !!p.closed, coins: !!p.coins });
    }
  }
  function request(action, args) {
    if (requests.length >= MAX_REQUESTS) throw new RangeError("a panel makes at most " + MAX_REQUESTS + " requests a call");
    requests.push({ action: text(action), args: args && typeof args === "object" ? parse(stringify(args)) : {} });
  }
  function on(ev, f) {
    if (typeof f !== "function") throw new TypeError("PackRat.on needs a function");
    const list = handlers[ev];
    if (list) list.push(f);
  }
  const document = freeze({
    getElementById(id) { id = text(id); return roots[id] || (roots[id] = node("div", { id })); },
  });
  const PackRat = freeze({
    on, request, summary, h, render,
    icon: name => node("icon", { name: text(name) }),
    markup: html => node("markup", { html: text(html) }),
    fmtMod: n => (n >= 0 ? "+" : "") + n,
    glossary: freeze(glossary),
    get state() { return current; },
  });
  delete globalThis.GoError; // goja's wrapper for Go errors: nothing a panel needs
  globalThis.window = globalThis;
  globalThis.document = document;
  globalThis.PackRat = PackRat;

  const list = v => isArray(v) ? v.map(text) : [];
  function computed(r) {
    if (!r || typeof r !== "object") return null;
    const stats = isArray(r.stats) ? r.stats.filter(s => s && typeof s === "object").map(s =>
      ({ label: text(s.label), value: text(s.value), title: text(s.title), sub: text(s.sub), warn: !!s.warn })) : [];
    return { stats, chips: list(r.chips), notes: list(r.notes) };
  }
  return function run(slot, state) {
    current = state;
    const out = { requests };
    if (slot === "gm-player") {
      for (const f of handlers.compute) {
        const r = f(current);
        if (r !== undefined) { out.compute = computed(r); break; }
      }
    } else {
      for (const f of handlers.state) f(current);
    }
    out.summary = parts;
    out.bodies = drawn;
    return stringify(out);
  };
})`
