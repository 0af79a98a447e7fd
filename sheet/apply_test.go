package sheet

import (
	"strings"
	"testing"

	"sheetkeeper/refusal"
)

func TestWhoAndParty(t *testing.T) {
	rs := fixture(t, "trials.json")
	mira, bram, ash := newCard(rs, "Mira  Vale"), newCard(rs, "Bram"), newCard(rs, "Ash")
	cards := []*Card{mira, bram, ash}
	bram.Build.Fields = map[string]any{"toughness": 3.0}
	// Ash starts with no stamina, so a spend refuses Ash alone: a party command reports
	// Ash's refusal beside the others' outcomes.
	if out := run(t, rs, ash, `[sheet: op="spend" pool="stamina" amount="5"]`); !out.OK() {
		t.Fatalf("emptying Ash's stamina: %+v", out)
	}
	opts := Options{}
	for _, tc := range []struct {
		tag, def, want string
	}{
		{`[sheet: who=" mira   VALE " op="spend" pool="stamina" amount="1"]`, "", "4/5"},
		{`[sheet: who="Ash" op="spend" pool="stamina" amount="1"]`, "", "refused insufficient"},
		{`[sheet: who="Nobody" op="spend" pool="stamina" amount="1"]`, "", "refused unknown-character"},
		{`[sheet: op="spend" pool="stamina" amount="1"]`, "", "refused who-required"},
		{`[sheet: op="spend" pool="stamina" amount="1"]`, "bram", "7/8"},
		{`[sheet: who="party" op="spend" pool="stamina" amount="5"]`, "", "Mira  Vale refused (insufficient); Bram 2/8; Ash refused (insufficient)"},
		{`[sheet: who="Party" op="spend" pool="stamina" amount="9"]`, "", "refused insufficient"},
		{`[sheet: who="party" op="rest" rest="camp"]`, "", "Mira  Vale Make camp: Stamina 5/5, Focus 1/3, Heat 0, Strain 0/3; Bram Make camp: Stamina 8/8, Focus 1/3, Heat 0, Strain 0/6; Ash Make camp: Stamina 5/5, Focus 1/3, Heat 0, Strain 0/3"},
		{`[sheet: op="spend" pool="stamina" amount="1" result="ok" now="x"]`, "Ash", "4/5"}, // result= and now= are not read,
	} {
		o := opts
		o.Default = tc.def
		res := Apply(rs, cards, tag(t, tc.tag), o)
		if got := summary(res.Outcome); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.tag, got, tc.want)
		}
	}
	twin := newCard(rs, "bram")
	res := Apply(rs, []*Card{bram, twin}, tag(t, `[sheet: who="BRAM" op="spend" pool="stamina" amount="1"]`), Options{})
	if got := summary(res.Outcome); got != "refused ambiguous-character" {
		t.Errorf("got %q", got)
	}
	res = Apply(rs, cards, tag(t, `[sheet: op="fly" pool="stamina"]`), Options{Default: "Bram"})
	if got := summary(res.Outcome); got != "refused malformed" {
		t.Errorf("got %q", got)
	}
	res = Apply(rs, nil, tag(t, `[sheet: who="party" op="rest" rest="camp"]`), Options{})
	if got := summary(res.Outcome); got != "refused unknown-character" {
		t.Errorf("empty party: %q", got)
	}
}

// TestRefusalNamesItsOp: a refusal says which op refused, for the log, while the
// write-back still reads only the reason.
func TestRefusalNamesItsOp(t *testing.T) {
	rs := fixture(t, "trials.json")
	mira := newCard(rs, "Mira")
	res := Apply(rs, []*Card{mira}, tag(t, `[sheet: who="Mira" op="Spend" pool="stamina" amount="9"]`), Options{})
	if res.Outcome.Op != "spend" || res.Cards[0].Outcome.Op != "spend" {
		t.Fatalf("outcome %+v, card %+v", res.Outcome, res.Cards[0].Outcome)
	}
	if got := res.Outcome.Err().Error(); !strings.HasPrefix(got, "spend: insufficient") {
		t.Errorf("Err() = %q", got)
	}
	if wb := res.Outcome.WriteBack(); wb.Reason != refusal.Insufficient {
		t.Errorf("write-back %+v", wb)
	}
	if ok := Apply(rs, []*Card{mira}, tag(t, `[sheet: who="Mira" op="spend" pool="stamina" amount="1"]`), Options{}); ok.Outcome.Op != "" {
		t.Errorf("an applied outcome names an op: %+v", ok.Outcome)
	}
}
