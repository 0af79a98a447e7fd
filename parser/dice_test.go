package parser

import (
	"strings"
	"testing"

	"sheetkeeper/refusal"
)

func TestParseDice(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2d6+1", "2d6+1"},
		{"d20", "1d20"},
		{" 3D8 + 2 ", "3d8+2"},
		{"4d6kh3", "4d6kh3"},
		{"2d20kl", "2d20kl1"},
		{"2d20kh2", "2d20"},
		{"1d8-1+1d4", "1d8-1+1d4"},
		{"5", "5"},
		{"100d1000", "100d1000"},
	} {
		d, err := ParseDice(c.in)
		if err != nil {
			t.Errorf("ParseDice(%q): %v", c.in, err)
			continue
		}
		if got := d.String(); got != c.want {
			t.Errorf("ParseDice(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseDiceRefuses(t *testing.T) {
	for _, c := range []struct {
		in     string
		reason refusal.Reason
		bounds string
	}{
		{"", refusal.Malformed, ""},
		{"2x6", refusal.Malformed, ""},
		{"2d", refusal.Malformed, ""},
		{"d20+", refusal.Malformed, ""},
		{"2d6 3", refusal.Malformed, ""},
		{"-2+d6", refusal.Malformed, ""},
		{"101d6", refusal.BadAmount, "1..100"},
		{"60d6+41d6", refusal.BadAmount, "1..100"},
		{"1d1001", refusal.BadAmount, "1..1000"},
		{"1d0", refusal.BadAmount, "1..1000"},
		{"0d6", refusal.BadAmount, "1..100"},
		{"4d6kh5", refusal.BadAmount, "1..4"},
		{"1d6+100001", refusal.BadAmount, "0..100000"},
		{"99999999999999999999d6", refusal.BadAmount, "1..100"},
	} {
		_, err := ParseDice(c.in)
		if refusal.Of(err) != c.reason {
			t.Errorf("ParseDice(%q): %v, want %s", c.in, err, c.reason)
			continue
		}
		var e *refusal.Error
		if c.bounds != "" {
			if ok := asRefusal(err, &e); !ok || e.Bounds != c.bounds {
				t.Errorf("ParseDice(%q): bounds %v, want %q", c.in, err, c.bounds)
			}
		}
	}
}

// TestParseDiceLeadingSign: a notation that starts with a sign is refused saying so,
// not as "a sign with nothing after it".
func TestParseDiceLeadingSign(t *testing.T) {
	for _, in := range []string{"-1d6", "+2", " -d20+1"} {
		_, err := ParseDice(in)
		if refusal.Of(err) != refusal.Malformed || !strings.Contains(err.Error(), "starts with a sign") {
			t.Errorf("ParseDice(%q): %v, want malformed saying it starts with a sign", in, err)
		}
	}
}

func asRefusal(err error, e **refusal.Error) bool {
	r, ok := err.(*refusal.Error)
	*e = r
	return ok
}

func TestReadCheckTag(t *testing.T) {
	in := `Roll! [skill_check: skill="Stealth" dc="15" who="Mira" mode="Advantage" rolls="20" total="99" result="success" used="20"]`
	m := Read(in)
	if len(m.Tags) != 1 {
		t.Fatalf("%d tags", len(m.Tags))
	}
	tag := m.Tags[0]
	if tag.Kind != SkillCheck || tag.Op != "skill" || tag.Who != "Mira" || tag.Malformed {
		t.Fatalf("tag %+v", tag)
	}
	want := `[skill_check: who="Mira" skill="Stealth" dc="15" mode="advantage"]`
	if got := tag.Canonical(); got != want {
		t.Errorf("canonical %s, want %s", got, want)
	}
	pool := Read(`[skill_check: save="Ward" difficulty="Grim" threshold="+08" bonus="-2" with=Sinew explode=9 reroll=careful spend="resolve:1" successes="4"]`).Tags[0]
	want = `[skill_check: save="Ward" threshold="8" bonus="-2" explode="9" with="Sinew" difficulty="Grim" reroll="careful" spend="resolve:1"]`
	if got := pool.Canonical(); got != want {
		t.Errorf("canonical %s, want %s", got, want)
	}
	if v, _ := pool.Int("threshold"); v != 8 {
		t.Errorf("threshold %d", v)
	}
	for _, body := range []string{`dc="15"`, `skill="Stealth" dc="fifteen"`} {
		tag := Read("[skill_check: " + body + "]").Tags[0]
		if !tag.Malformed || tag.Reason != refusal.Malformed {
			t.Errorf("%s: %+v, want malformed", body, tag)
		}
	}
}

func TestReadDiceTag(t *testing.T) {
	m := Read("[dice: 2d6+1] and [DICE: d20 = 14] and [dice: 500d6]")
	if len(m.Tags) != 3 {
		t.Fatalf("%+v", m)
	}
	if tag := m.Tags[0]; tag.Kind != DiceRoll || tag.Attrs[0].Value != "2d6+1" {
		t.Errorf("first %+v", tag)
	}
	// An outcome after '=' is dropped: the dice are thrown anew (SPEC 3.4).
	if tag := m.Tags[1]; tag.Malformed || tag.Attrs[0].Value != "1d20" {
		t.Errorf("second %+v", tag)
	}
	if tag := m.Tags[2]; !tag.Malformed || tag.Reason != refusal.Malformed {
		t.Errorf("third %+v", tag)
	}
	wb := m.Tags[0].WriteRecord([]Attr{{"roll", "2d6+1 = 9 (3, 5 +1)"}})
	if wb != "[dice: 2d6+1 = 9 (3, 5 +1)]" {
		t.Errorf("write-back %s", wb)
	}
	back := Read(wb)
	if len(back.Tags) != 1 || back.Tags[0].Canonical() != m.Tags[0].Canonical() {
		t.Errorf("write-back reads as %+v", back)
	}
	if got := m.Tags[2].WriteBack(Outcome{Result: ResultRefused, Reason: m.Tags[2].Reason}); got != `[dice: raw="500d6" result="refused" reason="malformed"]` {
		t.Errorf("refused %s", got)
	}
}

func TestWriteRecordSanitises(t *testing.T) {
	tag := Read(`[skill_check: skill="Stealth"]`).Tags[0]
	got := tag.WriteRecord([]Attr{{"who", `Mi"ra]`}, {"skill", "Stealth"}, {"result", "success"}})
	if got != `[skill_check: who="Mi ra" skill="Stealth" result="success"]` {
		t.Errorf("%s", got)
	}
	if back := Read(got); len(back.Tags) != 1 || back.Tags[0].Who != "Mi ra" {
		t.Errorf("reads back as %+v", back)
	}
}

// FuzzDice: any text either reads as notation within the bounds, whose canonical form
// reads back as itself, or is refused with a reason of the vocabulary.
func FuzzDice(f *testing.F) {
	for _, s := range []string{"2d6+1", "d20", "4d6kh3", "2d20kl1", "1d8-1+1d4", "101d6", "2x6", "  3d8 + 2", "1d6+100001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDice(s)
		if err != nil {
			if r := refusal.Of(err); r != refusal.Malformed && r != refusal.BadAmount {
				t.Fatalf("ParseDice(%q): %v", s, err)
			}
			return
		}
		if d.Count() > MaxDice || len(d.Terms) == 0 {
			t.Fatalf("ParseDice(%q) = %v", s, d)
		}
		for _, term := range d.Terms {
			if term.Sides > MaxSides || term.Const > MaxConstant || term.Keep > term.Count {
				t.Fatalf("ParseDice(%q) term %+v out of bounds", s, term)
			}
		}
		again, err := ParseDice(d.String())
		if err != nil || again.String() != d.String() {
			t.Fatalf("canonical %q reads back as %q (%v)", d.String(), again.String(), err)
		}
	})
}

// FuzzCheckTag: a check tag's record, read again, is the same request — the numbers it
// carries dropped — so a model that copies last turn's record asks for the same roll.
func FuzzCheckTag(f *testing.F) {
	for _, s := range []string{
		`[skill_check: skill="Stealth" dc="15" who="Mira" mode="advantage"]`,
		`[skill_check: skill="Ward" dc="2" who="Bram the Quiet" threshold="8" bonus="-2" with="Sinew"]`,
		`[skill_check: skill="Ward" difficulty="Grim" explode="9" rolls="7|16" total="3" result="success"]`,
		`[skill_check: save="Dexterity" dc="+15" spend="resolve:1" use="Potence"]`,
		`[skill_check: dc="15"]`, `[dice: 2d6+1]`, `[dice: d20 = 14]`, `[dice: 200d6]`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		m := Read(text)
		checkSpans(t, text, m)
		for _, tag := range m.Tags {
			if tag.Kind != SkillCheck && tag.Kind != DiceRoll {
				continue
			}
			wb := tag.WriteRecord(append([]Attr{{"who", tag.Who}}, append(tag.Attrs, Attr{"result", "success"})...))
			if tag.Malformed {
				wb = tag.WriteBack(Outcome{Result: ResultRefused, Reason: tag.Reason})
			} else if tag.Kind == DiceRoll {
				wb = tag.WriteRecord([]Attr{{"roll", tag.Attrs[0].Value + " = 3"}})
			}
			back := Read(wb)
			if len(back.Tags) != 1 || back.Tags[0].Canonical() != tag.Canonical() {
				t.Fatalf("write-back %q of %q reads back as %+v", wb, text[tag.Start:tag.End], back.Tags)
			}
		}
	})
}

func TestDiceTagRefusedWriteBack(t *testing.T) {
	tag := Read("[dice: 2d6]").Tags[0]
	got := tag.WriteBack(Outcome{Result: ResultRefused, Reason: refusal.NotAllowed})
	if got != "[dice: 2d6 = refused (not-allowed)]" {
		t.Fatalf("%s", got)
	}
	if back := Read(got); len(back.Tags) != 1 || back.Tags[0].Canonical() != tag.Canonical() {
		t.Fatalf("reads back as %+v", back.Tags)
	}
}

func TestCheckBareMode(t *testing.T) {
	for _, c := range []struct{ in, mode string }{
		{`[skill_check: skill="Stealth" dc="15" advantage]`, "advantage"},
		{`[skill_check: Disadvantage skill="Stealth" dc="15"]`, "disadvantage"},
		{`[skill_check: skill="Disadvantage Arts" dc="15"]`, ""},
		{`[skill_check: skill=Disadvantage dc="15"]`, ""},
		{`[skill_check: skill="Stealth" advantage disadvantage]`, ""},
		{`[skill_check: skill="Stealth" mode="normal" advantage]`, "normal"},
	} {
		tag := Read(c.in).Tags[0]
		if got, _ := tag.Get("mode"); got != c.mode {
			t.Errorf("%s: mode %q, want %q", c.in, got, c.mode)
		}
	}
}

// TestCheckBareValueRunsOn: an unquoted skill of several words runs on to the next key,
// as an inventory tag's bare values do (it was cut to its first word).
func TestCheckBareValueRunsOn(t *testing.T) {
	m := Read(`[skill_check: who=Mira skill=Sleight of Hand dc=15]`)
	if len(m.Tags) != 1 || m.Tags[0].Malformed {
		t.Fatalf("%+v", m.Tags)
	}
	if got := m.Tags[0].Canonical(); got != `[skill_check: who="Mira" skill="Sleight of Hand" dc="15"]` {
		t.Errorf("read as %s", got)
	}
}

// TestDiceRefusalDetail: a roll past the bounds is malformed, its detail the bound's
// words alone (not the inner refusal's "bad-amount: …").
func TestDiceRefusalDetail(t *testing.T) {
	m := Read(`[dice: 200d6]`)
	if len(m.Tags) != 1 || !m.Tags[0].Malformed || strings.HasPrefix(m.Tags[0].Detail, "bad-amount") || m.Tags[0].Detail == "" {
		t.Fatalf("%+v", m.Tags)
	}
}

// TestQuotedLineOfTags: every tag on a quote line is skipped, however many.
func TestQuotedLineOfTags(t *testing.T) {
	text := "> " + strings.Repeat(`[sheet: who="Mira" op="spend" pool="hp" amount="1"] `, 30) + "\n[dice: 1d6]"
	m := Read(text)
	if len(m.Tags) != 1 || m.Tags[0].Kind != DiceRoll {
		t.Fatalf("read %d tags: %+v", len(m.Tags), m.Tags)
	}
}
