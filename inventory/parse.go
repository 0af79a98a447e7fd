package inventory

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"sheetkeeper/strictjson"
)

// Bounds on a system file. A hostile file is refused before it costs more than these;
// the largest real one (D&D 5e with the SRD catalog and its panels) is well inside them.
const (
	MaxFileBytes      = 4 << 20
	MaxProblems       = 200 // reported; the rest are counted
	MaxDepth          = 32
	MaxTemplates      = 300
	MaxTemplateDepth  = 12 // a template and those it is under
	MaxFields         = 60 // per template, feature or commonFields
	MaxOptions        = 100
	MaxFeatures       = 60
	MaxStates         = 30 // a campaign's own states come on top, up to 64 in all
	MaxValues         = 200
	MaxStats          = 100
	MaxCoins          = 12
	MaxPanels         = 20
	MaxCatalog        = 5000
	MaxTables         = 200
	MaxTableEntries   = 1000
	MaxGlossary       = 2000
	MaxSlots          = 20
	MaxSlotRules      = 30
	MaxItemFields     = 200
	MaxTextBytes      = 20000  // a description, a hint, a glossary entry
	MaxPanelBytes     = 512000 // a panel's html or the panelLib
	MaxCategories     = 100
	MaxTriggers       = 50
	maxIDLen          = 80
	maxLabelLen       = 120
	maxCoinKeyLen     = 8
	maxTermLen        = 40
	maxWeightUnitLen  = 12
	maxStatStringLen  = 200
	maxStatListLen    = 50
	maxRenamedPerTmpl = 200
	// maxMoney bounds a price or a purse in the smallest coin, so sums of a 5,000-item
	// catalog's prices times any stack stay far inside int64 and exact in a float64.
	maxMoney     = 1e12
	maxCoinValue = 1_000_000
	maxWeight    = 1e6
)

// decodeOptions bound a file while it is decoded, not after: every list at its own
// bound (the maxItems tags of System and what it holds) or, for what has none (an item's
// fields, the stats, the glossary), the largest list a file has; and a budget of values
// for the whole file, far above the largest real one (D&D 5e with the SRD catalog is
// about 7,000) and low enough that a 4 MB file of tiny values costs a few tens of MB, not
// gigabytes.
var decodeOptions = strictjson.Options{MaxDepth: MaxDepth, AllowComment: true, MaxItems: MaxCatalog, MaxValues: maxValues}

// maxValues is the budget of values one file decodes.
const maxValues = 300_000

// diePattern is a table's die: d20, 2d6.
var diePattern = regexp.MustCompile(`^([1-9][0-9]?)?d[1-9][0-9]{0,3}$`)

// Parse reads a system file: every problem at once, each with its JSON path (an item's
// and a template's id beside its index: `templates[3] (sd-weapon).features.attack`). A
// file with any problem is unusable and Parse returns it with the problems; on none, the
// system is ready to use, its legacy groups turned into templates.
func Parse(data []byte) (*System, strictjson.Problems) {
	if len(data) > MaxFileBytes {
		return nil, strictjson.Problems{{Kind: strictjson.Limit, Msg: fmt.Sprintf(
			"a system file is at most %d KB; this one is %d KB", MaxFileBytes/1024, (len(data)+1023)/1024)}}
	}
	s := &System{}
	ps := strictjson.Decode(data, s, "", decodeOptions)
	if ps.Complete() {
		toggles := s.convertToggles()
		c := &checker{s: s}
		c.check()
		if toggles {
			for i, p := range c.Problems {
				if strings.HasPrefix(p.Path, "states[") {
					c.Problems[i].Path = strings.Replace("toggles"+p.Path[len("states"):], ".requires", ".feature", 1)
				}
			}
		}
		ps = append(ps, c.Problems...)
	}
	annotate(s, ps)
	ps.Sort()
	ps = capProblems(ps)
	if len(ps) > 0 {
		return nil, ps
	}
	s.convertGroups()
	s.giveHues()
	s.index = buildIndex(s)
	s.bind()
	return s, nil
}

// annotate puts each template's, item's, state's, feature's and table's id beside its
// index. It reads each problem's path once (strictjson's Annotate walks every problem per
// prefix, which a hostile 5,000-item file would make quadratic).
func annotate(s *System, ps strictjson.Problems) {
	lists := map[string]func(i int) string{
		"templates": func(i int) string { return pick(len(s.Templates), i, func() string { return s.Templates[i].ID }) },
		"catalog": func(i int) string {
			return pick(len(s.RawCatalog), i, func() string { id, _ := s.RawCatalog[i]["id"].(string); return id })
		},
		"states":   func(i int) string { return pick(len(s.States), i, func() string { return s.States[i].Key }) },
		"features": func(i int) string { return pick(len(s.Features), i, func() string { return s.Features[i].Key }) },
		"tables":   func(i int) string { return pick(len(s.Tables), i, func() string { return s.Tables[i].ID }) },
	}
	for j := range ps {
		p := ps[j].Path
		name, rest, ok := strings.Cut(p, "[")
		if !ok || lists[name] == nil {
			continue
		}
		num, after, ok := strings.Cut(rest, "]")
		i, err := strconv.Atoi(num)
		if !ok || err != nil || (after != "" && after[0] != '.' && after[0] != '[') {
			continue
		}
		if note := lists[name](i); note != "" && len(note) <= maxIDLen {
			ps[j].Path = name + "[" + num + "] (" + note + ")" + after
		}
	}
}

func pick(n, i int, id func() string) string {
	if i < 0 || i >= n {
		return ""
	}
	return id()
}

// capProblems keeps the first MaxProblems of a sorted list and says how many more there
// are, so a hostile file's answer stays small.
func capProblems(ps strictjson.Problems) strictjson.Problems {
	if len(ps) <= MaxProblems {
		return ps
	}
	more := len(ps) - MaxProblems
	ps = append(ps[:MaxProblems:MaxProblems], strictjson.Problem{Kind: ps[0].Kind, Msg: fmt.Sprintf("and %d more problems", more)})
	return ps
}

// convertGroups turns a legacy file's groups into templates, as the seed says: a group
// of one template becomes that template (with the group's hue); a group of several
// becomes an abstract template above them. Each group's id is then a legacy alias of the
// template it is now, beside the file's own legacyGroups (which win). Templates naming a
// group with `group` go under what it became.
func (s *System) convertGroups() {
	if len(s.Groups) == 0 {
		for i := range s.Templates {
			s.Templates[i].Group = ""
		}
		return
	}
	byID := map[string]int{}
	for i, t := range s.Templates {
		byID[t.ID] = i
	}
	aliases := map[string]string{}
	placed := map[string]bool{}
	var out []Template
	for _, g := range s.Groups {
		var kids []int
		for _, id := range g.Templates {
			if i, ok := byID[id]; ok && !placed[id] {
				kids = append(kids, i)
			}
		}
		switch {
		case len(kids) == 1:
			t := s.Templates[kids[0]]
			if t.Hue == nil {
				t.Hue = g.Hue
			}
			t.Parent = ""
			aliases[g.ID] = t.ID
			out = append(out, t)
			placed[t.ID] = true
		case len(kids) > 1:
			id := g.ID
			if _, taken := byID[id]; taken {
				id += "-all"
			}
			out = append(out, Template{ID: id, Name: g.Name, Plural: g.Name, Hue: g.Hue,
				Icon: s.Templates[kids[0]].Icon, Abstract: true})
			aliases[g.ID] = id
			for _, i := range kids {
				t := s.Templates[i]
				t.Parent = id
				out = append(out, t)
				placed[t.ID] = true
			}
		}
	}
	for _, t := range s.Templates {
		if placed[t.ID] {
			continue
		}
		if a, ok := aliases[t.Group]; ok && a != t.ID && t.Parent == "" {
			t.Parent = a
		}
		out = append(out, t)
	}
	for i := range out {
		out[i].Group = ""
	}
	for k, v := range s.LegacyGroups {
		aliases[k] = v
	}
	s.Templates, s.Groups, s.LegacyGroups = out, nil, aliases
}

// Import reads a system file a GM imports: as Parse does, and refused when its id is
// one of the built-in systems' (builtin says which), since changing a built-in means
// exporting it and giving the copy an id of its own. Re-importing an id already
// imported is the caller's update of that system.
func Import(data []byte, builtin func(id string) bool) (*System, strictjson.Problems) {
	s, ps := Parse(data)
	if s != nil && builtin != nil && builtin(s.ID) {
		return nil, strictjson.Problems{{Path: "id", Msg: fmt.Sprintf("%q is a built-in system's id: export it and give your copy an id of its own", s.ID)}}
	}
	return s, ps
}

// convertToggles turns an older file's toggles into states, when it lists no states of
// its own: player states requiring the toggle's feature, their limits warning. It
// reports whether it did, so problems can name the toggles the author wrote.
func (s *System) convertToggles() bool {
	if len(s.States) > 0 || len(s.Toggles) == 0 {
		return false
	}
	for _, tg := range s.Toggles {
		st := State{Key: tg.Key, Label: tg.Label, Who: "player", Requires: tg.Feature}
		if tg.Limit != nil {
			st.Limit = &Limit{Default: tg.Limit, Mode: "warn", Text: tg.LimitText}
		}
		s.States = append(s.States, st)
	}
	s.Toggles = nil
	return true
}
