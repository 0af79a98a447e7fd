package discord

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/bot"
	"sheetkeeper/parser"
)

func TestSplitTextKeepsShortTextWhole(t *testing.T) {
	if got := splitText("  hello  ", maxContent); len(got) != 1 || got[0] != "hello" {
		t.Errorf("got %q", got)
	}
	if got := splitText(" \n ", maxContent); got != nil {
		t.Errorf("blank: %q", got)
	}
}

func TestSplitTextCutsWhereItReads(t *testing.T) {
	tag := `[sheet: who="Mira" op="damage" pool="breath" amount="1" result="ok" now="9/10"]`
	var lines []string
	for range 60 {
		lines = append(lines, tag)
	}
	text := strings.Join(lines, "\n")
	parts := splitText(text, maxContent)
	if len(parts) < 3 {
		t.Fatalf("%d parts", len(parts))
	}
	var back []string
	for _, p := range parts {
		if n := utf8.RuneCountInString(p); n > maxContent {
			t.Errorf("part of %d characters", n)
		}
		for _, l := range strings.Split(p, "\n") {
			if l != tag {
				t.Errorf("a tag was cut: %q", l)
			}
			back = append(back, l)
		}
	}
	if strings.Join(back, "\n") != text {
		t.Error("the parts do not join back into the text")
	}

	// Tags on one line are cut between tags, not inside one.
	parts = splitText(strings.Join(lines, " "), maxContent)
	for _, p := range parts {
		if !strings.HasPrefix(p, "[sheet:") || !strings.HasSuffix(p, "]") {
			t.Errorf("cut inside a tag: …%q", p[max(0, len(p)-20):])
		}
	}

	// Text without any break is cut hard, by characters, never inside a rune.
	long := strings.Repeat("é", 4500)
	parts = splitText(long, maxContent)
	if len(parts) != 3 || strings.Join(parts, "") != long {
		t.Errorf("hard cut: %d parts", len(parts))
	}
}

// TestSplitNeverCutsInsideAWriteBack: a reply whose only line break is in the first half
// of a message's window is cut at that break, not at the last space, inside the next tag:
// the AI GM reading the channel next turn sees every write-back whole.
func TestSplitNeverCutsInsideAWriteBack(t *testing.T) {
	v := func(c string) string { return strings.Repeat(c, 110) }
	gm := fmt.Sprintf(`[inventory: action="add" item="%s" like="%s" category="%s" rarity="%s" tags="%s" stats="%s" slots="%s" who="Mira"]`+"\n"+
		`[inventory: action="add" item="%s" like="%s" category="%s" rarity="%s" tags="%s" stats="%s" slots="%s" summary="%s" worn="%s" carried="%s" who="Bram"]`,
		v("a"), v("b"), v("c"), v("d"), v("e"), v("f"), v("g"), v("h"), v("i"), v("j"), v("k"), v("l"), v("m"), v("n"), v("o"), v("p"), v("q"))
	var lines []string
	for _, tg := range parser.Read(gm).Tags {
		lines = append(lines, tg.WriteBack(parser.Outcome{Result: parser.ResultOK, Now: "1"}))
	}
	if len(lines) != 2 {
		t.Fatalf("%d tags", len(lines))
	}
	content := strings.Join(lines, "\n")
	parts := splitText(content, maxContent)
	if len(parts) < 2 {
		t.Fatalf("%d characters in %d part", utf8.RuneCountInString(content), len(parts))
	}
	for i, p := range parts {
		if strings.Count(p, "[") != strings.Count(p, "]") || !strings.HasPrefix(p, "[inventory:") || !strings.HasSuffix(p, "]") {
			t.Errorf("part %d cuts a tag: starts %q … ends %q", i, p[:20], p[len(p)-20:])
		}
	}
}

// TestSplitKeepsEveryTagWhole: replies of tags of any length the parser reads, one a line
// or several on a line, after prose or not, are cut between tags: each tag is whole in
// one piece, and the pieces are within the limit.
func TestSplitKeepsEveryTagWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(2000, 1500))
	for c := range 200 {
		var text strings.Builder
		var tags []string
		for i := range 1 + r.IntN(12) {
			head := []string{"sheet:", "inventory:", "skill_check:", "dice:"}[r.IntN(4)]
			tag := fmt.Sprintf("[%s n=\"%d\" note=\"%s\"]", head, i, randomText(r, r.IntN(parser.MaxBody-40)))
			tag = strings.ReplaceAll(tag, "\n", " ")
			tags = append(tags, tag)
			switch r.IntN(3) {
			case 0:
				text.WriteString(randomText(r, r.IntN(1200)))
			case 1:
				text.WriteString("\n")
			}
			text.WriteString(tag + " ")
		}
		if n := len(tagsOf(text.String())); n != len(tags) {
			t.Fatalf("case %d: the parser reads %d of the %d tags", c, n, len(tags))
		}
		parts := splitText(text.String(), maxContent)
		for i, p := range parts {
			if n := utf8.RuneCountInString(p); n > maxContent {
				t.Errorf("case %d: part %d of %d characters", c, i, n)
			}
		}
		for _, tag := range tags {
			if !slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(p, tag) }) {
				t.Errorf("case %d: the tag %.30q… is cut", c, tag)
			}
		}
	}
}

// TestSplitCutsInsideATagOnlyWhenItIsLongerThanTheWindow: the longest tag the parser reads
// (a [skill_check: head and MaxBody characters) is never cut in a message, wherever the
// window ends in it; a window shorter than a tag, the one case with no cut outside it,
// still cuts it where it reads, and nothing is lost.
func TestSplitCutsInsideATagOnlyWhenItIsLongerThanTheWindow(t *testing.T) {
	body := " " + strings.Repeat("x ", parser.MaxBody/2-1) + "y"
	tag := "[skill_check:" + body + "]"
	if n := len(tag); n != len("[skill_check:]")+parser.MaxBody {
		t.Fatalf("the tag is %d bytes", n)
	}
	for _, prose := range []int{1, 300, 999, 1000, 1900} {
		text := strings.Repeat("word ", prose/5+1) + tag + " and on"
		if len(parser.Read(text).Tags) != 1 {
			t.Fatal("the parser does not read the tag")
		}
		parts := splitText(text, maxContent)
		if !slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(p, tag) }) {
			t.Errorf("after %d characters of prose the tag is cut", prose)
		}
	}
	parts := splitText(tag, 400)
	if len(parts) < 4 || squeeze(strings.Join(parts, "")) != squeeze(tag) {
		t.Errorf("a tag longer than the window: %d parts, or text lost", len(parts))
	}
	for i, p := range parts {
		if utf8.RuneCountInString(p) > 400 {
			t.Errorf("part %d too long", i)
		}
	}
}

func TestSplitTextReopensCodeBlocks(t *testing.T) {
	text := "```\n" + strings.Repeat("line of a brief\n", 200) + "```"
	parts := splitText(text, maxContent)
	if len(parts) < 2 {
		t.Fatalf("%d parts", len(parts))
	}
	for i, p := range parts {
		if strings.Count(p, "```")%2 != 0 {
			t.Errorf("part %d leaves a code block open", i)
		}
		if utf8.RuneCountInString(p) > maxContent {
			t.Errorf("part %d too long", i)
		}
	}
}

// TestSplitTextReopensWithItsFence: a long /gm brief is one ```text block from the core;
// every piece is a ```text block of its own and the pieces' insides join back into it.
func TestSplitTextReopensWithItsFence(t *testing.T) {
	var lines []string
	for i := range 300 {
		lines = append(lines, fmt.Sprintf("line %d of a brief, long enough to fill a message", i))
	}
	inner := strings.Join(lines, "\n")
	parts := splitText("```text\n"+inner+"\n```", maxContent)
	if len(parts) < 3 {
		t.Fatalf("%d parts", len(parts))
	}
	var back []string
	for i, p := range parts {
		if utf8.RuneCountInString(p) > maxContent {
			t.Errorf("part %d too long", i)
		}
		in, ok := strings.CutPrefix(p, "```text\n")
		in, ok2 := strings.CutSuffix(in, "\n```")
		if !ok || !ok2 {
			t.Fatalf("part %d is not one text block: %q…", i, p[:40])
		}
		back = append(back, in)
	}
	if strings.Join(back, "\n") != inner {
		t.Error("the pieces do not join back into the brief")
	}
}

// BenchmarkSplitText reports the cost per byte of splitting 1 MB and 16 MB answers: the
// same figure for both when the split is linear.
func BenchmarkSplitText(b *testing.B) {
	for _, size := range []int{1 << 20, 16 << 20} {
		text := strings.Repeat("```\n"+strings.Repeat("word ", 15)+"\n", size/80)
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			var parts int
			for b.Loop() {
				parts = len(splitText(text, maxContent))
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(text)), "ns/byte")
			b.ReportMetric(float64(parts), "messages")
		})
	}
}

func TestEmbedsWithinLimits(t *testing.T) {
	var fields []bot.EmbedField
	for i := range 40 {
		fields = append(fields, bot.EmbedField{Name: strings.Repeat("n", 300), Value: strings.Repeat("v", 1500) + string(rune('a'+i%26))})
	}
	e := bot.Embed{Title: strings.Repeat("T", 300), Description: strings.Repeat("d ", 3000), Fields: fields, Footer: "foot"}
	got := embedsOf(e)
	if len(got) < 3 {
		t.Fatalf("%d embeds", len(got))
	}
	fieldsSeen := 0
	for i, m := range got {
		checkEmbed(t, m)
		if m.Color != Colour {
			t.Errorf("embed %d colour %x", i, m.Color)
		}
		if i > 0 && !strings.HasSuffix(m.Title, continuedSuffix) {
			t.Errorf("embed %d title %q", i, m.Title)
		}
		if (m.Footer != nil) != (i == len(got)-1) {
			t.Errorf("footer on embed %d", i)
		}
		fieldsSeen += len(m.Fields)
	}
	if fieldsSeen != 80 {
		t.Errorf("%d fields, want 80 (each value in two)", fieldsSeen)
	}
	if got := embedsOf(bot.Embed{Color: 0xff0000, Title: "x"}); got[0].Color != 0xff0000 {
		t.Errorf("the core's colour is kept: %x", got[0].Color)
	}
	if got := embedsOf(bot.Embed{}); got != nil {
		t.Errorf("an empty embed: %+v", got)
	}
}

func checkEmbed(t *testing.T, m *discordgo.MessageEmbed) {
	t.Helper()
	if n := utf8.RuneCountInString(m.Title); n > maxTitle {
		t.Errorf("title of %d", n)
	}
	if n := utf8.RuneCountInString(m.Description); n > maxDescription {
		t.Errorf("description of %d", n)
	}
	if len(m.Fields) > maxFields {
		t.Errorf("%d fields", len(m.Fields))
	}
	for _, f := range m.Fields {
		if n := utf8.RuneCountInString(f.Name); n > maxFieldName || n == 0 {
			t.Errorf("field name of %d", n)
		}
		if n := utf8.RuneCountInString(f.Value); n > maxFieldValue || n == 0 {
			t.Errorf("field value of %d", n)
		}
	}
	if n := embedSize(m); n > maxEmbedTotal {
		t.Errorf("embed of %d characters", n)
	}
}

func TestSplitPacksMessages(t *testing.T) {
	var embeds []bot.Embed
	for i := range 14 {
		embeds = append(embeds, bot.Embed{Title: "Card " + string(rune('A'+i)), Description: strings.Repeat("x", 1000)})
	}
	msgs := split(strings.Repeat("word ", 700), embeds)
	if len(msgs) != 4 {
		t.Fatalf("%d messages", len(msgs))
	}
	total := 0
	for i, m := range msgs {
		if utf8.RuneCountInString(m.content) > maxContent {
			t.Errorf("message %d content too long", i)
		}
		if len(m.embeds) > maxEmbeds {
			t.Errorf("message %d has %d embeds", i, len(m.embeds))
		}
		size := 0
		for _, e := range m.embeds {
			checkEmbed(t, e)
			size += embedSize(e)
		}
		if size > maxEmbedTotal {
			t.Errorf("message %d embeds total %d", i, size)
		}
		total += len(m.embeds)
	}
	// Content fills two messages; the embeds start with the second, five to a message
	// (6,000 characters), in order.
	if msgs[0].embeds != nil || msgs[1].content == "" || len(msgs[1].embeds) != 5 || total != 14 {
		t.Errorf("layout: %d/%d/%d/%d embeds", len(msgs[0].embeds), len(msgs[1].embeds), len(msgs[2].embeds), len(msgs[3].embeds))
	}
	if msgs[1].embeds[0].Title != "Card A" || msgs[3].embeds[3].Title != "Card N" {
		t.Error("embeds out of order")
	}
	if got := split("", nil); got != nil {
		t.Errorf("nothing: %+v", got)
	}
	if got := split("", embeds[:1]); len(got) != 1 || got[0].content != "" || len(got[0].embeds) != 1 {
		t.Errorf("embed only: %+v", got)
	}
}

func TestComponentsOf(t *testing.T) {
	rows := []bot.Row{
		{Buttons: []bot.Button{{CustomID: "a", Label: "Review", Style: "primary"}, {CustomID: "b", Label: strings.Repeat("L", 90), Style: "danger", Disabled: true}}},
		{Select: &bot.Select{CustomID: "s", Placeholder: "Rows", MaxValues: 40, Options: func() []bot.SelectOption {
			var o []bot.SelectOption
			for i := range 30 {
				o = append(o, bot.SelectOption{Label: "row", Value: string(rune('a' + i)), Default: i == 1})
			}
			return o
		}()}},
	}
	got := componentsOf(rows)
	if len(got) != 2 {
		t.Fatalf("%d rows", len(got))
	}
	buttons := got[0].(discordgo.ActionsRow).Components
	b := buttons[1].(discordgo.Button)
	if b.Style != discordgo.DangerButton || !b.Disabled || utf8.RuneCountInString(b.Label) != maxButtonLabel {
		t.Errorf("button: %+v", b)
	}
	s := got[1].(discordgo.ActionsRow).Components[0].(discordgo.SelectMenu)
	if len(s.Options) != 25 || s.MaxValues != 25 || *s.MinValues != 0 || !s.Options[1].Default {
		t.Errorf("select: %d options, max %d", len(s.Options), s.MaxValues)
	}
	if got := componentsOf(nil); got == nil || len(got) != 0 {
		t.Error("no rows is an empty list, which clears a message's components")
	}
}

func TestResponseMessages(t *testing.T) {
	r := bot.Response{Content: "x " + strings.Repeat("y ", 1500) + "z"}
	msgs, _ := responseMessages(r)
	if len(msgs) != 2 || !strings.HasPrefix(msgs[0].content, "x y") || !strings.HasSuffix(msgs[1].content, "y z") {
		t.Errorf("%d messages", len(msgs))
	}
	if msgs, _ := responseMessages(bot.Response{}); len(msgs) != 1 || msgs[0].content == "" {
		t.Errorf("an empty response still says something: %+v", msgs)
	}
	if msgs, _ := responseMessages(bot.Response{Update: true}); len(msgs) != 1 || msgs[0].content != "" {
		t.Errorf("an empty update clears the message: %+v", msgs)
	}
}

// TestLongFooterCut: the core hands a footer whole (a picker's list of filters); the
// adapter cuts it to Discord's limit, marking the cut.
func TestLongFooterCut(t *testing.T) {
	got := embedsOf(bot.Embed{Title: "Workings", Footer: strings.Repeat("Filters: tier, guild. ", 200)})
	if len(got) != 1 || got[0].Footer == nil {
		t.Fatalf("%+v", got)
	}
	if f := got[0].Footer.Text; utf8.RuneCountInString(f) != maxFooter || !strings.HasSuffix(f, "…") {
		t.Errorf("footer of %d characters: %q", utf8.RuneCountInString(f), f)
	}
}

// TestEmbedDescriptionPlusFooterWithin6000: a /catalog search listing — a title, a
// description of 4,000 characters and a footer of filters past 2,048 — is one embed
// Discord takes: the footer gives way to the 6,000 of the whole, and the message is sent.
func TestEmbedDescriptionPlusFooterWithin6000(t *testing.T) {
	e := bot.Embed{Title: "Knacks: 40 entries", Description: strings.Repeat("word ", 800), Footer: strings.Repeat("Filters: tier, guild. ", 200)}
	got := embedsOf(e)
	for i, m := range got {
		if n := embedSize(m); n > maxEmbedTotal {
			t.Errorf("embed %d counts %d characters toward Discord's 6,000", i, n)
		}
	}
	if len(got) != 1 || got[0].Description != strings.TrimSpace(e.Description) || got[0].Footer == nil || !strings.HasSuffix(got[0].Footer.Text, "…") {
		t.Errorf("the listing is %d embeds, or lost its description or its footer's mark", len(got))
	}
	msgs := split("", []bot.Embed{e})
	for i, m := range msgs {
		total := 0
		for _, em := range m.embeds {
			total += embedSize(em)
		}
		if total > maxEmbedTotal {
			t.Errorf("message %d: embeds total %d > %d", i, total, maxEmbedTotal)
		}
	}
}

// TestEmbedsWithinEveryLimitAtAnySize: whatever sizes the core's titles, descriptions,
// footers and fields come in, every embed the adapter makes and every message it packs
// them into is within Discord's limits, and the descriptions and field values arrive
// whole: only a title, a field name or a footer is cut, and marked "…".
func TestEmbedsWithinEveryLimitAtAnySize(t *testing.T) {
	r := rand.New(rand.NewPCG(6000, 4096))
	for c := range 300 {
		var embeds []bot.Embed
		for range 1 + r.IntN(3) {
			e := bot.Embed{Title: randomText(r, r.IntN(300)), Description: randomText(r, r.IntN(9000)), Footer: randomText(r, r.IntN(2600))}
			if r.IntN(3) == 0 {
				for range r.IntN(40) {
					e.Fields = append(e.Fields, bot.EmbedField{Name: randomText(r, r.IntN(300)), Value: randomText(r, 1+r.IntN(1500))})
				}
			}
			embeds = append(embeds, e)
			checkEmbedsOf(t, c, e)
		}
		for i, m := range split("", embeds) {
			total := 0
			for _, em := range m.embeds {
				total += embedSize(em)
			}
			if len(m.embeds) > maxEmbeds || total > maxEmbedTotal {
				t.Errorf("case %d, message %d: %d embeds, %d characters", c, i, len(m.embeds), total)
			}
		}
	}
}

// checkEmbedsOf checks the embeds e is rendered as: each within Discord's limits, the
// description and the field values all there, the footer whole or cut with a mark.
func checkEmbedsOf(t *testing.T, c int, e bot.Embed) {
	t.Helper()
	got := embedsOf(e)
	var desc, values, want strings.Builder
	for _, m := range got {
		checkEmbed(t, m)
		desc.WriteString(m.Description)
		for _, f := range m.Fields {
			values.WriteString(f.Value)
		}
	}
	for _, f := range e.Fields {
		want.WriteString(f.Value)
	}
	if squeeze(desc.String()) != squeeze(e.Description) {
		t.Errorf("case %d: the description lost text", c)
	}
	if squeeze(values.String()) != squeeze(want.String()) {
		t.Errorf("case %d: the field values lost text", c)
	}
	if footer := strings.TrimSpace(e.Footer); footer != "" && len(got) > 0 {
		f := got[len(got)-1].Footer
		if f == nil || (f.Text != footer && !(strings.HasSuffix(f.Text, "…") && strings.HasPrefix(footer, strings.TrimSuffix(f.Text, "…")))) {
			t.Errorf("case %d: the footer is neither whole nor cut with a mark: %+v", c, f)
		}
	}
}

// squeeze is s without its white space (and the zero-width space that stands for an
// empty value), the text that must survive however it is cut.
func squeeze(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\u200b", "")), "")
}

// randomText is n characters of words, with line breaks, two-byte letters and now and
// then a run no cut point breaks.
func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for count := 0; count < n; {
		w := 1 + r.IntN(12)
		if r.IntN(40) == 0 {
			w = r.IntN(n + 1)
		}
		for range min(w, n-count) {
			b.WriteRune([]rune("abcdeéü")[r.IntN(7)])
		}
		if count += w; count >= n {
			break
		}
		if r.IntN(8) == 0 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
		count++
	}
	return b.String()
}
