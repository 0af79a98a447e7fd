package check

import (
	"testing"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/sheet"
)

// FuzzResolve: whatever a GM writes in a check tag, resolving it against a pool ruleset
// and a summed one never panics, refuses only with a reason of the vocabulary, keeps its
// numbers in bounds, and its record reads back as one check request (rolled anew if read).
func FuzzResolve(f *testing.F) {
	for _, s := range []string{
		`[skill_check: skill="Ward" dc="2" who="Bram" threshold="8" bonus="-2" with="Sinew"]`,
		`[skill_check: skill="Ward" difficulty="Grim" explode="9" double="2" reroll="careful" spend="resolve:9, resolve:1"]`,
		`[skill_check: ability="Nerve" dc="-5" with="Warmth" mode="advantage"]`,
		`[skill_check: save="Steel" dc="999999999"]`, `[skill_check: skill="Stealth" dc="15" mode="disadvantage"]`,
	} {
		f.Add(s, uint64(1))
	}
	grave := reference(f, "gravewatch.json")
	sum := reference(f, "5e-2014/ruleset.json")
	gv := sheet.Evaluate(grave, card(grave, map[string]float64{"nerve": 4}, map[string]string{"ward": "rating_3"}), nil)
	sv := sheet.Evaluate(sum, card(sum, map[string]float64{"dex": 14}, nil), nil)
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		for _, tag := range parser.Read(text).Tags {
			if tag.Kind != parser.SkillCheck {
				continue
			}
			req, err := RequestOf(tag)
			if err != nil {
				continue
			}
			for _, c := range []struct {
				v    *sheet.Values
				pool bool
			}{{gv, true}, {sv, false}} {
				rs := sum
				if c.pool {
					rs = grave
				}
				res, err := Resolve(rs, c.v, req, Seeded(seed))
				if err != nil {
					if r := refusal.Of(err); !r.Known() {
						t.Fatalf("%q: %v is no refusal of the vocabulary (%q)", text, err, r)
					}
					continue
				}
				if c.pool && (len(res.Rolls) > 2*rs.Resolution.PoolRange().Max || res.Successes > rs.Resolution.MaxSuccesses()) {
					t.Fatalf("%q: %d dice, %d successes", text, len(res.Rolls), res.Successes)
				}
				wb := tag.WriteRecord(res.Record())
				if back := parser.Read(wb); len(back.Tags) != 1 || back.Tags[0].Kind != parser.SkillCheck || back.Tags[0].Malformed {
					t.Fatalf("record %q of %q reads back as %+v", wb, text, back.Tags)
				}
			}
		}
	})
}
