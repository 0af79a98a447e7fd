package inventory

import (
	"testing"

	"sheetkeeper/refusal"
)

func TestFind(t *testing.T) {
	c := campaign(t)
	s := c.System
	for name, id := range map[string]string{"sword": "lr-sword", "MAIL SHIRT": "lr-mail", "Mail": "lr-mail", "lr-staff": "lr-staff"} {
		if it, err := s.FindItem(name); err != nil || it.ID != id {
			t.Errorf("FindItem(%q) = %v, %v", name, it, err)
		}
	}
	if _, err := s.FindItem("a"); refusal.Of(err) != refusal.AmbiguousEntry {
		t.Errorf("a: %v", err)
	}
	if _, err := s.FindItem("halberd"); refusal.Of(err) != refusal.UnknownItem {
		t.Errorf("halberd: %v", err)
	}
	ring := entry(t, c, "lr-ring")
	ring.GM = map[string]bool{"identified": true}
	if e, err := c.FindEntry([]*Entry{entry(t, c, "lr-sword"), ring}, "ring of protection"); err != nil || e != ring {
		t.Errorf("an entry by its name as it is now: %v %v", e, err)
	}
	if _, err := c.FindEntry([]*Entry{ring}, "halberd"); refusal.Of(err) != refusal.NotHeld {
		t.Errorf("an entry the character has not: %v", err)
	}
}
