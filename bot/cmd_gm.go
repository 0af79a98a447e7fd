package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"sheetkeeper/catalog"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// /gm brief: what an AI Game Master is fed, so a person can see it, check it, and paste
// it into a model that is not connected to Marinara. Three parts:
//
//   - the ruleset's GM text: how to call for checks, the world, how to use the sheets,
//     with the campaign's layers' guidance appended after the ruleset's own;
//   - the check tags, generated from the ruleset's resolution: [skill_check:] with this
//     ruleset's skills, saves, abilities, difficulty ladder and what its dice let a GM
//     ask of a roll, and [dice:] — the engine throws both (SPEC 3.6);
//   - the tag instructions, generated from the ruleset: every op of the sheet tag, each
//     shown with a name this ruleset really has (its pools, tracks, conditions, states,
//     notes and rests), only the ops the ruleset can use, and the names a command may
//     take listed once (Marinara teaches the same grammar in its GM prompt);
//   - each character's sheet block, as gm.sheetSummary asks: a compact summary, not the
//     sheet — what a GM needs to narrate honestly and to write a command that will not be
//     refused.
//
// It is seen only by the GM who asked, split into messages of at most 2,000 characters at
// line breaks, each in a code block (copied as plain text, and never read as a tag).

// gmCommands adds /gm brief.
func gmCommands(r *router) {
	r.command(CommandSpec{
		Name:        "gm brief",
		Description: "What an AI GM is fed: the ruleset's GM text, the tag instructions and every character's sheet block",
		GMOnly:      true,
	}, (*Core).cmdGMBrief)
}

func (c *Core) cmdGMBrief(ctx context.Context, cmd Command) (Response, error) {
	var t *table
	var inv *briefInventory
	err := c.store.View(ctx, func(tx storage.Tx) (err error) {
		if t, err = c.gmTable(tx, cmd); err != nil {
			return err
		}
		inv = c.briefInventoryOf(t)
		return nil
	})
	if err != nil {
		return Response{}, err
	}
	// The gm-player panels run once the transaction is over (they are untrusted and
	// slow), and the brief is written from what it read.
	c.drawBriefPanels(ctx, inv)
	// One text block, however long: a front end with a message limit splits it
	// (Discord's adapter closes and reopens the block at each cut).
	return Response{Ephemeral: true, Content: "```text\n" + gmBrief(t.rules, t.catalogs, t.camp, t.cards, inv) + "\n```"}, nil
}

// gmBrief is the whole brief as text; inv is the campaign's inventories (nil: none).
func gmBrief(l *ruleset.Loaded, ix *catalog.Index, camp *storage.Campaign, cards []*sheet.Card, inv *briefInventory) string {
	rs := l.Ruleset
	layers := catalog.Layers(rs, camp.Layers)
	var b strings.Builder
	fmt.Fprintf(&b, "GM BRIEF: %s (%s v%d)", rs.Name, camp.Ruleset.ID, camp.Ruleset.Version)
	if len(layers) > 0 {
		labels := make([]string, len(layers))
		for i, ly := range layers {
			labels[i] = ly.Label
		}
		b.WriteString(" with " + strings.Join(labels, ", "))
	}
	b.WriteString("\n\nCHECKS\n" + rs.GM.CheckGuidance)
	for _, ly := range layers {
		if ly.GM != nil && ly.GM.Guidance != "" {
			b.WriteString(" " + ly.GM.Guidance)
		}
	}
	world := ""
	if rs.GM.WorldGuidance != nil {
		world = *rs.GM.WorldGuidance
	}
	for _, ly := range layers {
		if ly.GM != nil && ly.GM.WorldGuidance != "" {
			world = strings.TrimSpace(world + " " + ly.GM.WorldGuidance)
		}
	}
	if world != "" {
		b.WriteString("\n\nWORLD\n" + world)
	}
	b.WriteString("\n\n" + checkInstructions(rs, checkEntryExample(l)))
	b.WriteString("\n\n" + tagInstructions(l))
	if inv != nil {
		b.WriteString("\n\n" + inv.inventoryInstructions())
	}
	b.WriteString("\n\nCHARACTER SHEETS")
	if len(cards) == 0 {
		b.WriteString("\n(nobody has joined this game yet)")
	}
	for _, card := range cards {
		b.WriteString("\n\n" + sheetBlock(l, ix, card, inv.holdings(card)))
		if inv != nil {
			b.WriteString("\n" + inv.characterLines(card))
		}
	}
	return b.String()
}

// tagInstructions teaches the sheet tag with this ruleset's own names.
func tagInstructions(l *ruleset.Loaded) string {
	rs := l.Ruleset
	plainTracks, woundTracks := splitTracks(&rs.Sheet.Live)
	lines := []string{
		"SHEET TAGS",
		"sheetkeeper keeps every character's sheet. Write one tag for each change, in the narration where it happens; the bot applies it and answers with the tag rewritten with its outcome:",
	}
	lines = append(lines, tagExamples(l, plainTracks, woundTracks)...)
	lines = append(lines, `Leave out who= for the character of the player you answer; who="party" applies to every character. Use the names listed here or shown on the sheets. Never write result, reason or now yourself: sheetkeeper adds them. A refused command did not happen, so do not narrate it as if it had. At most 40 commands in one message.`)
	lines = append(lines, nameLines(rs, plainTracks, woundTracks)...)
	if rs.GM.SheetGuidance != "" {
		lines = append(lines, rs.GM.SheetGuidance)
	}
	return strings.Join(lines, "\n")
}

// splitTracks parts the live tracks into plain tracks and wound tracks, each in order.
func splitTracks(live *ruleset.Live) (plain, wound []*ruleset.Track) {
	for i := range live.Tracks {
		if t := &live.Tracks[i]; t.IsWound() {
			wound = append(wound, t)
		} else {
			plain = append(plain, t)
		}
	}
	return plain, wound
}

// tagExamples is a line per op the ruleset can use, each with a name it really has.
func tagExamples(l *ruleset.Loaded, plainTracks, woundTracks []*ruleset.Track) []string {
	rs := l.Ruleset
	live := &rs.Sheet.Live
	lines := poolExamples(live)
	lines = append(lines, trackExamples(plainTracks, woundTracks)...)
	if len(live.Conditions) > 0 {
		lines = append(lines, `- [sheet: who="Name" op="condition" condition="`+tagValue(live.Conditions[0].Label)+`" state="on"] turns a condition on, state="off" off.`)
	}
	if len(live.States) > 0 {
		s := &live.States[0]
		lines = append(lines, `- [sheet: who="Name" op="state" state="`+tagValue(s.Label)+`" value="`+tagValue(s.ValueLabel(s.DefaultValue()))+`"] sets a state to one of its values.`)
	}
	if len(live.Text) > 0 {
		lines = append(lines, `- [sheet: who="Name" op="note" field="`+tagValue(live.Text[0].Label)+`" value="text"] writes a note; an empty value clears it.`)
	}
	if len(rs.Rests) > 0 {
		lines = append(lines, `- [sheet: who="Name" op="rest" rest="`+tagValue(rs.Rests[0].Label)+`"] takes a rest: it restores exactly what the ruleset says, nothing more.`)
	}
	if entry, up := useExample(l); entry != "" {
		lines = append(lines, `- [sheet: who="Name" op="use" name="`+tagValue(entry)+`"] uses something on the sheet that came from a catalog and pays what it costs, all or nothing (op="cast" and spell= mean the same).`+up.words())
	}
	if adv := rs.Sheet.Advancement; adv != nil {
		lines = append(lines, advanceLine(rs, adv))
	}
	return lines
}

// poolExamples shows spend, restore and damage on the first pool that holds temporary
// points (else the first pool), and temp on it when it holds them.
func poolExamples(live *ruleset.Live) []string {
	var plainPool, tempPool *ruleset.LivePool
	for i := range live.Pools {
		p := &live.Pools[i]
		if plainPool == nil {
			plainPool = p
		}
		if tempPool == nil && p.AllowTemp {
			tempPool = p
		}
	}
	if tempPool != nil {
		plainPool = tempPool
	}
	if plainPool == nil {
		return nil
	}
	pool := tagValue(plainPool.Label)
	lines := []string{
		`- [sheet: who="Name" op="spend" pool="` + pool + `" amount="N"] takes N from a pool; refused when there is not that much left.`,
		`- [sheet: who="Name" op="restore" pool="` + pool + `" amount="N"] gives N back, never past the maximum (op="heal" is the same).`,
		`- [sheet: who="Name" op="damage" pool="` + pool + `" amount="N"] is harm: temporary points go first, then the pool, which stops at 0.`,
	}
	if tempPool != nil {
		lines = append(lines, `- [sheet: who="Name" op="temp" pool="`+pool+`" amount="N"] sets a pool's temporary points (only pools that hold them); amount="0" clears them.`)
	}
	return lines
}

// trackExamples shows track on the first plain track and damage on the first wound
// track, with box= when any wound track fills by box.
func trackExamples(plainTracks, woundTracks []*ruleset.Track) []string {
	var lines []string
	if len(plainTracks) > 0 {
		lines = append(lines, `- [sheet: who="Name" op="track" track="`+tagValue(plainTracks[0].Label)+`" by="1"] moves a track up (by="-1" down), or to="N" sets it; it stays within its bounds.`)
	}
	if len(woundTracks) == 0 {
		return lines
	}
	t := woundTracks[0]
	kind := "kind"
	if len(t.Kinds) > 0 {
		kind = t.Kinds[0].ID
	}
	lines = append(lines, `- [sheet: who="Name" op="damage" track="`+tagValue(t.Label)+`" kind="`+kind+`" amount="1"] marks harm of that kind on a wound track; a negative amount heals marks (of that kind, or the lightest when kind is left out).`)
	for _, w := range woundTracks {
		if w.Fill == "indexed" {
			lines = append(lines, `  On a track that fills by box, box="N" names the box a mark lands on (the next free one above when it is marked; refused when none is free).`)
			break
		}
	}
	return lines
}

// nameLines lists, once, the names a command may take: pools, tracks, wound tracks,
// notes, conditions, states and rests.
func nameLines(rs *ruleset.Ruleset, plainTracks, woundTracks []*ruleset.Track) []string {
	live := &rs.Sheet.Live
	var lines []string
	if len(live.Pools) > 0 {
		lines = append(lines, "Pools: "+labels(len(live.Pools), func(i int) string { return poolName(&live.Pools[i]) })+". List rows with uses are pools too, by the row's name (shown on the sheets).")
	}
	if len(plainTracks) > 0 {
		lines = append(lines, "Tracks: "+labels(len(plainTracks), func(i int) string { return trackName(plainTracks[i]) })+".")
	}
	if len(woundTracks) > 0 {
		lines = append(lines, "Wound tracks: "+labels(len(woundTracks), func(i int) string { return woundTrackName(woundTracks[i]) })+".")
	}
	if len(live.Text) > 0 {
		lines = append(lines, "Notes: "+labels(len(live.Text), func(i int) string { return live.Text[i].Label })+".")
	}
	if len(live.Conditions) > 0 {
		lines = append(lines, "Conditions: "+labels(len(live.Conditions), func(i int) string { return live.Conditions[i].Label })+".")
	}
	if len(live.States) > 0 {
		lines = append(lines, "States: "+labels(len(live.States), func(i int) string {
			s := &live.States[i]
			return s.Label + " (" + labels(len(s.Values), func(j int) string { return s.ValueLabel(s.Values[j]) }) + ")"
		})+".")
	}
	if len(rs.Rests) > 0 {
		lines = append(lines, "Rests: "+labels(len(rs.Rests), func(i int) string { return rs.Rests[i].Label })+".")
	}
	return lines
}

// poolName is a pool's label with what sets it apart: its group, temporary points, and
// the pools it also pays for.
func poolName(p *ruleset.LivePool) string {
	var notes []string
	if p.Group != "" {
		notes = append(notes, "group "+p.Group)
	}
	if p.AllowTemp {
		notes = append(notes, "holds temporary points")
	}
	if len(p.Pays) > 0 {
		notes = append(notes, "also pays for "+strings.Join(p.Pays, ", "))
	}
	if len(notes) == 0 {
		return p.Label
	}
	return p.Label + " (" + strings.Join(notes, "; ") + ")"
}

// trackName is a plain track's label with its bounds.
func trackName(t *ruleset.Track) string {
	hi := "the character's own maximum"
	if t.MaxNumber != nil {
		hi = strconv.Itoa(*t.MaxNumber)
	}
	return fmt.Sprintf("%s (%d to %s)", t.Label, t.Min, hi)
}

// woundTrackName is a wound track's label with its shape and the kinds of harm it takes.
func woundTrackName(t *ruleset.Track) string {
	shape := "numbered boxes"
	if len(t.Levels) > 0 {
		shape = t.Levels[0].Label + " to " + t.Levels[len(t.Levels)-1].Label
	}
	if t.Fill == "indexed" {
		shape += ", fills by box"
	}
	if t.OnFull == "refuse" || t.Fill == "indexed" {
		shape += ", refuses a mark when full"
	}
	kinds := labels(len(t.Kinds), func(j int) string { return t.Kinds[j].ID })
	return t.Label + " (" + shape + "; kinds " + kinds + ")"
}

// labels joins n labels with commas.
func labels(n int, label func(int) string) string {
	out := make([]string, n)
	for i := range out {
		out[i] = label(i)
	}
	return strings.Join(out, ", ")
}

// tagValue makes a name safe inside a tag's double quotes.
func tagValue(s string) string {
	return strings.NewReplacer(`"`, "", "[", "", "]", "").Replace(s)
}

// useExample picks a use example from the ruleset's catalogs of rows: an entry whose cost
// is one term of a pool group (so an upcast can be shown with a higher pool of the group,
// or a pool that pays for it), else any entry. "" when the ruleset has no rows catalog.
func useExample(l *ruleset.Loaded) (entry string, up upcastPools) {
	rs := l.Ruleset
	for i := range rs.Catalogs {
		cat := &rs.Catalogs[i]
		if cat.Kind() != "rows" {
			continue
		}
		entries, err := l.Entries(cat.ID)
		if err != nil {
			continue
		}
		for j := range entries {
			e := &entries[j]
			if entry == "" {
				entry = e.Label
			}
			if e.Mechanics == nil || len(e.Mechanics.Cost) != 1 {
				continue
			}
			if up := upcastFor(rs, e.Mechanics.Cost[0].Pool); up.higher != "" || len(up.pays) > 0 {
				return e.Label, up
			}
		}
	}
	if entry == "" && len(rs.Catalogs) > 0 {
		for _, cat := range rs.Catalogs {
			if cat.Kind() == "rows" {
				return "Name on the sheet", upcastPools{}
			}
		}
	}
	return entry, upcastPools{}
}

// upcastPools is what the brief teaches pool= with, in the ruleset's own names: a higher
// pool of a cost's group, the pools of other groups that pay for it, and that group.
type upcastPools struct {
	higher string
	pays   []string
	group  string
}

// upcastFor is the upcastPools of a cost on target: the pool after target in its group
// (for a cost on a group, its second pool), and every pool that pays for the group.
func upcastFor(rs *ruleset.Ruleset, target string) upcastPools {
	group, own := target, ""
	if p := rs.Sheet.Live.Pool(target); p != nil {
		group, own = p.Group, p.ID
	}
	if group == "" {
		return upcastPools{}
	}
	up := upcastPools{group: group}
	seen := false
	for _, p := range rs.Sheet.Live.Pools {
		if p.Group != group || up.higher != "" {
			continue
		}
		if seen && p.ID != own {
			up.higher = p.Label
		}
		if own == "" || p.ID == own {
			seen = true
		}
	}
	for _, p := range rs.Sheet.Live.Pools {
		if slices.Contains(p.Pays, group) {
			up.pays = append(up.pays, p.Label)
		}
	}
	return up
}

// words is the sentence that teaches pool= (SPEC 5.5) with these pools, or "" when
// there are none: an upcast for a stronger effect, the pools that pay for the group, and
// that a cost on an empty pool never climbs by itself — the GM names the one to pay
// from (a refusal says which could).
func (up upcastPools) words() string {
	var asks []string
	if up.higher != "" {
		asks = append(asks, `Add pool="`+tagValue(up.higher)+`" to pay from a higher pool of its group for a stronger effect`)
	}
	for _, p := range up.pays {
		lead := `Add pool="`
		if len(asks) > 0 {
			lead = `or pool="`
		}
		asks = append(asks, lead+tagValue(p)+`", which pays for `+up.group+` at its own level`)
	}
	if len(asks) == 0 {
		return ""
	}
	return " " + strings.Join(asks, ", ") + ". A cost on an empty pool never climbs to a higher one by itself: name one that has some left (a refused use names them)."
}

// advanceLine teaches advance with what the ruleset allows.
func advanceLine(rs *ruleset.Ruleset, adv *ruleset.Advancement) string {
	var example string
	var allowed []string
	if len(adv.Fields) > 0 {
		var names []string
		for _, id := range adv.Fields {
			f := rs.Sheet.Field(id)
			if f == nil {
				continue
			}
			names = append(names, f.Label)
			if example == "" && f.Type == "number" {
				example = `field="` + tagValue(f.Label) + `" by="1"`
			}
		}
		if len(names) > 0 {
			allowed = append(allowed, "fields "+strings.Join(names, ", "))
		}
		if example == "" && len(names) > 0 {
			example = `field="` + tagValue(names[0]) + `" to="text"`
		}
	}
	if adv.Abilities && len(rs.Sheet.Abilities) > 0 {
		allowed = append(allowed, "abilities")
		if example == "" {
			example = `ability="` + tagValue(rs.Sheet.Abilities[0].Label) + `" by="1"`
		}
	}
	tiers := labels(len(rs.Resolution.ProficiencyTiers), func(i int) string { return rs.Resolution.ProficiencyTiers[i].Label })
	if adv.Skills && len(rs.Sheet.Skills) > 0 {
		allowed = append(allowed, "skills")
		if example == "" && len(rs.Resolution.ProficiencyTiers) > 1 {
			example = `skill="` + tagValue(rs.Sheet.Skills[0].Label) + `" tier="` + tagValue(rs.Resolution.ProficiencyTiers[1].Label) + `"`
		}
	}
	if adv.Saves && len(rs.Sheet.Saves) > 0 {
		allowed = append(allowed, "saves")
	}
	if example == "" {
		example = `field="Field" by="1"`
	}
	line := `- [sheet: who="Name" op="advance" ` + example + `] is permanent growth: exactly one of field, ability, skill or save, with by="N" or to="N" (a skill or save takes tier="` + tiers + `").`
	if len(allowed) > 0 {
		line += " This ruleset lets these grow: " + strings.Join(allowed, "; ") + "."
	}
	if adv.Text != nil && *adv.Text != "" {
		line += " " + *adv.Text
	}
	return line
}

// enginePlays reports whether the engine rolls this ruleset's checks (package check
// resolves dice-sum and dice-pool). The brief never promises a roll it cannot make.
func enginePlays(res *ruleset.Resolution) bool {
	return res.Kind == "dice-sum" || res.Kind == "dice-pool"
}

// checkInstructions teaches the check tag with this ruleset's own skills, saves,
// abilities and ladder, and only the options its resolution lets a GM ask for.
// entry is a catalog entry whose mechanics change a check ("" for none), for use=.
func checkInstructions(rs *ruleset.Ruleset, entry string) string {
	res := &rs.Resolution
	if !enginePlays(res) {
		return "CHECK TAGS\nsheetkeeper does not roll this ruleset's checks (its resolution is " + strconv.Quote(res.Kind) +
			"): ask the players to roll, and write what the roll changed with sheet tags. [dice: 2d6+1] still rolls free dice."
	}
	lines := []string{"CHECK TAGS", "sheetkeeper throws every check itself, " + rollWords(res) +
		". Call for one with a tag where the roll happens; the bot answers with the tag rewritten with the dice, every number it used and the result:"}
	lines = append(lines, checkExamples(rs)...)
	if entry != "" {
		lines = append(lines, `- use="`+tagValue(entry)+`" uses an entry on the character's sheet that changes the roll: it is paid as op="use" pays it, with the check, and the check is refused when it cannot be.`)
	}
	lines = append(lines, `- [dice: 2d6+1] rolls free dice: NdM, + or - a number, kh or kl to keep the highest or lowest (4d6kh3); at most 100 dice.`,
		`Leave out who= for the character of the player you answer; a check is one character's, so write one tag for each. Never write rolls, total, successes or result yourself: sheetkeeper throws the dice, and what you write there is thrown again. Narrate from the result it gives back.`)
	return strings.Join(append(lines, checkNames(rs)...), "\n")
}

// rollWords says what a check throws: "a 1d12 plus the sheet's numbers", "a pool of
// d10s, one die per point, counting the dice that reach the target".
func rollWords(res *ruleset.Resolution) string {
	if res.Kind == "dice-pool" {
		return "a pool of d" + strconv.Itoa(res.DieSides()) + "s built from the sheet, counting the dice that reach the target"
	}
	dice := "1d20"
	if res.Dice != nil {
		dice = strconv.Itoa(res.Dice.Count) + "d" + strconv.Itoa(res.Dice.Sides)
	}
	return dice + " plus the sheet's numbers"
}

// checkExamples is a line per thing a check tag may say on this ruleset, each with a
// name it really has.
func checkExamples(rs *ruleset.Ruleset) []string {
	res := &rs.Resolution
	sk, sv, ab := &rs.Sheet.Skills, &rs.Sheet.Saves, &rs.Sheet.Abilities
	var what, diff string
	switch {
	case len(*sk) > 0:
		what = `skill="` + tagValue((*sk)[0].Label) + `"`
	case len(*sv) > 0:
		what = `save="` + tagValue((*sv)[0].Label) + `"`
	case len(*ab) > 0:
		what = `ability="` + tagValue((*ab)[0].Label) + `"`
	default:
		return nil
	}
	if len(res.DifficultyLadder) > 0 {
		diff = ` difficulty="` + tagValue(res.DifficultyLadder[len(res.DifficultyLadder)/2].Label) + `"`
	}
	line := `- [skill_check: who="Name" ` + what + diff + `] rolls a check`
	var alts []string
	if len(*sv) > 0 {
		alts = append(alts, `save="`+tagValue((*sv)[0].Label)+`" a save`)
	}
	if len(*ab) > 0 {
		alts = append(alts, `ability="`+tagValue((*ab)[0].Label)+`" an ability`)
	}
	if len(alts) > 0 {
		line += "; " + strings.Join(alts, ", ")
	}
	lines := []string{line + "."}
	meet := `- dc="N" is the number to meet`
	if res.Kind == "dice-pool" {
		meet = `- dc="N" is the successes needed`
	}
	if len(res.DifficultyLadder) > 0 {
		meet += ", in place of a difficulty from the ladder"
	}
	lines = append(lines, meet+".")
	if len(*ab) > 0 && (len(*sk) > 0 || len(*sv) > 0) {
		with := `- with="` + tagValue((*ab)[len(*ab)-1].Label) + `" rolls a skill or save with another ability`
		if res.Kind == "dice-pool" && res.Pool != nil && res.Pool.AbilityPlusAbility {
			with += " (on an ability check, adds a second ability's dice)"
		}
		lines = append(lines, with+".")
	}
	if res.Kind == "dice-sum" && res.Advantage != nil && *res.Advantage {
		lines = append(lines, `- mode="advantage" or mode="disadvantage" throws twice and keeps the better or the worse.`)
	}
	if res.Kind == "dice-pool" {
		lines = append(lines, poolOptions(res)...)
	}
	for _, sp := range res.Spend {
		lines = append(lines, `- spend="`+tagValue(poolLabel(rs, sp.Pool))+`:`+strconv.Itoa(sp.Amount)+`" pays from that pool to `+spendWords(&sp)+
			` (paid with the check, only when the pool has it).`)
	}
	return lines
}

// poolOptions are the pool check's options the resolution lets a GM move.
func poolOptions(res *ruleset.Resolution) []string {
	var lines []string
	if t := res.Target; t != nil && t.Min < t.Max {
		lines = append(lines, `- threshold="N" moves the per-die target (`+strconv.Itoa(t.Min)+` to `+strconv.Itoa(t.Max)+`, normally `+strconv.Itoa(t.Default)+`).`)
	}
	if d := res.SituationalDice; d != nil {
		lines = append(lines, `- bonus="N" adds situational dice (`+strconv.Itoa(d.Min)+` to `+strconv.Itoa(d.Max)+`).`)
	}
	if e := res.Explode; e != nil && e.Min != nil {
		lines = append(lines, `- explode="N" lets faces from N up (down to `+strconv.Itoa(*e.Min)+`) throw another die.`)
	}
	if d := res.Double; d != nil && d.Min != nil {
		lines = append(lines, `- double="N" counts faces from N up (down to `+strconv.Itoa(*d.Min)+`) as two successes.`)
	}
	if len(res.Reroll) > 0 {
		ids := make([]string, len(res.Reroll))
		for i, r := range res.Reroll {
			ids[i] = r.ID
		}
		lines = append(lines, `- reroll="`+tagValue(ids[0])+`" throws the low dice again (rerolls: `+strings.Join(ids, ", ")+`).`)
	}
	return lines
}

// spendWords is what one purchase of a spend rule buys.
func spendWords(sp *ruleset.Spend) string {
	var parts []string
	if sp.Successes != nil {
		parts = append(parts, plural(*sp.Successes, "success", "successes"))
	}
	if sp.Dice != nil {
		parts = append(parts, plural(*sp.Dice, "die", "dice"))
	}
	if sp.Reroll != nil {
		parts = append(parts, "a reroll of faces up to "+strconv.Itoa(sp.Reroll.UpTo))
	}
	s := "buy " + strings.Join(parts, " and ") + " per " + strconv.Itoa(sp.Amount)
	if !sp.PerCheckPool && sp.PerCheckRef == nil && sp.PerCheckNumber > 0 {
		s += ", at most " + strconv.Itoa(sp.PerCheckNumber) + " times a check"
	}
	return s
}

// poolLabel is a live pool's label by id.
func poolLabel(rs *ruleset.Ruleset, id string) string {
	for _, p := range rs.Sheet.Live.Pools {
		if p.ID == id {
			return p.Label
		}
	}
	return id
}

// checkNames lists what a check may name, and the ladder with its numbers.
func checkNames(rs *ruleset.Ruleset) []string {
	var lines []string
	sh := &rs.Sheet
	if len(sh.Skills) > 0 {
		lines = append(lines, "Skills: "+labels(len(sh.Skills), func(i int) string { return sh.Skills[i].Label })+".")
	}
	if len(sh.Saves) > 0 {
		lines = append(lines, "Saves: "+labels(len(sh.Saves), func(i int) string { return sh.Saves[i].Label })+".")
	}
	if len(sh.Abilities) > 0 {
		lines = append(lines, "Abilities: "+labels(len(sh.Abilities), func(i int) string { return sh.Abilities[i].Label })+".")
	}
	if lad := rs.Resolution.DifficultyLadder; len(lad) > 0 {
		lines = append(lines, "Difficulties: "+labels(len(lad), func(i int) string { return ladderStep(&lad[i]) })+".")
	}
	return lines
}

// ladderStep is one rung as the brief lists it: "Hard (9)", "Grim (3 successes, target 8)".
func ladderStep(s *ruleset.LadderStep) string {
	var n []string
	if s.DC != nil {
		n = append(n, strconv.Itoa(*s.DC))
	}
	if s.Successes != nil {
		n = append(n, plural(*s.Successes, "success", "successes"))
	}
	if s.Target != nil {
		n = append(n, "target "+strconv.Itoa(*s.Target))
	}
	if len(n) == 0 {
		return s.Label
	}
	return s.Label + " (" + strings.Join(n, ", ") + ")"
}

// checkEntryExample is the first catalog entry whose mechanics change a check, "" when
// the ruleset has none.
func checkEntryExample(l *ruleset.Loaded) string {
	for i := range l.Ruleset.Catalogs {
		entries, err := l.Entries(l.Ruleset.Catalogs[i].ID)
		if err != nil {
			continue
		}
		for j := range entries {
			if m := entries[j].Mechanics; m != nil && m.Check != nil {
				return entries[j].Label
			}
		}
	}
	return ""
}
