package bot

import (
	"strings"
	"testing"
)

// TestHeldChoicesOwnerOrGM: /item's item: completer offers a character's holdings only
// to whom /inventory shows them — its player or a GM; another player gets nothing, as
// /inventory name: refuses them not-allowed. A trade's want: shows the partner's
// holdings on purpose: an offer names what the partner holds, and the partner answers it.
func TestHeldChoicesOwnerOrGM(t *testing.T) {
	m := newCmdTable(t)
	m.ok(pkGM, "campaign create", "ruleset", "low-vell", "system", "saltmarch")
	m.ok(pkAna, "character create", "name", "Wren")
	m.ok(pkBram, "character create", "name", "Oskar")
	m.ok(pkAna, "character join", "name", "Wren")
	m.ok(pkBram, "character join", "name", "Oskar")
	if got := m.run(pkBram, "inventory", "name", "Wren"); !strings.Contains(got.Content, "not your character") {
		t.Fatalf("Bram's /inventory name:Wren: %q", got.Content)
	}
	if got := names(m.complete(pkBram, "item remove", "item", "", "name", "Wren")); got != "" {
		t.Errorf("Bram is offered Wren's holdings: %s", got)
	}
	own := names(m.complete(pkAna, "item remove", "item", ""))
	if own == "" {
		t.Fatal("Ana is offered none of her own holdings")
	}
	if got := names(m.complete(pkAna, "item remove", "item", "", "name", "Wren")); got != own {
		t.Errorf("Ana naming Wren: %s, want %s", got, own)
	}
	if got := names(m.complete(pkGM, "item remove", "item", "", "name", "Wren")); got != own {
		t.Errorf("the GM: %s, want %s", got, own)
	}
	if got := names(m.complete(pkBram, "trade offer", "want", "", "to", "Wren")); got != own {
		t.Errorf("Bram's want: %s, want %s", got, own)
	}
}
