package console

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sheetkeeper/check"
	"sheetkeeper/schedule"
	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
)

// TestRulesSurviveRestart: what inventory rules did is stored with the holdings, and a
// value cooling at a `change` rate while no bot ran has cooled by the time the next
// session starts — by what the clock says, once, at start — and says so when it is
// done.
func TestRulesSurviveRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sheetkeeper.db")
	session := func(at time.Time, lines ...string) (startup string, heat float64, moving int) {
		t.Helper()
		store, err := bolt.Open(path, bolt.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		clock := schedule.NewManualClock(at)
		con, core, err := Start(ctx, store, Options{Clock: clock, Dir: "testdata", Out: t.TempDir(), Session: "s", Dice: check.Seeded(1)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer core.Close()
		if ev := con.Startup(ctx); ev != nil {
			for _, p := range ev.Posts {
				startup += p.Content + "\n"
			}
		}
		for _, line := range lines {
			if ev := con.Do(ctx, line); ev.Error != "" {
				t.Fatalf("%s: %s", line, ev.Error)
			}
		}
		err = store.View(ctx, func(tx storage.Tx) error {
			rec, err := tx.GameCard(con.channel, "Mira")
			if err != nil || rec.Inventory == nil || rec.Inventory.Rules == nil {
				return err
			}
			heat, moving = rec.Inventory.Rules.Locals["heat"], len(rec.Inventory.Rules.Moving)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return startup, heat, moving
	}
	clockLine := func(d time.Duration) string { return "!clock " + start.Add(d).Format(time.RFC3339) }
	_, heat, moving := session(start,
		"gm: /system import file:systems/kiln.json",
		"gm: /campaign create ruleset:low-vell system:kiln",
		"ana: /character create name:Mira",
		"ana: /character join name:Mira",
		`gm: [inventory: action="add" item="Ember Tongs" who="Mira"] [inventory: action="equip" item="Ember Tongs" who="Mira"]`,
		clockLine(time.Second), clockLine(2*time.Second), clockLine(3*time.Second), clockLine(4*time.Second),
		"ana: /item unequip item:Ember Tongs")
	if heat != 4 || moving != 1 {
		t.Fatalf("set down at heat %v, %d moving; want 4, cooling", heat, moving)
	}
	said, heat, moving := session(start.Add(8 * time.Second)) // 4 s later: 2 degrees off
	if math.Abs(heat-2) > 1e-9 || moving != 1 || said != "" {
		t.Fatalf("after 4 s down: heat %v, %d moving, said %q", heat, moving, said)
	}
	said, heat, moving = session(start.Add(time.Hour))
	if heat != 0 || moving != 0 || !strings.Contains(said, "The tongs are cold again.") {
		t.Fatalf("an hour later: heat %v, %d moving, said %q", heat, moving, said)
	}
	if said, _, _ = session(start.Add(2 * time.Hour)); said != "" {
		t.Errorf("nothing more to say: %q", said)
	}
}
