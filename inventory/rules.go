package inventory

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"sheetkeeper/ruleset/rules"
	"sheetkeeper/strictjson"
)

// Rule is one of an item's or a template's triggers, read into one shape whichever
// form the file wrote it in (legacy triggers become rules too). This reads and checks
// them; a Runner runs them.
type Rule struct {
	// When: becomes, while, acquired, equipped or unequipped.
	When string
	// Every is a while rule's period in seconds (default 1).
	Every   float64
	Test    []Condition
	If      []Condition
	Do      []Action
	Message string
	seen    string // SeenKey's part for the rule, worked out as it is read
	seenOld int    // how much of seen the keys stored before it held the whole rule had
}

// Condition compares an address with a value: a number, on or off, a choice by name,
// or a formula (kept as text).
type Condition struct {
	Value string
	Op    string
	To    any
	To2   any
}

// Action is one thing a rule does: set an address, add to it, change a Local value over
// time, or show a message.
type Action struct {
	Set, Add, Change string
	To, By           any
	Rate             float64
	Until            *float64
	Message          string
}

var (
	ruleWhens = []string{"becomes", "while", "acquired", "equipped", "unequipped"}
	ruleOps   = []string{"=", "!=", "<", "<=", ">", ">=", "between"}
)

// MaxValue bounds the Local values rules set (Pack Rat's 1e9): a write beyond it does
// nothing, and a value moving stops there.
const MaxValue = 1e9

// maxFormula bounds a formula's text.
const maxFormula = 200

// readRules reads a list of triggers, new or legacy, reporting what is wrong with each.
func (c *checker) readRules(path string, raw []any) []Rule {
	if len(raw) > MaxTriggers {
		c.Problems.AddKind(strictjson.Limit, path, fmt.Sprintf("has %d items, at most %d allowed", len(raw), MaxTriggers))
		return nil
	}
	var out []Rule
	for i, x := range raw {
		p := rules.PathOf(path, i)
		m, ok := x.(map[string]any)
		if !ok {
			c.Add(p, "expected an object")
			continue
		}
		var r Rule
		if _, legacy := m["on"]; legacy {
			r = c.legacyRule(p, m)
		} else {
			r = c.rule(p, m)
		}
		r.seen, r.seenOld = seenOf(r)
		out = append(out, r)
	}
	return out
}

func (c *checker) rule(p string, m map[string]any) Rule {
	c.onlyKeys(p, m, "when", "every", "test", "if", "do", "message")
	r := Rule{When: c.ruleStr(p, m, "when", true)}
	if r.When != "" {
		c.OneOf(rules.PathOf(p, "when"), r.When, ruleWhens...)
	}
	if v, ok := m["every"]; ok {
		n, isNum := v.(float64)
		switch {
		case r.When != "while":
			c.Add(rules.PathOf(p, "every"), "only a while rule has every")
		case !isNum || n < 0.25 || n > 86400:
			c.Add(rules.PathOf(p, "every"), "must be 0.25 up to 86400 seconds")
		default:
			r.Every = n
		}
	}
	r.Test = c.conditions(rules.PathOf(p, "test"), m["test"])
	r.If = c.conditions(rules.PathOf(p, "if"), m["if"])
	if (r.When == "becomes" || r.When == "while") && len(r.Test) == 0 {
		c.Add(rules.PathOf(p, "test"), "a %s rule needs its conditions", r.When)
	}
	r.Do = c.actions(rules.PathOf(p, "do"), m["do"])
	r.Message = c.ruleStr(p, m, "message", false)
	c.CatalogText(rules.PathOf(p, "message"), r.Message, MaxTextBytes)
	return r
}

// legacyRule reads an older trigger: { on, if: { state, is }, do: [{ set, to }], message }.
func (c *checker) legacyRule(p string, m map[string]any) Rule {
	c.onlyKeys(p, m, "on", "if", "do", "message")
	on := c.ruleStr(p, m, "on", true)
	r := Rule{Message: c.ruleStr(p, m, "message", false)}
	switch {
	case on == "acquired" || on == "equipped" || on == "unequipped":
		r.When = on
	case strings.HasPrefix(on, "on:") || strings.HasPrefix(on, "off:"):
		word, key, _ := strings.Cut(on, ":")
		c.knownState(rules.PathOf(p, "on"), key)
		r.When, r.Test = "becomes", []Condition{{Value: "item.state." + key, Op: "=", To: boolWord(word == "on")}}
	default:
		c.Add(rules.PathOf(p, "on"), "%q is not acquired, equipped, unequipped, on:<state> or off:<state>", rules.Clip(on))
	}
	if v, ok := m["if"]; ok {
		im, _ := v.(map[string]any)
		key, _ := im["state"].(string)
		is, ok := onOrDefault(im, "is")
		if im == nil || !ok || !onlyHas(im, "state", "is") {
			c.Add(rules.PathOf(p, "if"), "an older rule's if is { state, is: true or false }")
		} else if c.knownState(rules.PathOf(p, "if", "state"), key) {
			r.If = []Condition{{Value: "item.state." + key, Op: "=", To: boolWord(is)}}
		}
	}
	list, isList := m["do"].([]any)
	if !isList && (m["do"] != nil || r.Message == "") {
		c.Add(rules.PathOf(p, "do"), "expected a list of actions (an older rule may have only a message)")
	}
	for i, x := range list {
		ap := rules.PathOf(p, "do", i)
		am, _ := x.(map[string]any)
		key, _ := am["set"].(string)
		to, ok := onOrDefault(am, "to")
		if am == nil || !ok || !onlyHas(am, "set", "to") {
			c.Add(ap, "an older rule's action is { set: state, to: true or false }")
		} else if c.knownState(rules.PathOf(ap, "set"), key) {
			r.Do = append(r.Do, Action{Set: "item.state." + key, To: boolWord(to)})
		}
	}
	return r
}

// onOrDefault reads an older rule's true or false at key: true when it is left out, as
// Pack Rat reads `is` and `to` (only false turns a state off).
func onOrDefault(m map[string]any, key string) (on, ok bool) {
	v, set := m[key]
	if !set {
		return true, true
	}
	on, ok = v.(bool)
	return on, ok
}

// onlyHas reports whether m has no key but keys.
func onlyHas(m map[string]any, keys ...string) bool {
	for k := range m {
		if !slices.Contains(keys, k) {
			return false
		}
	}
	return true
}

func boolWord(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func (c *checker) knownState(path, key string) bool {
	if !c.states[key] {
		c.Add(path, "unknown state %q", rules.Clip(key))
		return false
	}
	return true
}

func (c *checker) onlyKeys(p string, m map[string]any, keys ...string) {
	for _, k := range rules.SortedKeys(m) {
		if !slices.Contains(keys, k) {
			c.Add(rules.PathOf(p, k), strictjson.MsgUnknownKey)
		}
	}
}

func (c *checker) ruleStr(p string, m map[string]any, key string, required bool) string {
	return itemReader{c: c, path: p, raw: m}.str(key, required)
}

func (c *checker) conditions(path string, v any) []Condition {
	if v == nil {
		return nil
	}
	var out []Condition
	c.objects(path, v, 0, "expected a list of at most 20 conditions", func(p string, m map[string]any) {
		c.onlyKeys(p, m, "value", "op", "to", "to2")
		cd := Condition{Value: c.ruleStr(p, m, "value", true), Op: c.ruleStr(p, m, "op", true), To: m["to"], To2: m["to2"]}
		c.address(rules.PathOf(p, "value"), cd.Value)
		if cd.Op != "" {
			c.OneOf(rules.PathOf(p, "op"), cd.Op, ruleOps...)
		}
		c.operand(rules.PathOf(p, "to"), cd.To)
		if (cd.Op == "between") != (cd.To2 != nil) {
			c.Add(rules.PathOf(p, "to2"), "between, and only between, needs to2")
		} else if cd.To2 != nil {
			c.operand(rules.PathOf(p, "to2"), cd.To2)
		}
		out = append(out, cd)
	})
	return out
}

// objects hands each object of the list v at path to fn with its path: a list of at
// least min and at most 20 objects, else the problem words at path; an element that is
// no object is a problem of its own.
func (c *checker) objects(path string, v any, min int, words string, fn func(p string, m map[string]any)) {
	list, ok := v.([]any)
	if !ok || len(list) < min || len(list) > 20 {
		c.Add(path, "%s", words)
		return
	}
	for i, x := range list {
		p := rules.PathOf(path, i)
		m, ok := x.(map[string]any)
		if !ok {
			c.Add(p, "expected an object")
			continue
		}
		fn(p, m)
	}
}

func (c *checker) actions(path string, v any) []Action {
	var out []Action
	c.objects(path, v, 1, "expected a list of 1 up to 20 actions", func(p string, m map[string]any) {
		a := Action{Set: c.ruleStr(p, m, "set", false), Add: c.ruleStr(p, m, "add", false),
			Change: c.ruleStr(p, m, "change", false), Message: c.ruleStr(p, m, "message", false), To: m["to"], By: m["by"]}
		switch {
		case a.Set != "":
			c.onlyKeys(p, m, "set", "to")
			c.target(rules.PathOf(p, "set"), a.Set, true)
			c.operand(rules.PathOf(p, "to"), a.To)
		case a.Add != "":
			c.onlyKeys(p, m, "add", "by")
			c.target(rules.PathOf(p, "add"), a.Add, false)
			c.operand(rules.PathOf(p, "by"), a.By)
		case a.Change != "":
			c.onlyKeys(p, m, "change", "rate", "until")
			name, ok := strings.CutPrefix(a.Change, "local.")
			if !ok {
				name, ok = strings.CutPrefix(a.Change, "char.local.")
			}
			if !ok || !keyPattern.MatchString(name) {
				c.Add(rules.PathOf(p, "change"), "a change moves a Local value: local.<name> or char.local.<name>")
			}
			a.Rate, _ = m["rate"].(float64)
			if _, ok := m["rate"].(float64); !ok || a.Rate == 0 || math.Abs(a.Rate) > MaxValue/1000 {
				c.Add(rules.PathOf(p, "rate"), "expected a number a second other than 0, at most %g either way", MaxValue/1000)
			}
			if u, ok := m["until"].(float64); ok {
				a.Until = &u
			} else if m["until"] != nil {
				c.Add(rules.PathOf(p, "until"), "expected a number")
			}
		case a.Message != "":
			c.onlyKeys(p, m, "message")
			c.CatalogText(rules.PathOf(p, "message"), a.Message, MaxTextBytes)
		default:
			c.Add(p, "an action is set, add, change or message")
		}
		out = append(out, a)
	})
	return out
}

// target checks what an action may write: a state (set only), charges or a Local value;
// never a Global value, which are the GM's.
func (c *checker) target(path, addr string, set bool) {
	switch {
	case strings.HasPrefix(addr, "global."):
		c.Add(path, "rules cannot set Global values: those are the GM's")
	case strings.HasPrefix(addr, "item.state."):
		if !set {
			c.Add(path, "a state is set, not added to")
		} else {
			c.knownState(path, strings.TrimPrefix(addr, "item.state."))
		}
	case addr == "item.charges", strings.HasPrefix(addr, "local."), strings.HasPrefix(addr, "char.local."):
		c.address(path, addr)
	default:
		c.Add(path, "%q cannot be written: a rule sets a state, charges or a Local value", rules.Clip(addr))
	}
}

// address checks a value's address.
func (c *checker) address(path, addr string) {
	switch addr {
	case "", "item.charges", "item.qty", "item.equipped", "item.fill", "item.worth", "item.weight", "char.carried":
		return
	}
	for _, prefix := range []string{"item.state.", "char.count.", "char.limit."} {
		if k, ok := strings.CutPrefix(addr, prefix); ok {
			c.knownState(path, k)
			return
		}
	}
	for _, prefix := range []string{"char.stat.", "char.local.", "local.", "global."} {
		if k, ok := strings.CutPrefix(addr, prefix); ok {
			if !keyPattern.MatchString(k) {
				c.Add(path, "%q names no value: %s<name>", rules.Clip(addr), prefix)
			}
			return
		}
	}
	c.Add(path, "%q is not an address (item.state.<key>, item.charges, local.<name>…)", rules.Clip(addr))
}

// operand checks what a condition compares with or an action writes: a number, on/off,
// a choice's name or a formula, as text of at most maxFormula characters.
func (c *checker) operand(path string, v any) {
	switch v := v.(type) {
	case nil:
		c.Add(path, "required")
	case float64, bool:
	case string:
		if v == "" || len(v) > maxFormula {
			c.Add(path, "a value or formula is 1 up to %d characters", maxFormula)
		}
	default:
		c.Add(path, "expected a number, on/off, a choice or a formula")
	}
}
