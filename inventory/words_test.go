package inventory

import "testing"

func TestGlossAndHues(t *testing.T) {
	s := lantern(t)
	s.Glossary = map[string]string{"Versatile": "One or two hands.", "Two-handed": "Needs both hands."}
	if g, ok := s.Gloss("versatile (1d10)"); !ok || g != "One or two hands." {
		t.Errorf("Gloss: %q %v", g, ok)
	}
	if _, ok := s.Gloss("Heavy"); ok {
		t.Error("no entry for Heavy")
	}
	if h := s.Hue(s.TemplateByID("lr-weapon")); h != 5 {
		t.Errorf("a weapon shows Arms & Armor's hue: %v", h)
	}
	bare, ps := Parse([]byte(`{"packrat":"system","id":"bare","templates":[{"id":"a","name":"A"},{"id":"b","name":"B","parent":"a"},{"id":"c","name":"C"}]}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	if bare.Hue(bare.TemplateByID("a")) != 210 || bare.Hue(bare.TemplateByID("b")) != 210 || bare.Hue(bare.TemplateByID("c")) != (210+2*47)%360 {
		t.Errorf("hues given: %v %v %v", bare.Hue(bare.TemplateByID("a")), bare.Hue(bare.TemplateByID("b")), bare.Hue(bare.TemplateByID("c")))
	}
}
