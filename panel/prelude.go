package panel

// prelude is the script every call runs first, before the system's panelLib: a function
// that, given the glossary, defines the global PackRat (with window and document,
// plain-JS stand-ins for what Pack Rat's panels expect of a page) and returns run, which
// Go calls with the slot and the state (plain JS values Go built) once the panel's
// scripts have run. run lives in this closure, out of the panel's reach, and uses JSON's
// functions as they were before the panel ran. What it hands back is built only of
// null-prototype objects and arrays, strings, numbers and booleans, filled by index
// loops: a panel that gives every object a toJSON, or replaces an array's push or map,
// reaches none of the prelude's values and only spoils its own (a request's args, a
// node it mutated) — which Go reads strictly and bounds anyway.
//
// What the panel draws is a tree of Node objects ({t: tag, a: attributes, k: children});
// event handlers (onclick…) are dropped, since nothing on Discord can call them back.
const prelude = `(function (glossary) {
  "use strict";
  const stringify = JSON.stringify, isArray = Array.isArray, freeze = Object.freeze;
  const str = String, bare = o => Object.setPrototypeOf(o, null);
  const MAX_NODES = 5000, MAX_NEST = 32, MAX_REQUESTS = 50, MAX_PARTS = 20, MAX_STATS = 30, MAX_CHIPS = 30, MAX_DEPTH = 100;
  const KEEP = bare(["class", "title", "value", "checked", "selected", "type", "id"]);
  const ATTRS = bare(["class", "title", "value", "checked", "selected", "type", "id", "name", "html"]);
  let nodes = 0, parts = bare([]), current = null;
  const requests = bare([]), drawn = bare([]), roots = bare({}), handlers = bare({ state: bare([]), compute: bare([]) });

  function Node(t, a) { this.t = t; this.a = a; this.k = bare([]); }
  function node(t, a) {
    if (++nodes > MAX_NODES) throw new RangeError("a panel draws at most " + MAX_NODES + " elements");
    return new Node(t, a);
  }
  function append(el, kids, depth) {
    for (let i = 0; i < kids.length; i++) {
      const k = kids[i];
      if (k == null || k === false || k === "") continue;
      if (isArray(k)) {
        if (depth >= MAX_NEST) throw new RangeError("children are nested in lists more than " + MAX_NEST + " deep");
        append(el, k, depth + 1);
      } else el.k[el.k.length] = k instanceof Node ? k : str(k);
    }
  }
  function h(tag, attrs, ...kids) {
    const a = bare({});
    if (attrs && typeof attrs === "object") {
      for (let i = 0; i < KEEP.length; i++) {
        const key = KEEP[i], v = attrs[key];
        if (v == null || v === false || typeof v === "function" || typeof v === "object") continue;
        a[key] = v === true ? "true" : str(v);
      }
    }
    const el = node(str(tag).toLowerCase(), a);
    append(el, kids, 0);
    return el;
  }
  function render(el, ...kids) {
    if (!(el instanceof Node)) throw new TypeError("PackRat.render draws into an element (PackRat.h or document.getElementById)");
    el.k = bare([]);
    append(el, kids, 0);
    for (let i = 0; i < drawn.length; i++) if (drawn[i] === el) return;
    drawn[drawn.length] = el;
  }
  const text = v => v == null ? "" : str(v);
  function summary(list) {
    parts = bare([]);
    if (!isArray(list)) return;
    for (let i = 0; i < list.length && parts.length < MAX_PARTS; i++) {
      const p = list[i];
      if (!p || typeof p !== "object") continue;
      parts[parts.length] = bare({ text: text(p.text), icon: text(p.icon), title: text(p.title), warn: !!p.warn, closed: !!p.closed, coins: !!p.coins });
    }
  }
  // A request's args are kept as JSON text, so nothing of the panel's is left in them
  // for the result's stringify to call.
  function request(action, args) {
    if (requests.length >= MAX_REQUESTS) throw new RangeError("a panel makes at most " + MAX_REQUESTS + " requests a call");
    const json = args && typeof args === "object" ? stringify(args) : "{}";
    requests[requests.length] = bare({ action: text(action), args: typeof json === "string" ? json : "{}" });
  }
  function on(ev, f) {
    if (typeof f !== "function") throw new TypeError("PackRat.on needs a function");
    const list = handlers[ev];
    if (list) list[list.length] = f;
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

  function list(v, max) {
    const out = bare([]);
    if (!isArray(v)) return out;
    for (let i = 0; i < v.length && out.length < max; i++) out[out.length] = text(v[i]);
    return out;
  }
  function computed(r) {
    if (!r || typeof r !== "object") return null;
    const stats = bare([]), given = r.stats;
    if (isArray(given)) {
      for (let i = 0; i < given.length && stats.length < MAX_STATS; i++) {
        const s = given[i];
        if (!s || typeof s !== "object") continue;
        stats[stats.length] = bare({ label: text(s.label), value: text(s.value), title: text(s.title), sub: text(s.sub), warn: !!s.warn });
      }
    }
    return bare({ stats, chips: list(r.chips, MAX_CHIPS), notes: list(r.notes, MAX_CHIPS) });
  }
  // plain is a drawn node as null-prototype data: its tag, its kept attributes and its
  // children, read afresh (the panel holds every node and may have changed it).
  let copied = 0;
  function plain(n, depth) {
    if (typeof n === "string") return n;
    if (!n || typeof n !== "object") return "";
    if (++copied > MAX_NODES) throw new RangeError("a panel draws at most " + MAX_NODES + " elements");
    if (depth > MAX_DEPTH) throw new RangeError("elements are nested more than " + MAX_DEPTH + " deep");
    const a = bare({}), given = n.a, kids = n.k, k = bare([]);
    if (given && typeof given === "object") {
      for (let i = 0; i < ATTRS.length; i++) {
        const v = given[ATTRS[i]];
        if (typeof v === "string") a[ATTRS[i]] = v;
      }
    }
    if (isArray(kids)) {
      for (let i = 0; i < kids.length && i < MAX_NODES; i++) k[k.length] = plain(kids[i], depth + 1);
    }
    return bare({ t: typeof n.t === "string" ? n.t : "div", a, k });
  }
  return function run(slot, state) {
    current = state;
    const out = bare({ requests });
    if (slot === "gm-player") {
      const fs = handlers.compute;
      for (let i = 0; i < fs.length; i++) {
        const r = fs[i](current);
        if (r !== undefined) { out.compute = computed(r); break; }
      }
    } else {
      const fs = handlers.state;
      for (let i = 0; i < fs.length; i++) fs[i](current);
    }
    out.summary = parts;
    const bodies = bare([]);
    for (let i = 0; i < drawn.length; i++) bodies[bodies.length] = plain(drawn[i], 0);
    out.bodies = bodies;
    return stringify(out);
  };
})`
