package check

import (
	"os"
	"testing"

	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
)

// The SRD package, loaded as the bot loads it: expertise doubles the derived
// proficiency bonus, half proficiency rounds down, and advantage keeps the higher die.
func TestSRDPackage(t *testing.T) {
	l, err := ruleset.LoadFS(os.DirFS("../content/rulesets/dnd5e-srd"))
	if err != nil {
		t.Fatal(err)
	}
	rs := l.Ruleset
	c := card(rs, map[string]float64{"dex": 18, "int": 13}, map[string]string{"stealth": "expertise", "arcana": "half"})
	c.Build.Fields["class"] = "Rogue"
	c.Build.Fields["rogue_level"] = 5.0
	v := sheet.Evaluate(rs, c, nil)
	res, err := Resolve(rs, v, request(t, `[skill_check: skill="Stealth" dc="20" mode="advantage" who="Vex"]`), Seeded(5))
	if err != nil {
		t.Fatal(err)
	}
	pb := res.Proficiency
	if pb < 2 || res.Number != 4+2*pb || res.Used != max(res.Rolls[0], res.Rolls[1]) || res.Total != res.Used+res.Number {
		t.Fatalf("%+v", res)
	}
	got := request2tag(t, `[skill_check: skill="Stealth"]`).WriteRecord(res.Record())
	wantRecord(t, got, `[skill_check: who="Vex" skill="Stealth" dc="20" mode="advantage" rolls="4|19" used="19" modifier="10" total="29" result="success"]`)
	arcana, _ := Resolve(rs, v, request(t, `[skill_check: skill="arcana" difficulty="Medium"]`), Seeded(5))
	if arcana.Number != 1+pb/2 || arcana.DC != 15 {
		t.Fatalf("arcana %+v", arcana)
	}
}
