package panel

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// Script is a panel compiled with its system's panelLib, ready to run for any number of
// characters: compiling is the costly part, so a caller keeps one per panel of a system.
// A Script holds no runtime; each Run makes a fresh one, and goja's programs are tied to
// none, so one Script may Run in several goroutines at once.
type Script struct {
	panel   Panel
	prelude *goja.Program
	lib     *goja.Program
	code    *goja.Program
}

// Compile checks a panel's slot and the size of its sources and compiles them.
func Compile(lib string, p Panel) (*Script, error) {
	if p.Slot != SlotInventory && p.Slot != SlotGMPlayer {
		return nil, fail(KindSlot, p.ID, "slot %q is neither %q nor %q", clip(p.Slot), SlotInventory, SlotGMPlayer)
	}
	code := scripts(p.HTML)
	if n := len(lib) + len(code); n > MaxSourceBytes {
		return nil, fail(KindTooBig, p.ID, "panelLib and the panel's scripts are %d bytes, at most %d allowed", n, MaxSourceBytes)
	}
	s := &Script{panel: p}
	for _, c := range []struct {
		into       **goja.Program
		name, text string
	}{{&s.prelude, "prelude", prelude}, {&s.lib, "panelLib", lib}, {&s.code, "panel " + p.ID, code}} {
		prog, err := goja.Compile(c.name, c.text, false)
		if err != nil {
			return nil, fail(KindSyntax, p.ID, "%s", clip(err.Error()))
		}
		*c.into = prog
	}
	return s, nil
}

// Run is Compile and Script.Run in one: the job's call from nothing.
func Run(j *Job) (Result, error) {
	s, err := Compile(j.Lib, j.Panel)
	if err != nil {
		return Result{}, err
	}
	return s.Run(j)
}

// Run calls the panel for the job's state (its Lib and Panel are the Script's): a fresh
// runtime, the prelude, panelLib, the panel's scripts, then its state or compute
// handlers, all within the job's budget.
func (s *Script) Run(j *Job) (res Result, err error) {
	state, err := decoded(j.State)
	if err != nil {
		return Result{}, fail(KindResult, s.panel.ID, "the state does not encode: %v", err)
	}
	glossary := make(map[string]any, len(j.Glossary))
	for k, v := range j.Glossary {
		glossary[k] = v
	}
	rt := goja.New()
	rt.SetMaxCallStackSize(maxStack)
	deadline := time.AfterFunc(j.Time(), func() { rt.Interrupt("over budget") })
	defer deadline.Stop()
	defer func() {
		// goja turns a script's throw into an error; a panic is its own bug, and still
		// only this call's.
		if r := recover(); r != nil {
			res, err = Result{}, fail(KindCrashed, s.panel.ID, "the interpreter failed: %v", r)
		}
	}()
	out, err := s.call(rt, glossary, state)
	if err != nil {
		return Result{}, s.classify(err, j.Time())
	}
	return s.read(out)
}

// call runs the programs in order and returns run's JSON.
func (s *Script) call(rt *goja.Runtime, glossary map[string]any, state any) (string, error) {
	v, err := rt.RunProgram(s.prelude)
	if err != nil {
		return "", err
	}
	setup, _ := goja.AssertFunction(v)
	v, err = setup(goja.Undefined(), jsValue(rt, glossary))
	if err != nil {
		return "", err
	}
	run, _ := goja.AssertFunction(v)
	for _, p := range []*goja.Program{s.lib, s.code} {
		if _, err := rt.RunProgram(p); err != nil {
			return "", err
		}
	}
	v, err = run(goja.Undefined(), rt.ToValue(s.panel.Slot), jsValue(rt, state))
	if err != nil {
		return "", err
	}
	out, ok := v.Export().(string)
	if !ok {
		return "", fail(KindResult, s.panel.ID, "the result is not JSON text")
	}
	return out, nil
}

// decoded is a value as decoded JSON: maps, lists, strings, numbers, booleans and nil.
func decoded(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(data, &out)
	return out, err
}

// jsValue builds a decoded JSON value in the runtime as plain JS values: objects and
// arrays the runtime makes itself (never a wrapper of a Go value, which would reach the
// host), keys as own data properties in sorted order (so "__proto__" is only a name).
// It is goja's JSON.parse without its token-by-token decoder, a third of a call's time.
func jsValue(rt *goja.Runtime, v any) goja.Value {
	switch v := v.(type) {
	case map[string]any:
		o := rt.NewObject()
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			o.DefineDataProperty(k, jsValue(rt, v[k]), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
		}
		return o
	case []any:
		items := make([]any, len(v))
		for i, x := range v {
			items[i] = jsValue(rt, x)
		}
		return rt.NewArray(items...)
	case string, float64, bool:
		return rt.ToValue(v)
	}
	return goja.Null()
}

// classify gives a runtime's error its kind.
func (s *Script) classify(err error, budget time.Duration) error {
	var pe *Error
	var ie *goja.InterruptedError
	var ex *goja.Exception
	switch {
	case errors.As(err, &pe):
		return pe
	case errors.As(err, &ie):
		return fail(KindTimeout, s.panel.ID, "still running after %v", budget)
	case errors.As(err, &ex):
		return fail(KindScript, s.panel.ID, "%s", clip(ex.Error()))
	}
	return fail(KindScript, s.panel.ID, "%s", clip(err.Error()))
}

// read decodes run's JSON into a Result, bounding every list and text.
func (s *Script) read(out string) (Result, error) {
	if len(out) > MaxResultBytes {
		return Result{}, fail(KindResult, s.panel.ID, "the result is %d bytes, at most %d allowed", len(out), MaxResultBytes)
	}
	var raw struct {
		Summary  []Part `json:"summary"`
		Bodies   []any  `json:"bodies"`
		Requests []struct {
			Action string `json:"action"`
			// Args is JSON text (the prelude keeps it so).
			Args string `json:"args"`
		} `json:"requests"`
		Compute *struct {
			Stats []Stat   `json:"stats"`
			Chips []string `json:"chips"`
			Notes []string `json:"notes"`
		} `json:"compute"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		return Result{}, fail(KindResult, s.panel.ID, "the result does not read: %v", err)
	}
	var res Result
	for _, p := range head(raw.Summary, MaxParts) {
		p.Text, p.Icon, p.Title = clipText(p.Text), clipText(p.Icon), clipText(p.Title)
		res.Summary = append(res.Summary, p)
	}
	res.Body = Markdown(raw.Bodies)
	if c := raw.Compute; c != nil {
		for _, st := range head(c.Stats, MaxStats) {
			st.Label, st.Value, st.Title, st.Sub = clipText(st.Label), clipText(st.Value), clipText(st.Title), clipText(st.Sub)
			res.Stats = append(res.Stats, st)
		}
		res.Chips, res.Notes = texts(c.Chips), texts(c.Notes)
	}
	if n := len(raw.Requests); n > MaxRequests {
		// The prelude stops a panel at MaxRequests; a panel that got past it (a hijacked
		// prototype) has the rest dropped here, in one line.
		res.Dropped = append(res.Dropped, fmt.Sprintf("requests[%d:]: %d requests past the %d a call may make were not read", MaxRequests, n-MaxRequests, MaxRequests))
	}
	for i, r := range head(raw.Requests, MaxRequests) {
		if !knownAction(r.Action) {
			res.Dropped = append(res.Dropped, fmt.Sprintf("requests[%d]: %q is not an action a panel may ask for", i, clip(r.Action)))
			continue
		}
		var args map[string]any
		if err := json.Unmarshal([]byte(r.Args), &args); err != nil {
			res.Dropped = append(res.Dropped, fmt.Sprintf("requests[%d]: the args of %q are not a JSON object", i, clip(r.Action)))
			continue
		}
		res.Requests = append(res.Requests, Request{Action: r.Action, Args: args})
	}
	return res, nil
}

// scripts is the text of the HTML's <script> elements, in order, one after another.
func scripts(html string) string {
	var b strings.Builder
	lower := strings.ToLower(html)
	for at := 0; ; {
		open := strings.Index(lower[at:], "<script")
		if open < 0 {
			return b.String()
		}
		start := strings.IndexByte(lower[at+open:], '>')
		if start < 0 {
			return b.String()
		}
		start += at + open + 1
		end := strings.Index(lower[start:], "</script")
		if end < 0 {
			end = len(html) - start
		}
		b.WriteString(html[start : start+end])
		b.WriteString("\n;\n")
		at = start + end
	}
}

func head[T any](list []T, n int) []T { return list[:min(len(list), n)] }

func texts(list []string) []string {
	var out []string
	for _, t := range head(list, MaxChips) {
		out = append(out, clipText(t))
	}
	return out
}

// clipText bounds a text a panel returns to MaxText runes.
func clipText(s string) string {
	if utf8.RuneCountInString(s) <= MaxText {
		return s
	}
	return string([]rune(s)[:MaxText-1]) + "…"
}

// clip bounds a text quoted in an error.
func clip(s string) string {
	const n = 500
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
