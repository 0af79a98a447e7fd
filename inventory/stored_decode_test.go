package inventory

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"sheetkeeper/strictjson"
)

// TestStoredDecodesBounded: stored holdings read through encoding/json — as the store
// reads a card record — go through ParseStored: an inventory past MaxHeld is refused
// limit, an unknown key malformed, each with its path; what Keep wrote reads back as it
// was; null is no holdings.
func TestStoredDecodesBounded(t *testing.T) {
	type record struct {
		Inventory *Stored `json:"inventory,omitempty"`
	}
	decode := func(data string) (*Stored, strictjson.Problems) {
		var r record
		err := json.Unmarshal([]byte(data), &r)
		var ps strictjson.Problems
		if err != nil && !errors.As(err, &ps) {
			t.Fatalf("%.60s: %v, not problems", data, err)
		}
		return r.Inventory, ps
	}
	big := `{"inventory":{"items":[` + strings.Repeat(`{"uid":"a","id":"lr-sword","qty":1},`, MaxHeld) + `{"uid":"b","id":"lr-sword","qty":1}]}}`
	if _, ps := decode(big); len(ps) == 0 || ps[0].Kind != strictjson.Limit {
		t.Errorf("an inventory past MaxHeld: %v", ps)
	}
	if _, ps := decode(`{"inventory":{"items":[{"uid":"a","id":"lr-sword","qty":1,"sharp":true}]}}`); len(ps) == 0 || ps[0].Kind != strictjson.Malformed || !strings.Contains(ps[0].Path, "sharp") {
		t.Errorf("an unknown key: %v", ps)
	}
	st, ps := decode(`{"inventory":{"items":[{"uid":"i1","id":"lr-sword","qty":2,"equipped":true}],"purse":{"gp":3},"next":1}}`)
	if len(ps) > 0 || st == nil || len(st.Items) != 1 || st.Items[0].Qty != 2 || !st.Items[0].Equipped || st.Purse["gp"] != 3 || st.Next != 1 {
		t.Errorf("a good inventory: %+v %v", st, ps)
	}
	if st, ps := decode(`{"inventory":null}`); st != nil || len(ps) > 0 {
		t.Errorf("null: %+v %v", st, ps)
	}
}

// TestRestoreOwnParsedOnce: an embedded item is parsed once per campaign and JSON, not
// on every Restore (which runs on every keystroke of a completer and every sheet read);
// each Restore still gets its own *Item, equal to the first, so entries that were
// separate rows stay separate; the players' new templates parse it anew.
func TestRestoreOwnParsedOnce(t *testing.T) {
	c := campaign(t)
	st, ps := ParseStored([]byte(`{"items":[{"uid":"i1","qty":1,"item":{"id":"my-amulet","type":"lr-trinket","name":"Grandmother's amulet","cost":5}},` +
		`{"uid":"i2","qty":1,"item":{"id":"my-amulet","type":"lr-trinket","name":"Grandmother's amulet","cost":5}}]}`))
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	h1, ps := c.Restore(st)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	h2, _ := c.Restore(st)
	if got := c.parsed.len(); got != 1 {
		t.Errorf("%d parses kept for one item JSON, want 1", got)
	}
	a, b, again := h1.Inv[0].Item, h1.Inv[1].Item, h2.Inv[0].Item
	if a == b || a == again || !reflect.DeepEqual(*a, *again) || a.Name != "Grandmother's amulet" {
		t.Errorf("restored items: %p %p %p, %+v", a, b, again, *again)
	}
	if st2, err := c.Keep(h2); err != nil || !reflect.DeepEqual(st2.Items, st.Items) {
		t.Errorf("kept: %+v %v", st2, err)
	}
	if ps := c.AddTemplates(nil); len(ps) > 0 {
		t.Fatal(ps)
	}
	if got := c.parsed.len(); got != 0 {
		t.Errorf("%d parses kept after the templates changed", got)
	}
}
