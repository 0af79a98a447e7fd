package inventory

import (
	"slices"
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	l := NewLimiter(3, time.Minute)
	mira := Recipient{"table", "mira"}
	if got := l.Send(mira, t0, []string{"a", "b"}); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("room for both: %v", got)
	}
	if got := l.Send(mira, t0.Add(time.Second), []string{"c", "d", "e"}); !slices.Equal(got, []string{"…and 3 more"}) {
		t.Errorf("one place left: %v", got)
	}
	if got := l.Send(mira, t0.Add(2*time.Second), []string{"f", "g"}); got != nil {
		t.Errorf("no room: %v", got)
	}
	if got := l.Send(Recipient{"table", "oren"}, t0.Add(2*time.Second), []string{"x"}); !slices.Equal(got, []string{"x"}) {
		t.Errorf("another player has his own room: %v", got)
	}
	if notes := l.Flush(t0.Add(30 * time.Second)); len(notes) != 0 {
		t.Errorf("still no room: %v", notes)
	}
	notes := l.Flush(t0.Add(time.Minute))
	if !slices.Equal(notes, []Note{{mira, "…and 2 more"}}) {
		t.Errorf("room again: %v", notes)
	}
	if got := l.Send(mira, t0.Add(61*time.Second), []string{"h", "i", "j"}); !slices.Equal(got, []string{"h", "…and 2 more"}) {
		t.Errorf("two places: %v", got)
	}
	l.Flush(t0.Add(10 * time.Minute))
	if len(l.seen) != 0 {
		t.Errorf("nobody left to track: %v", l.seen)
	}
}
