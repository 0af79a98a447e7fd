package sheet

import (
	"fmt"
	"testing"
)

// TestCorpus builds a card on every ruleset of the public corpus (defaults), spends and
// restores every pool it has, applies every declared rest after a fight, and checks the
// card reads back to its defaults where a rest or a restore says so.
func TestCorpus(t *testing.T) {
	for _, f := range referenceFiles {
		t.Run(f, func(t *testing.T) {
			rs := reference(t, f)
			c := newCard(rs, "Mira")
			if rs.Sheet.Live.Pools[0].ID == "hp" { // the 5e files: a caster, so every slot pool exists
				c.Build.Fields = casterFields()
			}
			v := Evaluate(rs, c, nil)
			if len(v.Live.Pools) == 0 {
				t.Fatal("a default card has no pools")
			}
			for _, p := range v.Live.Pools {
				spend := fmt.Sprintf(`[sheet: op="spend" pool=%q amount="%d"]`, p.Label, p.Max)
				restore := fmt.Sprintf(`[sheet: op="restore" pool=%q amount="%d"]`, p.Key, p.Max)
				if p.Value < p.Max { // an empty-start pool: fill it first
					if o := run(t, rs, c, restore); !o.OK() {
						t.Fatalf("%s: %s", restore, summary(o))
					}
				}
				full := c.Clone()
				if o := run(t, rs, c, spend); summary(o) != fmt.Sprintf("0/%d", p.Max) {
					t.Fatalf("%s: %s", spend, summary(o))
				}
				if o := run(t, rs, c, restore); summary(o) != fmt.Sprintf("%d/%d", p.Max, p.Max) {
					t.Fatalf("%s: %s", restore, summary(o))
				}
				if !c.Equal(full) {
					t.Fatalf("%s: spend and restore changed the card", p.Key)
				}
			}
			for _, r := range rs.Rests {
				for _, p := range Evaluate(rs, c, nil).Live.Pools {
					run(t, rs, c, fmt.Sprintf(`[sheet: op="damage" pool=%q amount="%d"]`, p.Key, p.Max))
				}
				for _, tr := range rs.Sheet.Live.Tracks {
					if tr.IsWound() {
						run(t, rs, c, fmt.Sprintf(`[sheet: op="damage" track=%q kind=%q amount="2"]`, tr.ID, tr.Kinds[0].ID))
					} else {
						run(t, rs, c, fmt.Sprintf(`[sheet: op="track" track=%q by="2"]`, tr.ID))
					}
				}
				for _, cd := range rs.Sheet.Live.Conditions {
					run(t, rs, c, fmt.Sprintf(`[sheet: op="condition" condition=%q]`, cd.ID))
				}
				o := run(t, rs, c, fmt.Sprintf(`[sheet: op="rest" rest=%q]`, r.Label))
				if !o.OK() || len(o.Now) < len(r.Label) || o.Now[:len(r.Label)] != r.Label {
					t.Fatalf("rest %s: %s", r.ID, summary(o))
				}
				t.Logf("%s", o.Now)
				// Every pool a "to max" step names is full again.
				after := Evaluate(rs, c, nil)
				for _, step := range r.Restore {
					if step.Pool != "" && step.ToWord == "max" {
						if p := after.Live.Pool(step.Pool); p != nil && p.Value != p.Max {
							t.Errorf("rest %s left %s at %d/%d", r.ID, p.Key, p.Value, p.Max)
						}
					}
				}
			}
		})
	}
}

// casterFields is a 5th-level 5e caster's fields: slots 1–3, pact slots, 38 hit points.
func casterFields() map[string]any {
	return map[string]any{"level": 5.0, "hp_max": 38.0, "spellcasting_ability": "int", "slots_max_1": 4.0,
		"slots_max_2": 3.0, "slots_max_3": 2.0, "pact_slots_max": 2.0, "pact_slot_level": 3.0}
}
