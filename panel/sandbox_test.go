package panel_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"sheetkeeper/panel"
)

// gm is a gm-player panel whose script is body, with the most time a job may have, so
// a loaded machine cannot turn a test's point into a timeout.
func gm(body string) *panel.Job {
	return &panel.Job{Panel: panel.Panel{ID: "probe", Slot: panel.SlotGMPlayer, HTML: "<script>" + body + "</script>"}, Budget: panel.MaxBudget}
}

// inv is an inventory panel whose script is body, drawing into #root.
func inv(body string) *panel.Job {
	return &panel.Job{Panel: panel.Panel{ID: "probe", Slot: panel.SlotInventory, HTML: `<div id="root"></div><script>` + body + "</script>"}, Budget: panel.MaxBudget}
}

func wantKind(t *testing.T, err error, kind panel.Kind) {
	t.Helper()
	if got := panel.KindOf(err); got != kind {
		t.Fatalf("error %v: kind %q, want %q", err, got, kind)
	}
}

// A panel that never returns is interrupted at its budget, and the next call (a fresh
// runtime) runs as if nothing happened.
func TestLoopForeverIsInterrupted(t *testing.T) {
	for _, script := range []string{
		`for (;;) {}`,
		`PackRat.on("compute", () => { while (true) {} })`,
		`PackRat.on("compute", () => { Promise.resolve().then(function again() { return Promise.resolve().then(again) }); return {} })`,
	} {
		j := gm(script)
		j.Budget = 50 * time.Millisecond
		start := time.Now()
		_, err := panel.Run(j)
		wantKind(t, err, panel.KindTimeout)
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("%s: stopped after %v", script, took)
		}
	}
	r, err := panel.Run(gm(`PackRat.on("compute", () => ({ chips: ["fine"] }))`))
	if err != nil || !slices.Equal(r.Chips, []string{"fine"}) {
		t.Fatalf("after the loops: %+v, %v", r, err)
	}
}

// Deep recursion is a RangeError the panel gets, not a crash of the process.
func TestDeepRecursionIsAnError(t *testing.T) {
	_, err := panel.Run(gm(`function f(n) { return f(n + 1) + 1 } f(0)`))
	wantKind(t, err, panel.KindScript)
}

// A panel that looks for the host finds nothing of it: no require, no process, no
// timers, no console, no Go error wrapper, and constructor tricks reach only the same
// global, whose names are the ECMAScript built-ins and the three the prelude adds.
func TestNoHostInReach(t *testing.T) {
	for _, script := range []string{
		`require("fs")`,
		`process.exit(1)`,
		`setTimeout(() => {}, 1)`,
		`console.log("hi")`,
		`fetch("http://example.com")`,
		`import("fs")`,
		`(function(){}).constructor("return process")().exit()`,
		`Object.getPrototypeOf(async function(){}).constructor("return require")()("os")`,
		`this.constructor.constructor("return this")().require("fs")`,
	} {
		_, err := panel.Run(gm(script))
		if k := panel.KindOf(err); k != panel.KindScript && k != panel.KindSyntax {
			t.Errorf("%s: %v (kind %q), want a script or syntax error", script, err, k)
		}
	}
	r, err := panel.Run(gm(`PackRat.on("compute", () => {
		const g = (function(){}).constructor("return this")();
		const names = Object.getOwnPropertyNames(g).filter(n => !` + builtinsJS + `.includes(n));
		return { notes: names, chips: [g === globalThis, typeof Packages, typeof java, typeof Deno].map(String) };
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"PackRat", "document", "window"}; !slices.Equal(sorted(r.Notes), want) {
		t.Errorf("globals beyond the ECMAScript built-ins: %v, want %v", r.Notes, want)
	}
	if want := []string{"true", "undefined", "undefined", "undefined"}; !slices.Equal(r.Chips, want) {
		t.Errorf("probes: %v, want %v", r.Chips, want)
	}
}

// builtinsJS is the ECMAScript global object's own names, as a JS array.
const builtinsJS = `["globalThis","Object","Function","Array","String","Number","BigInt","RegExp","Date","Boolean",
	"Proxy","Reflect","Error","AggregateError","TypeError","ReferenceError","SyntaxError","RangeError","EvalError",
	"URIError","eval","Math","JSON","ArrayBuffer","DataView","Uint8Array","Uint8ClampedArray","Int8Array",
	"Uint16Array","Int16Array","Uint32Array","Int32Array","Float32Array","Float64Array","BigInt64Array",
	"BigUint64Array","Symbol","WeakSet","WeakMap","WeakRef","FinalizationRegistry","Map","Set","Promise",
	"parseInt","parseFloat","isNaN","isFinite","decodeURI","decodeURIComponent","encodeURI","encodeURIComponent",
	"escape","unescape","NaN","Infinity","undefined"]`

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }

// Scripts that do not compile, sources over the cap and a slot that is none are
// refused before anything runs.
func TestRefusedBeforeRunning(t *testing.T) {
	_, err := panel.Run(gm(`PackRat.on("compute", () => {`))
	wantKind(t, err, panel.KindSyntax)
	j := gm(`1`)
	j.Lib = strings.Repeat(" ", panel.MaxSourceBytes)
	_, err = panel.Run(j)
	wantKind(t, err, panel.KindTooBig)
	j = gm(`1`)
	j.Panel.Slot = "sidebar"
	_, err = panel.Run(j)
	wantKind(t, err, panel.KindSlot)
	_, err = panel.Run(gm(`throw new Error("no")`))
	wantKind(t, err, panel.KindScript)
	if !strings.Contains(err.Error(), "no") || !strings.Contains(err.Error(), `"probe"`) {
		t.Errorf("the error says neither what nor where: %v", err)
	}
}

// What a panel hands back is bounded: a result over the cap is refused, long texts and
// lists are clipped, requests for actions that do not exist are dropped and said.
func TestResultIsBounded(t *testing.T) {
	_, err := panel.Run(inv(`PackRat.on("state", () => PackRat.render(document.getElementById("root"), "x".repeat(300000)))`))
	wantKind(t, err, panel.KindResult)
	r, err := panel.Run(gm(`PackRat.request("equip", { uid: "a", on: true }); PackRat.request("wipe", {});
		PackRat.on("compute", () => ({ stats: Array.from({ length: 100 }, (_, i) => ({ label: "s" + i, value: i })),
			chips: ["y".repeat(1000)] }))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Stats) != panel.MaxStats || r.Stats[7].Value != "7" {
		t.Errorf("stats: %d, stats[7] %+v", len(r.Stats), r.Stats[7])
	}
	if n := len([]rune(r.Chips[0])); n != panel.MaxText {
		t.Errorf("a chip of %d runes", n)
	}
	if len(r.Requests) != 1 || r.Requests[0].Action != "equip" || r.Requests[0].Args["uid"] != "a" {
		t.Errorf("requests %+v", r.Requests)
	}
	if len(r.Dropped) != 1 || !strings.Contains(r.Dropped[0], `"wipe"`) {
		t.Errorf("dropped %v", r.Dropped)
	}
	_, err = panel.Run(gm(`for (let i = 0; i < 51; i++) PackRat.request("openCoins")`))
	wantKind(t, err, panel.KindScript)
	_, err = panel.Run(gm(`for (let i = 0; i < 6000; i++) PackRat.h("div")`))
	wantKind(t, err, panel.KindScript)
}

// The caps hold in Go too, whatever the prelude was made to hand back: a panel that
// hijacks Object.prototype.toJSON to return 500 requests gets at most MaxRequests read,
// and the rest dropped in one line.
func TestRequestsCappedInGo(t *testing.T) {
	r, err := panel.Run(gm(`Object.prototype.toJSON = function () { if (this.requests) { delete Object.prototype.toJSON; return { requests: Array.from({ length: 500 }, () => ({ action: "openCoins" })) }; } return this; };`))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Requests) > panel.MaxRequests || len(r.Dropped) > 1 {
		t.Fatalf("%d requests, %d dropped", len(r.Requests), len(r.Dropped))
	}
}

// A panel that replaces the built-ins the prelude's output goes through (toJSON on
// every object, an array's push or map) spoils only its own values: what the prelude
// hands back is built of null-prototype objects and index loops, so the requests, the
// stats and the body are what the panel made.
func TestPrototypeHijacksDoNotReachThePrelude(t *testing.T) {
	r, err := panel.Run(gm(`Object.prototype.toJSON = function () { return { requests: [{ action: "wipe" }] } };
		Array.prototype.toJSON = function () { return [] };
		Array.prototype.push = function () { for (let i = 0; i < 40; i++) this[this.length] = { action: "openCoins" }; return this.length };
		Array.prototype.map = function () { return [] };
		Array.prototype.filter = function () { return [] };
		PackRat.request("equip", { uid: "a" });
		PackRat.on("compute", () => ({ stats: [{ label: "AC", value: 12 }], chips: ["c"] }))`))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Requests) != 1 || r.Requests[0].Action != "equip" || len(r.Dropped) != 0 {
		t.Errorf("requests %+v, dropped %v: want the one equip", r.Requests, r.Dropped)
	}
	if len(r.Stats) != 1 || r.Stats[0].Value != "12" || !slices.Equal(r.Chips, []string{"c"}) {
		t.Errorf("stats %+v, chips %v", r.Stats, r.Chips)
	}
	b, err := panel.Run(inv(`Object.prototype.toJSON = function () { return "hijacked" };
		PackRat.summary([{ text: "Load 3" }]);
		PackRat.on("state", () => PackRat.render(document.getElementById("root"), PackRat.h("b", null, "kept")))`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.Body, "kept") || len(b.Summary) != 1 || b.Summary[0].Text != "Load 3" {
		t.Errorf("body %q, summary %+v", b.Body, b.Summary)
	}
}

// A body is escaped Discord markdown: a panel cannot mention everyone or smuggle in
// formatting.
func TestBodyIsEscaped(t *testing.T) {
	r, err := panel.Run(inv(`const { h } = PackRat;
		PackRat.on("state", () => PackRat.render(document.getElementById("root"),
			h("p", null, "@everyone **bold** <@123> ` + "`x`" + `"), h("p", { class: "chip" }, "Finesse"),
			h("ul", null, h("li", null, h("b", null, "Dagger"), " +4")))) `))
	if err != nil {
		t.Fatal(err)
	}
	want := "@\u200beveryone \\*\\*bold\\*\\* \\<@\u200b123\\> \\`x\\`\n`Finesse`\n• **Dagger** +4"
	if r.Body != want {
		t.Errorf("body\n%q\nwant\n%q", r.Body, want)
	}
}

// The state reaches the panel as plain JS values: a key named __proto__ is only a name,
// and every object is an ordinary one.
func TestStateIsPlainData(t *testing.T) {
	j := gm(`PackRat.on("compute", s => ({ chips: [
		String(Object.keys(s.character.stats).includes("__proto__")),
		String(Object.getPrototypeOf(s.character.stats) === Object.prototype),
		String(Array.isArray(s.items)), typeof s.items[0].qty, s.items[0].name ] }))`)
	j.State = panel.State{Character: panel.Character{Stats: map[string]any{"__proto__": 5.0}},
		Items: []panel.Item{{Name: "Rope", Qty: 2}}}
	r, err := panel.Run(j)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"true", "true", "true", "number", "Rope"}; !slices.Equal(r.Chips, want) {
		t.Errorf("chips %v, want %v", r.Chips, want)
	}
}

// One compiled Script serves several goroutines at once, each call in its own runtime.
func TestScriptRunsConcurrently(t *testing.T) {
	j := gm(`let calls = 0; PackRat.on("compute", s => ({ chips: [s.character.name, String(++calls)] }))`)
	s, err := panel.Compile(j.Lib, j.Panel)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for i := range 8 {
		go func() {
			job := *j
			job.State.Character.Name = fmt.Sprint("c", i)
			r, err := s.Run(&job)
			if err == nil && !slices.Equal(r.Chips, []string{job.State.Character.Name, "1"}) {
				err = fmt.Errorf("chips %v: a runtime was shared", r.Chips)
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
