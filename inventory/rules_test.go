package inventory

import "testing"

// TestRulesRead: the seed's triggers, and an older one, read into one shape.
func TestRulesRead(t *testing.T) {
	s := lantern(t)
	w := s.CatalogItem("lr-wand")
	if len(w.Rules) != 5 {
		t.Fatalf("%d rules", len(w.Rules))
	}
	if r := w.Rules[0]; r.When != "becomes" || r.Test[0].Value != "item.charges" || r.Do[0].Set != "item.state.cursed" || r.Message != "The wand crumbles to dust." {
		t.Errorf("becomes: %+v", r)
	}
	if r := w.Rules[1]; r.When != "while" || r.Every != 1 || r.Do[0].Add != "local.heat" {
		t.Errorf("while: %+v", r)
	}
	if r := w.Rules[3]; r.Do[0].Change != "local.heat" || r.Do[0].Rate != -1 || *r.Do[0].Until != 0 || r.Test[0].To2 != "local.heat / 10 + 8" {
		t.Errorf("change: %+v", r)
	}
	legacy := w.Rules[4]
	if legacy.When != "becomes" || legacy.Test[0].Value != "item.state.cursed" || legacy.Test[0].To != "on" ||
		legacy.If[0].Value != "item.state.identified" || legacy.If[0].To != "off" || legacy.Do[0].Set != "item.state.attuned" || legacy.Do[0].To != "off" {
		t.Errorf("an older trigger: %+v", legacy)
	}
}

func TestRulesRefused(t *testing.T) {
	const wand = "catalog[8] (lr-wand).triggers"
	cases := []struct {
		name   string
		change func(m map[string]any)
		path   string
		msg    string
	}{
		{"global", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 1, "do", 0)["add"] = "global.storm" }, wand + "[1].do[0].add", "cannot set Global values"},
		{"when", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 0)["when"] = "whenever" }, wand + "[0].when", `"whenever" is not one of`},
		{"op", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 0, "test", 0)["op"] = "==" }, wand + "[0].test[0].op", `"==" is not one of`},
		{"every on becomes", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 0)["every"] = 2 }, wand + "[0].every", "only a while rule"},
		{"between without to2", func(m map[string]any) { delete(obj(m, "catalog", 8, "triggers", 3, "test", 0), "to2") }, wand + "[3].test[0].to2", "between"},
		{"unknown state", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 0, "do", 0)["set"] = "item.state.crumbled" }, wand + "[0].do[0].set", `unknown state "crumbled"`},
		{"not an address", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 0, "test", 0)["value"] = "item.colour" }, wand + "[0].test[0].value", "not an address"},
		{"no actions", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 0)["do"] = []any{} }, wand + "[0].do", "1 up to 20 actions"},
		{"unknown key", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 0)["then"] = 1 }, wand + "[0].then", "unknown key"},
		{"legacy on", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 4)["on"] = "dropped" }, wand + "[4].on", `"dropped" is not`},
		{"rate 0", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 3, "do", 0)["rate"] = 0 }, wand + "[3].do[0].rate", "other than 0"},
		{"change a global", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 3, "do", 0)["change"] = "global.storm" }, wand + "[3].do[0].change", "moves a Local value"},
		{"legacy to", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 4, "do", 0)["to"] = 1 }, wand + "[4].do[0]", "true or false"},
		{"legacy set", func(m map[string]any) { obj(m, "catalog", 8, "triggers", 4, "do", 0)["set"] = "glowing" }, wand + "[4].do[0].set", `unknown state "glowing"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, ps := Parse(mutate(t, tc.change))
			if s != nil || !has(ps, tc.path, tc.msg) {
				t.Fatalf("want %s: …%s…; got:\n%v", tc.path, tc.msg, ps)
			}
		})
	}
}
