package inventory

import (
	"maps"
	"math"
	"sort"
	"strconv"
	"strings"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/rules"
)

// pairs reads "a=1, b=2" (or split by semicolons, or by spaces when every part has its
// =): each key and its value, trimmed, in order. A part without = is a key alone.
func pairs(s string) [][2]string {
	var out [][2]string
	for _, part := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' }) {
		words := []string{part}
		if strings.Count(part, "=") > 1 {
			words = regroup(strings.Fields(part))
		}
		for _, w := range words {
			k, v, _ := strings.Cut(w, "=")
			if k = strings.TrimSpace(k); k != "" {
				out = append(out, [2]string{k, strings.TrimSpace(v)})
			}
		}
	}
	return out
}

// regroup joins space-split words back into key=value pairs: a word with = starts one.
func regroup(ws []string) []string {
	var out []string
	for _, w := range ws {
		if strings.Contains(w, "=") || len(out) == 0 {
			out = append(out, w)
		} else {
			out[len(out)-1] += " " + w
		}
	}
	return out
}

// stat finds a declared stat by id or label (folded).
func (iv *inventor) stat(s string) *ruleset.ItemStatDecl {
	want := ruleset.FoldName(s)
	for i := range iv.w.Stats {
		if st := &iv.w.Stats[i]; st.ID == s || ruleset.FoldName(st.Label) == want {
			return st
		}
	}
	return nil
}

// shown reports whether the GM is shown a stat (its promptVisible), so notes about it
// may be given.
func shown(st *ruleset.ItemStatDecl) bool { return st.PromptVisible == nil || *st.PromptVisible }

// statKey is where an item's file form keeps a stat: the carry stat is its weight.
func (iv *inventor) statKey(st *ruleset.ItemStatDecl) string {
	if iv.w.Carry != nil && iv.w.Carry.Stat == st.ID {
		return "weight"
	}
	return st.ID
}

// stats sets the stats written (over like's). A number stat given something that is no
// number is refused (bad-amount, with the stat's bounds); summary=, worn= and carried=
// written inside stats= (a small model's habit) are taken as themselves where no stat
// has that name.
func (iv *inventor) stats(s string, in *Invention) error {
	if strings.EqualFold(strings.TrimSpace(s), "none") {
		return nil
	}
	var unknown []string
	for _, kv := range pairs(s) {
		st := iv.stat(kv[0])
		if st == nil {
			switch k := strings.ToLower(kv[0]); {
			case k == "summary" && in.Summary == "":
				in.Summary = kv[1]
			case k == "worn" && in.Worn == "":
				in.Worn = kv[1]
			case k == "carried" && in.Carried == "":
				in.Carried = kv[1]
			default:
				unknown = append(unknown, kv[0])
			}
			continue
		}
		v, err := iv.statValue(st, kv[1])
		if err != nil {
			return err
		}
		if v != nil {
			iv.raw[iv.statKey(st)] = v
		}
	}
	if len(unknown) > 0 {
		iv.note("no such item stats: %s (left out)", rules.Clip(strings.Join(unknown, ", ")))
	}
	return nil
}

// statValue reads one stat's value as its type has it; nil leaves it out (noted).
func (iv *inventor) statValue(st *ruleset.ItemStatDecl, v string) (any, error) {
	leftOut := func(why string) (any, error) {
		if shown(st) {
			iv.note("%s %q %s: left out", st.Label, rules.Clip(v), why)
		}
		return nil, nil
	}
	switch st.Type {
	case "number":
		n, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, &refusal.Error{Reason: refusal.BadAmount, Bounds: bounds(st),
				Detail: st.Label + " is a number, not " + strconv.Quote(rules.Clip(v))}
		}
		return n, nil // held to its range with the rest (holdAll)
	case "boolean":
		switch strings.ToLower(v) {
		case "yes", "true", "on", "1":
			return true, nil
		case "no", "false", "off", "0":
			return false, nil
		}
		return leftOut("is not yes or no")
	case "enum":
		want := ruleset.FoldName(v)
		for _, x := range st.Values {
			if x == v || ruleset.FoldName(x) == want || ruleset.FoldName(st.ValueLabels[x]) == want {
				return x, nil
			}
		}
		return leftOut("is none of its words")
	case "dice":
		var r rules.Report
		if r.Dice("", v); len(r.Problems) > 0 {
			return leftOut("is not dice like 1d6")
		}
		return v, nil
	}
	if st.MaxLength != nil && rules.TextLen(v) > *st.MaxLength {
		return leftOut("is too long")
	}
	return v, nil
}

// bounds is a number stat's range as a refusal writes it ("0..4").
func bounds(st *ruleset.ItemStatDecl) string {
	lo, hi := "", ""
	if st.Min != nil {
		lo = rules.Num(*st.Min)
	}
	if st.Max != nil {
		hi = rules.Num(*st.Max)
	}
	return lo + ".." + hi
}

// holdAll holds every number stat the item has (written or from like=) to its range, a
// whole number where the stat takes whole numbers, then to its rarity's cap.
func (iv *inventor) holdAll() {
	var caps map[string]float64
	rarity, _ := iv.raw["rarity"].(string)
	for _, rc := range iv.w.RarityCaps {
		if rc.Rarity == rarity {
			caps = rc.Stats
		}
	}
	for i := range iv.w.Stats {
		st := &iv.w.Stats[i]
		key := iv.statKey(st)
		n, ok := iv.raw[key].(float64)
		if st.Type != "number" || !ok {
			continue
		}
		held := n
		if st.Column().IsInteger() {
			held = math.Round(held)
		}
		if st.Min != nil {
			held = max(held, *st.Min)
		}
		if st.Max != nil {
			held = min(held, *st.Max)
		}
		why := "its range is " + bounds(st)
		if c, capped := caps[st.ID]; capped && held > c {
			held, why = c, "a "+wordLabel(iv.w.Rarities, rarity)+" item gives at most "+rules.Num(c)
		}
		if held != n && shown(st) {
			iv.note("%s %s is %s: %s", st.Label, rules.Num(n), rules.Num(held), why)
		}
		iv.raw[key] = held
	}
}

// slots sets the slots the item takes (replacing like's): id=count pairs, a count held
// to 1 up to what a character has. The item goes in the one it takes most of, as the
// bridge reads a catalog item.
func (iv *inventor) slots(s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	delete(iv.raw, "slot")
	delete(iv.raw, "slotSize")
	if strings.EqualFold(s, "none") {
		return
	}
	taken := map[string]int{}
	var unknown []string
	for _, kv := range pairs(s) {
		id := iv.slotWord(kv[0])
		if id == "" {
			unknown = append(unknown, kv[0])
			continue
		}
		n, err := strconv.Atoi(kv[1])
		if kv[1] == "" {
			n, err = 1, nil
		}
		most := iv.slotCount(id)
		if err != nil || n < 1 || n > most {
			held := min(max(n, 1), most)
			iv.note("%s %q is %d: a character has %d", wordLabel(slotWords(iv.w.Slots), id), kv[1], held, most)
			n = held
		}
		taken[id] = n
	}
	if len(unknown) > 0 {
		iv.note("no such slots: %s (left out)", rules.Clip(strings.Join(unknown, ", ")))
	}
	keys := make([]string, 0, len(taken))
	for k := range taken {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	best := ""
	for _, k := range keys {
		if best == "" || taken[k] > taken[best] {
			best = k
		}
	}
	if best != "" {
		iv.raw["slot"], iv.raw["slotSize"] = best, taken[best]
	}
}

func slotWords(ss []ruleset.ItemSlot) []ruleset.ItemWord {
	ws := make([]ruleset.ItemWord, len(ss))
	for i, s := range ss {
		ws[i] = ruleset.ItemWord{ID: s.ID, Label: s.Label}
	}
	return ws
}

func (iv *inventor) slotWord(s string) string { return word(slotWords(iv.w.Slots), s) }

func (iv *inventor) slotCount(id string) int {
	for _, s := range iv.w.Slots {
		if s.ID == id {
			return s.Count
		}
	}
	return 1
}

// binds sets whether the item binds: yes, cursed (bound, only the GM can end it) or no.
// Only a ruleset with binding has items that bind.
func (iv *inventor) binds(s string) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return
	}
	if iv.w.Binding == nil {
		iv.note("the ruleset has no binding: binds=%s left out", rules.Clip(s))
		return
	}
	features, _ := iv.raw["features"].(map[string]any)
	features = mapsClone(features)
	layers, _ := iv.raw["layers"].(map[string]any)
	layers = mapsClone(layers)
	delete(layers, BoundState)
	switch s {
	case "yes", "true":
		features[bindsFeature] = true
	case "cursed":
		features[bindsFeature] = true
		layers[BoundState] = map[string]any{"locks": []any{BoundState}}
	case "no", "false":
		delete(features, bindsFeature)
	default:
		iv.note("binds=%s is not yes, cursed or no: left out", rules.Clip(s))
		return
	}
	setOrDrop(iv.raw, "features", features)
	setOrDrop(iv.raw, "layers", layers)
}

// mapsClone copies m (nil: an empty map), so like='s file form stays as it was.
func mapsClone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	maps.Copy(out, m)
	return out
}

func setOrDrop(raw map[string]any, key string, m map[string]any) {
	if len(m) == 0 {
		delete(raw, key)
		return
	}
	raw[key] = m
}
