package bot

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"sheetkeeper/content"
	"sheetkeeper/inventory"
	"sheetkeeper/storage"
)

// TestPropertyInventoryTagsInOneMessage: a message of inventory tags does and records
// exactly what the same tags do and record one message each — the same outcomes, the
// same changes in the replies (so undo, delete and regenerate put back the same), the
// same holdings left — over random sequences of every kind of tag on two characters.
// In one message a tag keeps its card's holdings over what the tag before it kept
// (inventory.Campaign.KeepChange with reuse); one message each, never.
func TestPropertyInventoryTagsInOneMessage(t *testing.T) {
	sb, _, err := content.LookupSystem("dnd5e-srd")
	if err != nil {
		t.Fatal(err)
	}
	sys, ps := inventory.Parse(sb.File)
	if len(ps) > 0 {
		t.Fatal(ps)
	}
	var ids []string
	for _, name := range []string{"Torch", "Dagger", "Rope, silk (50 feet)", "Shield", "Longsword", "Greatsword", "Arrow", "Backpack", "Ring of Protection", "Cloak of Protection"} {
		it, err := sys.FindItem(name)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, it.ID)
	}
	names := []string{"Torch", "Dagger", "Rope", "Shield", "Longsword", "Greatsword", "Arrow", "Backpack", "Ring of Protection", "Cloak of Protection", "Potion of Healing"}
	who := []string{"Mira", "Oskar"}
	table := func() *msgTable {
		m := newMsgTable(t, "low-vell")
		m.playSystem("dnd5e-srd")
		m.card(ana.ID, "Mira", nil)
		m.card("bo", "Oskar", nil)
		return m
	}
	// Each sequence starts from the same holdings, on the same two tables.
	start := func(m *msgTable) {
		m.update(func(tx storage.Tx) error {
			for i, name := range who {
				r, err := gameCard(tx, m.ch, name)
				if err != nil {
					return err
				}
				st := &inventory.Stored{Purse: map[string]int64{"gp": 20, "sp": 5}}
				for j, id := range ids {
					if (i+j)%3 != 2 {
						st.Next++
						st.Items = append(st.Items, inventory.StoredEntry{UID: fmt.Sprintf("i%d", st.Next), ID: id, Qty: int64(1 + j%3)})
					}
				}
				r.Inventory = st
				if err := tx.PutGameCard(m.ch, r); err != nil {
					return err
				}
			}
			return nil
		})
	}
	one, apart := table(), table()
	rapid.Check(t, func(rt *rapid.T) {
		var tags []string
		for range rapid.IntRange(1, 8).Draw(rt, "tags") {
			w := rapid.SampledFrom(who).Draw(rt, "who")
			other := who[0]
			if w == other {
				other = who[1]
			}
			item := rapid.SampledFrom(names).Draw(rt, "item")
			n := rapid.IntRange(1, 3).Draw(rt, "count")
			var tag string
			switch op := rapid.SampledFrom([]string{"add", "remove", "give", "equip", "unequip", "state", "bind", "unbind", "pay", "receive"}).Draw(rt, "op"); op {
			case "add", "remove":
				tag = fmt.Sprintf(`action=%q item=%q count="%d"`, op, item, n)
			case "give":
				tag = fmt.Sprintf(`action="give" item=%q count="%d" to=%q`, item, n, other)
			case "equip", "unequip", "bind", "unbind":
				tag = fmt.Sprintf(`action=%q item=%q`, op, item)
			case "state":
				key := rapid.SampledFrom([]string{"identified", "attuned", "twoHanded"}).Draw(rt, "key")
				tag = fmt.Sprintf(`action="state" item=%q key=%q state=%q`, item, key, rapid.SampledFrom([]string{"on", "off"}).Draw(rt, "on"))
			case "pay", "receive":
				tag = fmt.Sprintf(`action=%q amount="%d %s"`, op, n, rapid.SampledFrom([]string{"gp", "sp", "cp"}).Draw(rt, "coin"))
				if op == "pay" && rapid.Bool().Draw(rt, "to") {
					tag += fmt.Sprintf(` to=%q`, other)
				}
			}
			tags = append(tags, fmt.Sprintf(`[inventory: %s who=%q]`, tag, w))
		}
		start(one)
		start(apart)
		gotOut, gotChanges := sayTags(rt, one, strings.Join(tags, " "))
		var wantOut []string
		var wantChanges []json.RawMessage
		for _, tag := range tags {
			out, changes := sayTags(rt, apart, tag)
			wantOut, wantChanges = append(wantOut, out...), append(wantChanges, changes...)
		}
		if g, w := strings.Join(gotOut, "\n"), strings.Join(wantOut, "\n"); g != w {
			rt.Fatalf("outcomes in one message:\n%s\none message each:\n%s", g, w)
		}
		if g, w := fmt.Sprintf("%s", gotChanges), fmt.Sprintf("%s", wantChanges); g != w {
			rt.Fatalf("changes in one message:\n%s\none message each:\n%s", g, w)
		}
		for _, name := range who {
			if g, w := one.holdings(name), apart.holdings(name); g != w {
				rt.Fatalf("%s holds after one message:\n%s\nafter one message each:\n%s", name, g, w)
			}
		}
	})
}

// sayTags posts text as the GM and returns each tag's outcome and the reply's recorded
// changes, each as JSON.
func sayTags(t *rapid.T, m *msgTable, text string) ([]string, []json.RawMessage) {
	_, acts := m.say(gmUser, "The market. "+text)
	var out []string
	for _, a := range acts {
		for _, o := range a.Outcomes {
			out = append(out, o.Result+" "+o.Now+" "+o.Reason)
		}
	}
	var changes []json.RawMessage
	for _, ch := range m.lastReply().Changes {
		data, err := json.Marshal(ch)
		if err != nil {
			t.Fatal(err)
		}
		changes = append(changes, data)
	}
	return out, changes
}
