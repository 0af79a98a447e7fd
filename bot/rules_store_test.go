package bot

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"sheetkeeper/storage"
	"sheetkeeper/storage/bolt"
)

// gate is a schedule.Leader that leads once open is closed.
type gate struct{ open chan struct{} }

func (g gate) Lead(ctx context.Context) (<-chan struct{}, error) {
	select {
	case <-g.open:
		return make(chan struct{}), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TestRulesOnWallTime: on wall time the rules clock runs with the schedules — only once
// this process leads them — and heats the holder of equipped tongs a degree a second,
// stored as it goes; Close stops it.
func TestRulesOnWallTime(t *testing.T) {
	if testing.Short() {
		t.Skip("waits on wall time")
	}
	ctx := context.Background()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "sheetkeeper.db"), bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var mu sync.Mutex
	var posts []Action
	m := &cmdTable{t: t, store: st, core: New(st, Options{Post: func(_ context.Context, a Action) { mu.Lock(); posts = append(posts, a); mu.Unlock() }}), ch: "room"}
	data, err := os.ReadFile("console/testdata/systems/kiln.json")
	if err != nil {
		t.Fatal(err)
	}
	m.runFile(gmUser, "system import", &Attachment{Name: "kiln.json", Data: data})
	m.ok(gmUser, "campaign create", "ruleset", "low-vell", "system", "kiln")
	m.ok(ana, "character create", "name", "Mira")
	m.ok(ana, "character join", "name", "Mira")
	m.core.OnMessage(ctx, Message{ChannelID: m.ch, GuildID: "guild", ID: "m1", Author: gmUser,
		Content: `[inventory: action="add" item="Ember Tongs" who="Mira"] [inventory: action="equip" item="Ember Tongs" who="Mira"]`})
	heat := func() float64 {
		var h float64
		err := st.View(ctx, func(tx storage.Tx) error {
			rec, err := tx.GameCard(m.ch, "Mira")
			if err == nil && rec.Inventory != nil && rec.Inventory.Rules != nil {
				h = rec.Inventory.Rules.Locals["heat"]
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	lead := gate{open: make(chan struct{})}
	if err := m.core.StartLeading(ctx, lead); err != nil {
		t.Fatal(err)
	}
	defer m.core.Close()
	time.Sleep(1200 * time.Millisecond)
	if h := heat(); h != 0 {
		t.Fatalf("heated %v while another process leads", h)
	}
	close(lead.open)
	deadline := time.Now().Add(10 * time.Second)
	for heat() < 3 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if h := heat(); h < 3 {
		t.Fatalf("heat %v after leading for a while", h)
	}
	m.core.Close()
	after := heat()
	time.Sleep(1200 * time.Millisecond)
	if h := heat(); h != after {
		t.Errorf("still heating after Close: %v → %v", after, h)
	}
	mu.Lock()
	defer mu.Unlock()
	found := false
	for _, p := range posts {
		found = found || p.ChannelID == m.ch && p.Content == "🎒 <@"+ana.ID+"> Ember Tongs: The tongs glow cherry red."
	}
	if !found {
		t.Errorf("the player was not told: %+v", posts)
	}
}
