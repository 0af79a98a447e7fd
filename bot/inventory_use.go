package bot

import (
	"slices"
	"strconv"

	"sheetkeeper/check"
	"sheetkeeper/inventory"
	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// A use (SPEC 3.5) spends what using the item costs — its charges (a ruleset item's
// use.charges each time, else one), else one of the stack — and, for one of the
// ruleset's items, does what its use does to the user's sheet (Marinara's guide, Items:
// a tonic's restore gives back some of a pool, a heal some of the health pool), as a
// restore the sheet engine applies in the same tag: all or nothing, its change recorded
// with the holdings' so delete, regenerate and Undo put both back. A dice amount is
// thrown by the table's dice, its faces kept with the reply so a regenerate throws them
// again. What a use does to others (an attack, a debuff) is the fight's and the GM's.

// use uses an item count times.
func (it *invTag) use(rec *storage.CardRecord, h *inventory.Held) error {
	e, err := it.entry(h.Inv)
	if err != nil {
		return err
	}
	n := it.count()
	ri := it.c.System.RulesetItem(e.Item.ID)
	var use *ruleset.ItemUse
	if ri != nil {
		use = ri.Use
	}
	name := it.c.Now(e).Name
	switch max := it.c.MaxCharges(e); {
	case max > 0:
		cost := int64(1)
		if use != nil && use.Charges != nil {
			cost = int64(*use.Charges)
		}
		if err := it.c.UseCharges(e, n*cost); err != nil {
			return err
		}
		it.nows[rec] = name + " " + strconv.FormatInt(e.Charges, 10) + "/" + strconv.FormatInt(max, 10) + " charges"
		if broke, err := it.breaks(h, e, ri); err != nil {
			return err
		} else if broke != "" {
			it.nows[rec] += "; " + broke
		}
	case use != nil && (use.Consumes == nil || !*use.Consumes):
		it.nows[rec] = name + " used" // a use that does not use it up: it stays
	default:
		if _, err := it.take(h, e, n); err != nil {
			return err
		}
		it.nows[rec] = it.heldWords(h, e.Item)
	}
	if use == nil {
		return nil
	}
	did, err := it.useEffect(rec, use, n)
	if err != nil {
		return err
	}
	if did != "" {
		it.nows[rec] += "; " + did
	}
	return nil
}

// useEffect does to rec's sheet what a use does to its user, n times, and says what
// (""; nothing it does is the user's sheet's).
func (it *invTag) useEffect(rec *storage.CardRecord, use *ruleset.ItemUse, n int64) (string, error) {
	pool, amount := "", (*ruleset.Amount)(nil)
	switch rs := it.t.rules.Ruleset; {
	case use.Restore != nil:
		pool, amount = use.Restore.Pool, &use.Restore.Amount
	case use.Kind == "heal" && use.Amount != nil && rs.Combat != nil && rs.Combat.Health.Pool != "" && !targetsOthers(use):
		pool, amount = rs.Combat.Health.Pool, use.Amount
	default:
		return "", nil
	}
	total := 0
	for range n {
		got, err := it.throwAmount(amount)
		if err != nil {
			return "", err
		}
		total += got
	}
	tag := parser.Tag{Kind: parser.Sheet, Op: "restore", Who: rec.Card.Name,
		Attrs: []parser.Attr{{Key: "pool", Value: pool}, {Key: "amount", Value: strconv.Itoa(total)}}}
	res := sheet.Apply(it.t.rules.Ruleset, it.t.cards, tag, sheet.Options{Default: rec.Card.Name, Party: it.t.cards, Catalogs: it.t.catalogs})
	if err := res.Outcome.Err(); err != nil {
		return "", err
	}
	for _, cr := range res.Cards {
		it.sheet[rec] = append(it.sheet[rec], cr.Changes...)
	}
	return "restore " + strconv.Itoa(total) + " " + pool + " → " + res.Outcome.Now, nil
}

// breaks throws the die an item's last charge rolls (charges.breaksOn): at or under its
// atMost the item breaks and is gone. It says what the die did ("" for no die).
func (it *invTag) breaks(h *inventory.Held, e *inventory.Entry, ri *ruleset.Item) (string, error) {
	if e.Charges > 0 || ri == nil || ri.Charges == nil || ri.Charges.BreaksOn == nil {
		return "", nil
	}
	b := ri.Charges.BreaksOn
	notation := "1d" + strconv.Itoa(b.Die)
	got, err := it.throwAmount(&ruleset.Amount{Dice: &notation})
	if err != nil {
		return "", err
	}
	if got > b.AtMost {
		return "last charge: " + notation + " " + strconv.Itoa(got) + ", it holds", nil
	}
	h.Inv = slices.DeleteFunc(h.Inv, func(x *inventory.Entry) bool { return x == e })
	takeContents(h, e.UID)
	return "last charge: " + notation + " " + strconv.Itoa(got) + ", it breaks", nil
}

// targetsOthers reports whether a use lands on someone other than its user.
func targetsOthers(use *ruleset.ItemUse) bool {
	return use.Targets != nil && *use.Targets != "self"
}

// throwAmount is an amount: its flat part and its dice, thrown by the table's dice (the
// faces this tag threw before, on a regenerate), each throw's faces kept for the reply.
func (it *invTag) throwAmount(a *ruleset.Amount) (int, error) {
	total := 0
	if a.Flat != nil {
		total += *a.Flat
	}
	if a.Dice == nil {
		return total, nil
	}
	d, err := parser.ParseDice(*a.Dice)
	if err != nil {
		return 0, refusal.New(refusal.Malformed, "the item's use throws %q, which is no dice notation: %v", *a.Dice, err)
	}
	if it.replay == nil {
		faces, _ := it.t.kept(it.tag.Canonical())
		it.replay = check.NewReplay(faces, it.t.dice)
	}
	roll := check.RollDice(d, it.replay)
	it.faces = append(it.faces, roll.Faces...)
	return total + roll.Total, nil
}
