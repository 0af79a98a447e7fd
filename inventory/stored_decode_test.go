package inventory

import (
	"encoding/json"
	"errors"
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
