package bot

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"sheetkeeper/schedule"
)

// The browsing tests page the built-in SRD's spells and Low Vell's workings with the
// buttons the answers carry, the way a front end clicks them: by custom id.

// press clicks a component as u in the table's channel and guild.
func (m *cmdTable) press(u User, id string, values ...string) Response {
	m.t.Helper()
	return m.core.OnComponent(context.Background(), Component{CustomID: id, Values: values, User: u, ChannelID: m.ch, GuildID: "guild"})
}

// button is the button labelled label in r, or fails.
func button(t *testing.T, r Response, label string) Button {
	t.Helper()
	for _, row := range r.Components {
		for _, b := range row.Buttons {
			if b.Label == label {
				return b
			}
		}
	}
	t.Fatalf("no button %q in %+v (%s)", label, r.Components, r.Content)
	return Button{}
}

// menu is r's select menu, or fails.
func menu(t *testing.T, r Response) *Select {
	t.Helper()
	for _, row := range r.Components {
		if row.Select != nil {
			return row.Select
		}
	}
	t.Fatalf("no menu in %+v (%s)", r.Components, r.Content)
	return nil
}

// Next walks every page of a 42-entry search: each entry shows once, in the order of the
// search, ten at most a page; Previous comes back to the same page; a fresh Core (a
// restart) answers the same ids.
func TestCatalogPagesWalkTheWholeSearch(t *testing.T) {
	m := newPickTable(t, "dnd5e-srd", "")
	r := m.run(pkAna, "catalog search", "catalog", "spells", "filter", "level=3")
	first := r
	if b := button(t, r, "Previous"); !b.Disabled {
		t.Error("Previous is enabled on the first page")
	}
	var seen []string
	pages := 0
	for {
		pages++
		names := boldNames(r.Embeds[0].Description)
		if len(names) == 0 || len(names) > catalogPage || len(r.Embeds[0].Description) > 4096 {
			t.Fatalf("page %d shows %d entries in %d bytes", pages, len(names), len(r.Embeds[0].Description))
		}
		if opts := menu(t, r).Options; len(opts) != len(names) {
			t.Errorf("page %d: a menu of %d for %d entries", pages, len(opts), len(names))
		}
		seen = append(seen, names...)
		for _, row := range r.Components {
			for _, b := range row.Buttons {
				if len(b.CustomID) > maxCustomID {
					t.Errorf("id of %d bytes", len(b.CustomID))
				}
			}
		}
		next := button(t, r, "Next")
		if next.Disabled {
			break
		}
		if pages == 2 {
			m.core = New(m.store, Options{Clock: schedule.NewManualClock(cmdTime)})
		}
		r = m.press(pkAna, next.CustomID)
		if !r.Update || !r.Ephemeral {
			t.Fatalf("Next answers with update %v, ephemeral %v: %s", r.Update, r.Ephemeral, r.Content)
		}
	}
	want := 42
	if len(seen) != want || len(slices.Compact(slices.Sorted(slices.Values(seen)))) != want {
		t.Fatalf("%d pages showed %d entries (%d distinct), want %d once each", pages, len(seen), len(slices.Compact(slices.Sorted(slices.Values(seen)))), want)
	}
	if !strings.Contains(r.Embeds[0].Footer, "page "+strconv.Itoa(pages)+" of "+strconv.Itoa(pages)) {
		t.Errorf("last footer %q", r.Embeds[0].Footer)
	}
	// Back to the first page: the same entries the command showed.
	for range pages - 1 {
		r = m.press(pkAna, button(t, r, "Previous").CustomID)
	}
	wantText(t, "back on page 1", strings.Join(boldNames(r.Embeds[0].Description), ", "), strings.Join(boldNames(first.Embeds[0].Description), ", "))
}

// The menu picks as /pick does: onto the card the search names, by its player or a GM
// only; without a name onto the presser's own character; an entry the card has is
// refused in the message, and the card is not changed.
func TestCatalogMenuPicksWithPicksPermissions(t *testing.T) {
	m := newPickTable(t, "low-vell", "")
	m.pkCard("ana", "Wren", map[string]any{"guild": "Ferrylight"})
	m.pkCard("bram", "Osk", map[string]any{"guild": "Wickwright"})
	r := m.run(pkAna, "catalog search", "catalog", "workings", "name", "Wren")
	sel := menu(t, r)
	wantText(t, "placeholder", sel.Placeholder, "Pick onto Wren")

	r = m.press(pkAna, sel.CustomID, "hearthwarm")
	wantText(t, "picked", r.Content, "**Wren** picked **Hearthwarm** from Workings. Rows added: Workings +1.")
	if !r.Update || !strings.Contains(r.Embeds[0].Description, "**Hearthwarm** ✓ on Wren's sheet") {
		t.Errorf("the page is not shown again with the mark: %+v", r)
	}
	if !slices.Contains(rowNames(m.pkGet("Wren"), "workings"), "Hearthwarm [workings/hearthwarm]") {
		t.Errorf("Wren's workings: %q", rowNames(m.pkGet("Wren"), "workings"))
	}
	r = m.press(pkAna, menu(t, r).CustomID, "hearthwarm")
	wantText(t, "twice", r.Content, "Not picked: Wren already has Hearthwarm from Workings")

	// Bram may read Wren's search but not pick onto her card; the GM may.
	before := len(m.pkGet("Wren").Build.Lists["workings"])
	r = m.press(pkBram, sel.CustomID, "kindle-wick")
	wantText(t, "not bram's", r.Content, "Not picked: Wren is not your character: only its player or a GM may change it")
	if n := len(m.pkGet("Wren").Build.Lists["workings"]); n != before {
		t.Errorf("a refused pick changed Wren: %d rows, had %d", n, before)
	}
	r = m.press(pkGM, sel.CustomID, "kindle-wick")
	wantText(t, "the GM picks", r.Content, "**Wren** picked **Kindle Wick** from Workings. Rows added: Workings +1.")

	// Without name: the presser's own character.
	r = m.run(pkBram, "catalog search", "catalog", "workings", "filter", "guild=*")
	sel = menu(t, r)
	wantText(t, "placeholder", sel.Placeholder, "Pick onto your character")
	r = m.press(pkBram, sel.CustomID, "kindle-wick")
	wantText(t, "onto Osk", r.Content, "**Osk** picked **Kindle Wick** from Workings. Rows added: Workings +1.")
	r = m.press(pkGM, sel.CustomID, "kindle-wick")
	wantText(t, "the GM has none", r.Content, "Not picked: you have no character yet: /character create name:<name> makes one")

	// An id with two choices, or an unknown page, is not this bot's.
	wantText(t, "two choices", m.press(pkBram, sel.CustomID, "a", "b").Content, "That button is no longer in use: run the command again.")
	wantText(t, "page 0", m.press(pkBram, "catalog:page:0:workings:::").Content, "That button is no longer in use: run the command again.")
}

// A query and filter too long for the ids show the first page without buttons and say
// why; a long card name is hashed, and its buttons still find the card; ':' and '%' in a
// filter or query come back as typed.
func TestCatalogIDsCarryTheSearch(t *testing.T) {
	m := newPickTable(t, "dnd5e-srd", "")
	long := strings.Repeat("fire ", 20)
	r := m.run(pkAna, "catalog search", "catalog", "spells", "query", long)
	if len(r.Components) != 0 || !strings.Contains(r.Embeds[0].Footer, "too long to carry in buttons") {
		t.Errorf("a long query: %+v, footer %q", r.Components, r.Embeds[0].Footer)
	}

	name := strings.Repeat("Ýsolde", 10) // 70 bytes
	m.pkCard("ana", name, map[string]any{"class": "Wizard"})
	r = m.run(pkAna, "catalog search", "catalog", "spells", "name", name, "query", "fire damage")
	if len(r.Embeds) == 0 {
		t.Fatalf("search: %q", r.Content)
	}
	next := button(t, r, "Next")
	if !strings.Contains(next.CustomID, ":#") || len(next.CustomID) > maxCustomID {
		t.Errorf("the card is not hashed: %q", next.CustomID)
	}
	r = m.press(pkAna, next.CustomID)
	if !strings.Contains(r.Embeds[0].Footer, "page 2 of") || !strings.Contains(r.Embeds[0].Footer, "from "+name+"'s sheet") {
		t.Errorf("page 2 of the hashed card's search: %q", r.Embeds[0].Footer)
	}

	st := catalogBrowse{page: 3, catalog: "spells", card: "Mi:ra%", filter: "school=a:b%2", query: "x:y%z"}
	got, err := readBrowse(st.args(3, st.card))
	if err != nil || got != st {
		t.Errorf("round trip: %+v, %v", got, err)
	}
}

// /sheet's buttons show its pages on the same message; Whole sheet comes back; a
// library card outside any campaign pages too (its ruleset found in the click's guild).
func TestSheetPages(t *testing.T) {
	m := newPickTable(t, "low-vell", "")
	m.pkCard("ana", "Wren", map[string]any{"guild": "Ferrylight"}, "workings/hearthwarm")
	whole := m.run(pkAna, "sheet", "name", "Wren")
	if strings.Contains(buttonLabels(whole), "Whole sheet") {
		t.Errorf("the whole sheet offers itself: %s", buttonLabels(whole))
	}
	lists := m.press(pkAna, button(t, whole, "Lists").CustomID)
	if !lists.Update || !strings.Contains(lists.Content, "Hearthwarm") || strings.Contains(lists.Content, "__Now__") {
		t.Errorf("Lists: %q", lists.Content)
	}
	if !button(t, lists, "Lists").Disabled {
		t.Error("the page shown is not disabled")
	}
	live := m.press(pkAna, button(t, lists, "Live").CustomID)
	if !strings.Contains(live.Content, "__Now__") || strings.Contains(live.Content, "Hearthwarm") {
		t.Errorf("Live: %q", live.Content)
	}
	over := m.press(pkAna, button(t, live, "Overview").CustomID)
	if strings.Contains(over.Content, "Hearthwarm") || strings.Contains(over.Content, "__Now__") {
		t.Errorf("Overview: %q", over.Content)
	}
	back := m.press(pkAna, button(t, over, "Whole sheet").CustomID)
	wantText(t, "whole again", back.Content, whole.Content)

	// A library card, in a channel without a campaign.
	m.ok(pkAna, "character create", "name", "Tam", "ruleset", "low-vell")
	m.ch = "elsewhere"
	r := m.run(pkAna, "sheet", "name", "Tam")
	r = m.press(pkAna, button(t, r, "Live").CustomID)
	if !strings.Contains(r.Content, "library card") || !r.Update {
		t.Errorf("a library card's Live page: %q", r.Content)
	}
	wantText(t, "unknown page", m.press(pkAna, "sheet:page:stats:Tam").Content, "That button is no longer in use: run the command again.")
}

func buttonLabels(r Response) string {
	var out []string
	for _, row := range r.Components {
		for _, b := range row.Buttons {
			out = append(out, b.Label)
		}
	}
	return strings.Join(out, ", ")
}
