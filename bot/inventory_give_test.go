package bot

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// TestGiveCountsWhatGoesInsideAContainer: a give of count backpacks gives that many,
// a backpack inside a given backpack counting as one of them. Mira holds three, the
// second inside the third: a give of two is the third with the second still in it,
// not those and the first as well; a give of one leaves the third holding nothing of
// its kind rather than give two. A corrupt ring of two backpacks, each in the other,
// cannot give one without the other: refused not-allowed, changing nothing.
func TestGiveCountsWhatGoesInsideAContainer(t *testing.T) {
	sacks := []inventory.StoredEntry{
		{UID: "i1", ID: "backpack", Qty: 1},
		{UID: "i2", ID: "backpack", Qty: 1, In: "i3"},
		{UID: "i3", ID: "backpack", Qty: 1},
	}
	for _, tc := range []struct {
		name, count     string
		held            []inventory.StoredEntry
		want            refusal.Reason
		mira, oskar     string
		wantMiraUnmoved bool
	}{
		{name: "two", count: "2", held: sacks, mira: "1 i1", oskar: "1 backpack; 1 backpack in backpack"},
		{name: "one", count: "1", held: sacks, mira: "1 i1; 1 i3", oskar: "1 backpack"},
		{name: "three", count: "3", held: sacks, mira: "", oskar: "1 backpack; 1 backpack in backpack; 1 backpack"},
		{name: "ring", count: "1", held: []inventory.StoredEntry{
			{UID: "i1", ID: "backpack", Qty: 1, In: "i2"},
			{UID: "i2", ID: "backpack", Qty: 1, In: "i1"},
		}, want: refusal.NotAllowed, wantMiraUnmoved: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMsgTable(t, "low-vell")
			m.playSystem("dnd5e-srd")
			m.card(ana.ID, "Mira", nil)
			m.card(bo.ID, "Oskar", nil)
			m.update(func(tx storage.Tx) error {
				r, err := gameCard(tx, m.ch, "Mira")
				if err != nil {
					return err
				}
				r.Inventory = &inventory.Stored{Next: int64(len(tc.held)), Items: tc.held}
				return tx.PutGameCard(m.ch, r)
			})
			before := m.holdings("Mira")
			_, acts := m.say(gmUser, `The road. [inventory: action="give" item="Backpack" count="`+tc.count+`" who="Mira" to="Oskar"]`)
			wantOutcomes(t, "the give", acts, tc.want)
			if tc.wantMiraUnmoved {
				if d := acts[0].Embeds[0].Description; !strings.Contains(d, "take the inner one out first") {
					t.Errorf("the refusal says %q", d)
				}
				if got := m.holdings("Mira"); got != before {
					t.Errorf("a refused give left Mira holding\n%s\nwant\n%s", got, before)
				}
				if got := m.holdings("Oskar"); got != "null" {
					t.Errorf("a refused give left Oskar holding %s", got)
				}
				return
			}
			if got := storedRows(t, m.holdings("Mira"), true); got != tc.mira {
				t.Errorf("Mira holds %q, want %q", got, tc.mira)
			}
			if got := storedRows(t, m.holdings("Oskar"), false); got != tc.oskar {
				t.Errorf("Oskar holds %q, want %q", got, tc.oskar)
			}
		})
	}
}

// storedRows is stored holdings (as msgTable.holdings gives them) as "qty what" rows in
// order, "in what" where an entry is inside another: what is its uid when uids is set,
// else its item id (a receiver's uids are its own).
func storedRows(t *testing.T, data string, uids bool) string {
	t.Helper()
	var st *inventory.Stored
	if err := json.Unmarshal([]byte(data), &st); err != nil {
		t.Fatal(err)
	}
	if st == nil {
		return ""
	}
	what := func(uid string) string {
		for _, e := range st.Items {
			if e.UID == uid && !uids {
				return e.ID
			}
		}
		return uid
	}
	var rows []string
	for _, e := range st.Items {
		row := fmt.Sprintf("%d %s", e.Qty, what(e.UID))
		if e.In != "" {
			row += " in " + what(e.In)
		}
		rows = append(rows, row)
	}
	return strings.Join(rows, "; ")
}
