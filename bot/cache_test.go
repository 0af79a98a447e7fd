package bot

import (
	"fmt"
	"testing"

	"sheetkeeper/storage"
)

// TestCachesBounded: however many systems a guild imports and plays, the parsed
// systems and the campaign systems built on them stay within their caps, the least
// recently used dropped first; a system dropped is parsed again when next asked for.
func TestCachesBounded(t *testing.T) {
	m := newCmdTable(t)
	n := maxCachedSystems + 3
	for i := range n {
		if r := m.runFile(gmUser, "system import", marchCopy(t, fmt.Sprintf("March %d", i))); r.Ephemeral {
			t.Fatalf("import %d: %q", i, r.Content)
		}
	}
	m.view(func(tx storage.Tx) error {
		for v := 1; v <= n; v++ {
			if _, err := m.core.namedSystem(tx, "guild", "my-march", v); err != nil {
				t.Fatalf("v%d: %v", v, err)
			}
		}
		if got := m.core.systems.len(); got > maxCachedSystems {
			t.Errorf("%d parsed systems kept, at most %d", got, maxCachedSystems)
		}
		if got := m.core.played.len(); got > maxCachedPlayed {
			t.Errorf("%d campaign systems kept, at most %d", got, maxCachedPlayed)
		}
		first, err := m.core.lookupSystem(tx, "guild", "my-march", 1)
		if err != nil || first.Name != "March 0" {
			t.Errorf("v1 parsed again: %v %v", first, err)
		}
		return nil
	})
}

// TestLRU: a kept value is found until maxLen newer ones pushed it out; finding it
// makes it the newest; keeping a key already kept keeps the first value.
func TestLRU(t *testing.T) {
	c := newLRU[int, string](2)
	c.keep(1, "a")
	c.keep(2, "b")
	if v, ok := c.get(1); !ok || v != "a" {
		t.Fatalf("1: %q %v", v, ok)
	}
	c.keep(3, "c") // 2 is the least recently used now
	if _, ok := c.get(2); ok {
		t.Error("2 kept past the cap")
	}
	if got := c.keep(1, "z"); got != "a" {
		t.Errorf("keep of a kept key: %q", got)
	}
	if c.len() != 2 {
		t.Errorf("len %d", c.len())
	}
}
