package inventory

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"unicode"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/rules"
)

// The GM invents items in the ruleset's words (Marinara's guide, What reads items): an
// add tag describes a new item with like=, category=, rarity=, tags=, stats=, slots=,
// binds= and summary=, each part by its id or label. Only what the items block has is
// kept: an unknown category, tag, stat or slot is left out, a rarity the block has not
// becomes its lowest, a number is held to its stat's range and then to the rarity's cap
// (what like= started it from as well). Holding is not refusing — the item is made and
// the answer says what changed — so a small model's near miss still adds the thing the
// story has. What cannot be read at all (a number stat given words) is refused.

// Invention is an item the GM describes: the tag's attributes as written.
type Invention struct {
	Name string
	// Like names one of the ruleset's items to start from.
	Like     string
	Category string
	Rarity   string
	// Tags: a list split by commas ("none" for none).
	Tags string
	// Stats: id=value pairs split by commas or semicolons; Slots: id=count pairs.
	Stats string
	Slots string
	// Binds: yes, cursed or no.
	Binds string
	// Worn and Carried: what the item does to its holder's checks while worn and while
	// only carried, changes split by ";" (see effectsReader).
	Worn, Carried string
	Summary       string
}

// Invented is what Invent made: the item, the file form the table keeps
// (Campaign.ParseItem reads it back into the same item), and what was changed from what
// the GM wrote, in words for the GM (never about a stat the GM is not shown). Known: the
// name is one of the ruleset's items, or one invented before, and Item is simply that.
type Invented struct {
	Item  *Item
	Data  []byte
	Notes []string
	Known bool
}

// InventedPrefix starts an invented item's id, so it never takes a catalog item's, and
// the table tells what the GM invented from a player's own items by it.
const InventedPrefix = "gm/"

// maxSummary bounds an invented item's summary, in characters.
const maxSummary = 1000

// Invent makes the item the GM describes, held to the ruleset's words and caps. A
// system not derived from a ruleset, or one whose items block says `propose: false`, is
// refused (not-allowed); so is a description that cannot be read. The campaign is not
// changed: the caller adds the item to Invented once the tag is applied.
func (c *Campaign) Invent(in Invention) (*Invented, error) {
	w := c.System.words
	switch {
	case w == nil:
		return nil, refusal.New(refusal.NotAllowed, "items are invented only in a ruleset's words, and this game's inventory is no ruleset's")
	case w.Propose != nil && !*w.Propose:
		return nil, refusal.New(refusal.NotAllowed, "the ruleset does not let the GM invent items")
	}
	if err := checkItemName(in.Name); err != nil {
		return nil, err
	}
	if it := c.named(in.Name); it != nil {
		return &Invented{Item: it, Known: true}, nil
	}
	iv := &inventor{c: c, w: w, raw: c.likeRaw(in.Like)}
	if in.Like != "" && iv.raw == nil {
		iv.note("%q is none of the ruleset's items: nothing was started from", in.Like)
	}
	if iv.raw != nil {
		iv.likeEffects(&in)
	}
	if iv.raw == nil {
		iv.raw = map[string]any{}
	}
	name := trimName(in.Name)
	iv.raw["id"], iv.raw["name"] = c.inventedID(name), name
	iv.category(in.Category)
	iv.rarity(in.Rarity)
	iv.tags(in.Tags)
	if err := iv.stats(in.Stats, &in); err != nil {
		return nil, err
	}
	iv.slots(in.Slots)
	slotted(iv.raw)
	iv.binds(in.Binds)
	iv.summary(in.Summary)
	iv.holdAll()
	iv.effects(&in)
	data, err := json.Marshal(iv.raw)
	if err != nil {
		return nil, err
	}
	it, ps := c.ParseItem(data)
	if len(ps) > 0 { // the inventor writes only what the system takes: a bug
		return nil, fmt.Errorf("inventory: invented item %q failed its system's checks: %v", name, ps)
	}
	return &Invented{Item: it, Data: data, Notes: iv.notes}, nil
}

// likeRaw is a copy of the file form of the catalog item like names (by id or name), less
// its description (that item's own words, not the new one's), or nil for none.
func (c *Campaign) likeRaw(like string) map[string]any {
	if strings.TrimSpace(like) == "" {
		return nil
	}
	s := c.System
	it := s.CatalogItem(like)
	want := ruleset.FoldName(like)
	for i, x := range s.Catalog {
		if x == it || it == nil && ruleset.FoldName(x.Name) == want {
			raw := maps.Clone(s.RawCatalog[i])
			delete(raw, "description")
			return raw
		}
	}
	return nil
}

// inventedID is an id no catalog or invented item has: gm/ and the name as a slug.
func (c *Campaign) inventedID(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
		if b.Len() >= 60 {
			break
		}
	}
	base := InventedPrefix + b.String()
	if b.Len() == 0 {
		base += "item"
	}
	taken := func(id string) bool {
		if c.System.CatalogItem(id) != nil {
			return true
		}
		for _, it := range c.Invented {
			if it.ID == id {
				return true
			}
		}
		return false
	}
	id := base
	for n := 2; taken(id); n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	return id
}

// inventor builds one invented item's file form, noting what it changed.
type inventor struct {
	c     *Campaign
	w     *ruleset.Items
	raw   map[string]any
	notes []string
}

func (iv *inventor) note(format string, args ...any) {
	iv.notes = append(iv.notes, fmt.Sprintf(format, args...))
}

// word finds one of ws by id or label (folded), else "".
func word(ws []ruleset.ItemWord, s string) string {
	want := ruleset.FoldName(s)
	for _, w := range ws {
		if w.ID == s || ruleset.FoldName(w.Label) == want {
			return w.ID
		}
	}
	return ""
}

func wordLabel(ws []ruleset.ItemWord, id string) string {
	for _, w := range ws {
		if w.ID == id {
			return w.Label
		}
	}
	return id
}

// category sets the item's category: the one named, else like's, else the block's first.
func (iv *inventor) category(s string) {
	cats := iv.w.Categories
	if s = strings.TrimSpace(s); s != "" {
		if id := word(cats, s); id != "" {
			iv.raw["type"] = id
			return
		}
		iv.note("%q is no item category: left out", s)
	}
	if _, ok := iv.raw["type"].(string); ok {
		return
	}
	iv.raw["type"] = cats[0].ID
	iv.note("made a %s, the first category, since none was given", cats[0].Label)
}

// rarity sets the item's rarity: the one named, else like's, else (and for one the block
// has not) the lowest, so a cap always holds it.
func (iv *inventor) rarity(s string) {
	rs := iv.w.Rarities
	if len(rs) == 0 {
		if strings.TrimSpace(s) != "" {
			iv.note("the ruleset has no rarities: %q left out", s)
		}
		return
	}
	s = strings.TrimSpace(s)
	if s != "" {
		if id := word(rs, s); id != "" {
			iv.raw["rarity"] = id
			return
		}
		iv.raw["rarity"] = rs[0].ID
		iv.note("%q is no rarity: made %s, the lowest", s, rs[0].Label)
		return
	}
	if _, ok := iv.raw["rarity"].(string); !ok {
		iv.raw["rarity"] = rs[0].ID
	}
}

// tags sets the item's tags (replacing like's when any are written).
func (iv *inventor) tags(s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	var out []any
	var unknown []string
	if !strings.EqualFold(s, "none") {
		for _, t := range strings.Split(s, ",") {
			if t = strings.TrimSpace(t); t == "" {
				continue
			}
			if id := word(iv.w.Tags, t); id != "" {
				out = append(out, id)
			} else {
				unknown = append(unknown, t)
			}
		}
	}
	if len(unknown) > 0 {
		iv.note("no such item tags: %s (left out)", rules.Clip(strings.Join(unknown, ", ")))
	}
	if len(out) == 0 {
		delete(iv.raw, "tags")
		return
	}
	iv.raw["tags"] = out
}

// summary sets the item's description: one line, at most maxSummary characters.
func (iv *inventor) summary(s string) {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsControl(r) }), " ")
	if s = strings.TrimSpace(s); s == "" {
		return
	}
	if r := []rune(s); len(r) > maxSummary {
		s = string(r[:maxSummary])
		iv.note("the summary is cut to %d characters", maxSummary)
	}
	iv.raw["description"] = s
}

// effects reads worn= and carried= (replacing like's), a bonus held to the rarity's cap,
// into the item's worn and carried fields in the words ItemEffects reads back.
func (iv *inventor) effects(in *Invention) {
	sheet := iv.c.System.sheet
	if sheet == nil {
		return
	}
	r := &effectsReader{sheet: sheet, cap: iv.bonusCap()}
	for _, e := range []struct{ key, text string }{{"worn", in.Worn}, {"carried", in.Carried}} {
		if strings.TrimSpace(e.text) == "" {
			continue
		}
		if iv.stat(e.key) != nil {
			iv.note("%s= is the ruleset's stat %q here, given in stats=: left out", e.key, e.key)
			continue
		}
		_, canon := r.read(e.key, e.text)
		if canon == "" {
			delete(iv.raw, e.key)
			continue
		}
		iv.raw[e.key] = canon
		_, slotted := iv.raw["slot"]
		features, _ := iv.raw["features"].(map[string]any)
		if e.key == "worn" && !slotted && features[bindsFeature] != true {
			iv.note("it takes no slot and does not bind, so it is never worn: worn= does nothing until it does")
		}
	}
	iv.notes = append(iv.notes, r.notes...)
}

// bonusCap is the most a worn or carried bonus may add at the item's rarity, or nil.
func (iv *inventor) bonusCap() *int {
	rarity, _ := iv.raw["rarity"].(string)
	for _, rc := range iv.w.RarityCaps {
		if rc.Rarity == rarity {
			return rc.Bonus
		}
	}
	return nil
}

// likeEffects starts worn= and carried= from what the like= item does, where the GM wrote
// none of their own (held to the rarity's cap with the rest).
func (iv *inventor) likeEffects(in *Invention) {
	id, _ := iv.raw["id"].(string)
	ri := iv.c.System.RulesetItem(id)
	if ri == nil || iv.c.System.sheet == nil {
		return
	}
	for _, e := range []struct {
		key  string
		to   *string
		from *ruleset.ItemEffect
	}{{"worn", &in.Worn, ri.Worn}, {"carried", &in.Carried, ri.Carried}} {
		if strings.TrimSpace(*e.to) != "" || e.from == nil {
			continue
		}
		text, whole := effectWords(e.from, iv.c.System.sheet)
		*e.to = text
		if !whole {
			iv.note("what %s does while %s is copied only as far as checks, saves and abilities go", in.Like, e.key)
		}
	}
}
