package main

import (
	"encoding/json"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// resource is a class resource a feature brings: a counter row whose maximum comes
// from the class's own table (column), a derived value, or a fixed count. The
// recharge rests are game facts the SRD states in prose, so they are written here.
type resource struct {
	name     string
	recharge string
	column   string // class_specific key read per class level
	derived  string
	fixed    int
	note     string
}

var resources = map[string]resource{
	"rage":                    {name: "Rage", recharge: "long", column: "rage_count", note: "the table's unlimited rages at 20th level are kept as 999"},
	"bardic-inspiration-d6":   {name: "Bardic Inspiration", recharge: "long", derived: "bardic_inspiration_uses", note: "from 5th level (Font of Inspiration) set it to recharge on a short rest"},
	"channel-divinity-1-rest": {name: "Channel Divinity", recharge: "short", column: "channel_divinity_charges"},
	"channel-divinity":        {name: "Channel Divinity", recharge: "short", fixed: 1},
	"wild-shape-cr-1-4-or-below-no-flying-or-swim-speed": {name: "Wild Shape", recharge: "short", fixed: 2},
	"second-wind":        {name: "Second Wind", recharge: "short", fixed: 1},
	"action-surge-1-use": {name: "Action Surge", recharge: "short", column: "action_surges"},
	"indomitable-1-use":  {name: "Indomitable", recharge: "long", column: "indomitable_uses"},
	"ki":                 {name: "Ki", recharge: "short", column: "ki_points"},
	"divine-sense":       {name: "Divine Sense", recharge: "long", derived: "divine_sense_uses"},
	"lay-on-hands":       {name: "Lay on Hands", recharge: "long", derived: "lay_on_hands_pool"},
	"font-of-magic":      {name: "Sorcery Points", recharge: "long", column: "sorcery_points"},
	"arcane-recovery":    {name: "Arcane Recovery", recharge: "long", fixed: 1, note: "once a day, kept as a long rest"},
}

var derivedWords = map[string]string{
	"bardic_inspiration_uses": "your Charisma modifier (at least 1)",
	"divine_sense_uses":       "1 plus your Charisma modifier",
	"lay_on_hands_pool":       "5 times your paladin level",
}

var rechargeWords = map[string]string{"short": "a short or long rest", "long": "a long rest"}

// classTable reads one class_specific number per class level 1..20, capped to what a
// counter column holds.
func (s *srd) classTable(class, column string) []int {
	var out []int
	for _, l := range s.classLevels(class) {
		var n float64
		if raw, ok := l.ClassSpecific[column]; ok {
			_ = json.Unmarshal(raw, &n)
		}
		out = append(out, min(int(n), 999))
	}
	return out
}

// options lists what a feature lets the player choose, from its structured options.
func options(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var spec map[string]json.RawMessage
	if json.Unmarshal(raw, &spec) != nil {
		return nil
	}
	keys := make([]string, 0, len(spec))
	for k := range spec {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		var set struct {
			Choose int `json:"choose"`
			From   struct {
				Options []json.RawMessage `json:"options"`
			} `json:"from"`
		}
		var list []ref
		if json.Unmarshal(spec[k], &list) == nil && len(list) > 0 {
			var names []string
			for _, r := range list {
				names = append(names, strings.TrimPrefix(r.Name, "Eldritch Invocation: "))
			}
			out = append(out, "options: "+strings.Join(names, "; "))
			continue
		}
		if json.Unmarshal(spec[k], &set) != nil || set.Choose == 0 {
			continue
		}
		var names []string
		for _, opt := range set.From.Options {
			var word string
			if json.Unmarshal(opt, &word) == nil {
				names = append(names, word)
				continue
			}
			var item struct {
				Item ref `json:"item"`
			}
			if json.Unmarshal(opt, &item) == nil && item.Item.Name != "" {
				name := item.Item.Name
				if i := strings.Index(name, ": "); i >= 0 {
					name = name[i+2:]
				}
				names = append(names, name)
			}
		}
		if len(names) > 0 {
			out = append(out, "choose "+strconv.Itoa(set.Choose)+" of: "+strings.Join(names, "; "))
		}
	}
	return out
}

func (s *srd) featureEntries() []obj {
	byIndex := map[string]feature{}
	dup := map[string]int{}
	key := func(f feature) string {
		sub := ""
		if f.Subclass != nil {
			sub = f.Subclass.Index
		}
		return f.Class.Index + "/" + sub + "/" + f.Name
	}
	for _, f := range s.features {
		byIndex[f.Index] = f
		dup[key(f)]++
	}
	features := append([]feature(nil), s.features...)
	sort.SliceStable(features, func(i, j int) bool {
		a, b := features[i], features[j]
		if a.Class.Index != b.Class.Index {
			return a.Class.Index < b.Class.Index
		}
		if a.Level != b.Level {
			return a.Level < b.Level
		}
		return a.Index < b.Index
	})
	var out []obj
	for _, f := range features {
		label := f.Name
		if dup[key(f)] > 1 {
			label += " (" + ordinal(f.Level) + " level)"
		}
		out = append(out, s.featureEntry(f, label, byIndex))
	}
	return out
}

// featureEntry is one feature's entry under label: who has it from which level, what it
// is a choice of, what it requires, its options, and the class resource it adds (a
// counters row beside its features row).
func (s *srd) featureEntry(f feature, label string, byIndex map[string]feature) obj {
	subclass := "Base class"
	owner := f.Class.Name
	if f.Subclass != nil {
		subclass = f.Subclass.Name
		owner = f.Class.Name + " (" + f.Subclass.Name + ")"
	}
	parts := []string{owner + " feature, from " + ordinal(f.Level) + " level."}
	if f.Parent != nil {
		parts = append(parts, "One of the choices of "+f.Parent.Name+".")
	}
	if needs := featureNeeds(f, byIndex); len(needs) > 0 {
		parts = append(parts, "Requires "+joinAnd(needs)+".")
	}
	for _, opt := range options(f.FeatureSpecific) {
		parts = append(parts, titleCase(opt)+".")
	}
	rows := []obj{}
	var counter obj
	if res, ok := resources[f.Index]; ok {
		var line string
		counter, line = s.featureCounter(f, res)
		parts = append(parts, line)
	}
	text := clip(strings.Join(parts, " "), 800)
	rows = append(rows, o("list", "features", "values", o("name", label, "text", text)))
	if counter != nil {
		rows = append(rows, counter)
	}
	return o(
		"id", entryID(f.Index),
		"label", label,
		"summary", clip(strings.Join(parts, " "), 300),
		"filters", o("class", f.Class.Name, "subclass", subclass, "level", f.Level),
		"rows", rows,
	)
}

// featureNeeds names a feature's prerequisites: a level, a cantrip, another feature.
func featureNeeds(f feature, byIndex map[string]feature) []string {
	var needs []string
	for _, p := range f.Prerequisites {
		switch p.Type {
		case "level":
			needs = append(needs, ordinal(p.Level)+" level")
		case "spell":
			needs = append(needs, "the "+strings.ReplaceAll(path.Base(p.Spell), "-", " ")+" cantrip")
		case "feature":
			if pf, ok := byIndex[path.Base(p.Feature)]; ok {
				needs = append(needs, pf.Name)
			}
		}
	}
	return needs
}

// featureCounter is the counters row of the class resource res a feature adds, its
// maximum fixed, from a column of the class table, or from a derived value; and the
// sentence that says so.
func (s *srd) featureCounter(f feature, res resource) (obj, string) {
	values := o("name", res.name, "max", res.fixed, "recharge", res.recharge)
	var counter obj
	var how string
	switch {
	case res.column != "":
		table := stepTable(1, s.classTable(f.Class.Index, res.column))
		values.set("max", lookup(table, f.Level))
		counter = o("list", "counters", "values", values,
			"scaled", o("max", o("from", o("field", classLevelField(f.Class.Index)), "table", tableJSON(table))))
		var steps []string
		for _, r := range table {
			switch {
			case r[1] >= 999:
				steps = append(steps, "unlimited at "+ordinal(r[0])+" (kept as 999)")
			case r[1] > 0:
				steps = append(steps, strconv.Itoa(r[1])+" at "+ordinal(r[0]))
			}
		}
		if len(steps) > 6 {
			steps = []string{steps[0], "rising to " + steps[len(steps)-1]}
		}
		how = "by " + strings.ToLower(f.Class.Name) + " level, " + strings.Join(steps, ", ")
	case res.derived != "":
		values.set("max", 1)
		counter = o("list", "counters", "values", values,
			"scaled", o("max", o("from", o("derived", res.derived))))
		how = derivedWords[res.derived]
	default:
		counter = o("list", "counters", "values", values)
		how = strconv.Itoa(res.fixed)
	}
	line := "Adds the " + res.name + " class resource: " + how + ", back after " + rechargeWords[res.recharge]
	if res.note != "" {
		line += "; " + res.note
	}
	return counter, line + "."
}

var hyphens = regexp.MustCompile(`-+`)

// entryID makes an SRD index a catalog entry id: lowercase words joined by single
// hyphens ("dragon-ancestor-black---acid-damage" → "dragon-ancestor-black-acid-damage").
func entryID(index string) string {
	return strings.Trim(hyphens.ReplaceAllString(strings.ToLower(index), "-"), "-")
}
