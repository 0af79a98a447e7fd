package bot

import (
	"slices"
	"strconv"
	"strings"

	"sheetkeeper/parser"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// What a reply's post says. Its text is the message's tags written back, one per line,
// in order: the exact write-back Marinara Engine puts into a GM message, which an AI GM
// reads in the channel on its next turn. One tag a line (rather than the whole narration
// again with its tags replaced) keeps the post short, says nothing the model has not
// already read except the outcomes, and gives a front end line boundaries to split at
// when a long reply runs past a message's size. Below it, one compact embed per
// character says the same for people: each command in words, what it left, and each
// refusal explained.

// applied is one tag of a message and what the engine did with it.
type applied struct {
	tag  parser.Tag
	res  sheet.Result
	roll *rolled // a check or free roll the engine threw (check.go)
	// faces are the dice an inventory tag's use threw (inventory_use.go), kept like a
	// roll's.
	faces []int
}

// outcome is the tag rewritten in canonical form with its outcome, and that outcome's
// parts as the write-back says them.
func (a applied) outcome() Outcome {
	if a.roll != nil {
		return a.roll.outcome(a.tag)
	}
	o := a.res.Outcome.WriteBack()
	out := Outcome{Tag: a.tag.WriteBack(o)}
	if !a.tag.Malformed {
		out.Op, out.Who = a.tag.Written(a.tag.Op, parser.MaxValue), a.tag.Written(a.tag.Who, parser.MaxValue)
	}
	switch o.Result {
	case parser.ResultOK:
		out.Result, out.Now = string(o.Result), a.tag.Written(o.Now, parser.MaxNow)
	case parser.ResultRefused:
		out.Result, out.Reason = string(o.Result), a.tag.Written(string(o.Reason), parser.MaxValue)
	}
	return out
}

// Embed colours: everything applied, some of it refused, all of it refused.
const (
	colorOK      = 0x57F287
	colorPartial = 0xFEE75C
	colorRefused = 0xED4245
	colorUndone  = 0x99AAB5
)

// maxEmbeds is how many embeds one message may carry on Discord.
const maxEmbeds = 10

// unapplied titles the embed of commands refused before they reached a character.
const unapplied = "Not applied"

// render is a reply's post: the write-backs, one per line, and an embed per character.
// rs and cards (as they are after the reply) tell what each touched pool has left.
func render(rs *ruleset.Ruleset, cards []*sheet.Card, tags []applied) (string, []Embed) {
	content, embeds, _ := renderReply(rs, nil, cards, tags)
	return content, embeds
}

// renderReply is render with each tag's outcome as data, for the post's Action. sheets,
// when not nil, is the Applier that applied tags to cards just now: it reads what the
// pools have left without working each card's build out again.
func renderReply(rs *ruleset.Ruleset, sheets *sheet.Applier, cards []*sheet.Card, tags []applied) (string, []Embed, []Outcome) {
	var outs []Outcome
	if len(tags) > 0 {
		outs = make([]Outcome, len(tags))
	}
	lines := make([]string, len(tags))
	for i, a := range tags {
		outs[i] = a.outcome()
		lines[i] = outs[i].Tag
	}
	b := &embedSet{}
	b.sheets = sheets
	for _, a := range tags {
		if a.roll != nil {
			b.add(a.roll.card, "✓ "+a.roll.line, true)
			b.touch(a.roll.card, a.res.Changes())
			continue
		}
		what := phrase(a.tag)
		if len(a.res.Cards) == 0 {
			b.add(unapplied, "✗ "+what+": "+plain(a.res.Outcome.Err()), false)
			continue
		}
		for _, cr := range a.res.Cards {
			if cr.Outcome.OK() {
				b.add(cr.Card, "✓ "+what+" → "+nowWords(cr.Outcome), true)
				b.touch(cr.Card, cr.Changes)
			} else {
				b.add(cr.Card, "✗ "+what+": "+plain(cr.Outcome.Err()), false)
			}
		}
	}
	return strings.Join(lines, "\n"), b.embeds(rs, cards), outs
}

// nowWords is an applied outcome's now, with a use's raised level and targets.
func nowWords(o sheet.Outcome) string {
	s := o.Now
	if o.Level <= 0 && o.Targets <= 0 {
		return s
	}
	targets := strconv.Itoa(o.Targets) + " target"
	if o.Targets != 1 {
		targets += "s"
	}
	if o.Level > 0 {
		s += " (level " + strconv.Itoa(o.Level)
		if o.Targets > 0 {
			s += ", " + targets
		}
		s += ")"
	} else if o.Targets > 0 {
		s += " (" + targets + ")"
	}
	return s
}

// phrase says briefly what a tag asked for, in the GM's own names.
func phrase(t parser.Tag) string {
	if t.Malformed {
		return "unreadable tag"
	}
	if isRoll(t) {
		return rollPhrase(t) // check.go
	}
	if t.Kind == parser.Inventory {
		return inventoryPhrase(t) // inventory_tags.go
	}
	get := func(k string) string { v, _ := t.Get(k); return v }
	var s string
	switch t.Op {
	case "spend", "restore", "temp":
		s = t.Op + " " + get("amount") + " " + get("pool")
	case "damage":
		if track := get("track"); track != "" {
			s = "damage " + get("amount") + " " + get("kind") + " on " + track
		} else {
			s = "damage " + get("amount") + " " + get("pool")
		}
	case "track":
		if to, ok := t.Get("to"); ok {
			s = get("track") + " to " + to
		} else {
			s = get("track") + " by " + get("by")
		}
	case "condition":
		state := get("state")
		if state == "" {
			state = "on"
		}
		s = get("condition") + " " + state
	case "note":
		s = "note " + get("field")
	case "state":
		s = get("state") + " → " + get("value")
	case "rest":
		s = "rest " + get("rest")
	case "use":
		s = "use " + get("name")
		if p := get("pool"); p != "" {
			s += " from " + p
		}
	case "advance":
		s = "advance"
		for _, a := range t.Attrs {
			s += " " + a.Key + " " + a.Value
		}
	default:
		parts := []string{t.Op}
		for _, a := range t.Attrs {
			parts = append(parts, a.Value)
		}
		s = strings.Join(parts, " ")
	}
	return parser.CollapseSpace(s)
}

// embedSet gathers lines per character, in the order characters first appear: a reply
// names a character or a few, so they are looked for in a slice, not kept in maps.
type embedSet struct {
	chars []charLines
	// sheets reads the cards' live states when set (renderReply); nil reads them afresh.
	sheets *sheet.Applier
}

// charLines is one character's lines, how many of them applied (ok) and were refused
// (bad), and the pool keys its changes touched, in order.
type charLines struct {
	name    string
	lines   []string
	ok, bad int
	pools   []string
}

// of is name's entry, added at the end when it has none yet.
func (b *embedSet) of(name string) *charLines {
	for i := range b.chars {
		if b.chars[i].name == name {
			return &b.chars[i]
		}
	}
	b.chars = append(b.chars, charLines{name: name})
	return &b.chars[len(b.chars)-1]
}

func (b *embedSet) add(name, line string, ok bool) {
	c := b.of(name)
	c.lines = append(c.lines, line)
	if ok {
		c.ok++
	} else {
		c.bad++
	}
}

// touch notes the pools changes moved, to say what they have left.
func (b *embedSet) touch(name string, changes []sheet.Change) {
	for _, ch := range changes {
		if key, ok := strings.CutPrefix(ch.Path, sheet.PathPools); ok {
			if c := b.of(name); !slices.Contains(c.pools, key) {
				c.pools = append(c.pools, key)
			}
		}
	}
}

// embeds builds one embed per character (at most maxEmbeds; the last says how many more
// there were), with a "Left" field listing each touched pool as value/max.
func (b *embedSet) embeds(rs *ruleset.Ruleset, cards []*sheet.Card) []Embed {
	out := make([]Embed, 0, len(b.chars))
	for i := range b.chars {
		c := &b.chars[i]
		if i == maxEmbeds-1 && len(b.chars) > maxEmbeds {
			out = append(out, Embed{Title: "…", Description: strconv.Itoa(len(b.chars)-i) + " more characters: see the tags above", Color: colorPartial})
			break
		}
		e := Embed{Title: c.name, Description: strings.Join(c.lines, "\n"), Color: colorOK}
		switch {
		case c.ok == 0:
			e.Color = colorRefused
		case c.bad > 0:
			e.Color = colorPartial
		}
		if left := b.poolsLeft(rs, cards, c); left != "" {
			e.Fields = []EmbedField{{Name: "Left", Value: left}}
		}
		out = append(out, e)
	}
	return out
}

// poolsLeft lists the pools touched on c's card as they stand: "Hit Points
// 5/12 +3 temp · Spell Slots 1st 2/4".
func (b *embedSet) poolsLeft(rs *ruleset.Ruleset, cards []*sheet.Card, c *charLines) string {
	keys := c.pools
	if len(keys) == 0 || rs == nil {
		return ""
	}
	card, err := sheet.FindCard(cards, c.name)
	if err != nil {
		return ""
	}
	pool := func(key string) *sheet.Pool { return b.sheets.Pool(card, key) }
	if b.sheets == nil {
		pool = sheet.LiveOf(rs, card).Pool
	}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		if p := pool(k); p != nil {
			parts = append(parts, p.Label+" "+sheet.PoolNow(p, p.Value, p.Temp))
		}
	}
	return strings.Join(parts, " · ")
}

// renderUndone is the post of a reply whose changes were undone (its message deleted, or
// its Undo pressed): head saying why, no tags (nothing in it stands any more), and per
// character what was put back.
func renderUndone(rs *ruleset.Ruleset, cards []*sheet.Card, reverted []sheet.Change, head string) (string, []Embed) {
	content := head
	if len(reverted) == 0 {
		return content, nil
	}
	b := &embedSet{}
	for _, ch := range reverted {
		if _, ok := strings.CutPrefix(ch.Path, sheet.PathPools); ok {
			b.touch(ch.Card, []sheet.Change{ch})
			continue
		}
		b.add(ch.Card, "↩ "+changeWords(rs, ch), true)
	}
	embeds := b.embeds(rs, cards)
	for i := range embeds {
		embeds[i].Color = colorUndone
		if embeds[i].Description == "" {
			embeds[i].Description = "↩ pools put back"
		}
	}
	return content, embeds
}

// changeWords says, in the ruleset's words, what a reverted change put back: "Soaked
// off", "Rising Tide back to 2", "Experience back to 300", "Scars: marks put back".
func changeWords(rs *ruleset.Ruleset, ch sheet.Change) string {
	kind, id, ok := cutPath(ch.Path)
	if !ok {
		return ch.Path + " put back"
	}
	name := labelOf(rs, kind, id)
	switch kind {
	case sheet.PathConditions:
		if ch.After == true {
			return name + " on"
		}
		return name + " off"
	case sheet.PathWounds:
		return name + ": marks put back"
	case sheet.PathLists:
		return name + ": rows put back"
	}
	switch v := ch.After.(type) {
	case nil:
		return name + " back to its default"
	case float64:
		return name + " back to " + strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return name + " back to " + v
	case bool:
		return name + " back to " + map[bool]string{true: "on", false: "off"}[v]
	}
	return name + " put back"
}

// cutPath splits a change path into its kind (one of sheet's Path prefixes) and the id
// of the thing it changed.
func cutPath(path string) (kind, id string, ok bool) {
	for _, k := range []string{sheet.PathPools, sheet.PathTracks, sheet.PathWounds, sheet.PathText, sheet.PathConditions,
		sheet.PathStates, sheet.PathAbilities, sheet.PathSkills, sheet.PathSaves, sheet.PathBonuses, sheet.PathFields, sheet.PathLists} {
		if rest, found := strings.CutPrefix(path, k); found {
			id, _, _ = strings.Cut(rest, "[")
			return k, id, true
		}
	}
	return "", "", false
}

// labelOf is the ruleset's label of the thing of kind with id, or the id itself.
// A skill path also names bonuses, which may be a skill's or a save's (their ids never
// clash: the checks refuse a save id that is a skill id).
func labelOf(rs *ruleset.Ruleset, kind, id string) string {
	sh := &rs.Sheet
	switch kind {
	case sheet.PathTracks, sheet.PathWounds:
		if t := sh.Live.Track(id); t != nil {
			return t.Label
		}
	case sheet.PathText:
		if i := slices.IndexFunc(sh.Live.Text, func(t ruleset.LiveText) bool { return t.ID == id }); i >= 0 {
			return sh.Live.Text[i].Label
		}
	case sheet.PathConditions:
		if c := sh.Live.Condition(id); c != nil {
			return c.Label
		}
	case sheet.PathStates:
		if s := sh.Live.State(id); s != nil {
			return s.Label
		}
	case sheet.PathAbilities:
		if a := sh.Ability(id); a != nil {
			return a.Label
		}
	case sheet.PathSkills, sheet.PathBonuses:
		if k := sh.Skill(id); k != nil {
			return k.Label
		}
		if k := sh.Save(id); k != nil {
			return k.Label
		}
	case sheet.PathSaves:
		if k := sh.Save(id); k != nil {
			return k.Label
		}
	case sheet.PathFields:
		if f := sh.Field(id); f != nil {
			return f.Label
		}
	case sheet.PathLists:
		if l := sh.List(id); l != nil {
			return l.Label
		}
	}
	return id
}

// earlierEdit is what the bot says when the GM edits a reply that is not the latest.
const earlierEdit = "✎ That edit was not applied: a later reply already builds on this message, so its tags stand as first applied. Write the change in a new message, or delete the later replies first."

// heldEdit is the post of a regenerate refused because the holdings its reply changed
// have changed since where it touched them (holdingsRevert).
const heldEdit = "✎ That edit was not applied: an item this message changed has changed since (by its own rules or by hand), so its changes cannot be undone, and the new text would give or take on top of them. Undo by hand what should go, then write the change in a new message."

// noTagsLeft is the post of a regenerated reply whose new text carries no tag to apply.
const noTagsLeft = "✎ The message no longer asks for anything: its earlier changes were undone."
