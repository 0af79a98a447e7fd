package inventory

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Limiter keeps rules' messages to a player within a rate: at most N a window (a
// minute, say) per campaign and player; what does not fit is summarised as one
// "…and K more", sent as soon as there is room. A lantern heating every second would
// otherwise fill a DM. It is pure: the caller passes the time (the bot's clock), and it
// holds at most N times and one count per player. It is not safe for concurrent use.
type Limiter struct {
	n      int
	window time.Duration
	seen   map[Recipient]*sent
}

// Recipient is who a rule's message goes to: a player in a campaign.
type Recipient struct{ Campaign, Player string }

type sent struct {
	at      []time.Time // when the messages still inside the window went out
	pending int         // messages not sent yet, to be summarised
}

// NewLimiter returns a limiter of n messages (at least 1) a window.
func NewLimiter(n int, window time.Duration) *Limiter {
	return &Limiter{n: max(n, 1), window: window, seen: map[Recipient]*sent{}}
}

// Send is what to send to who now of msgs: all of them when there is room; else as many
// as fit with the last place taken by "…and K more" for the rest (and for any held back
// before). With no room at all it sends nothing and counts them for later (Flush).
func (l *Limiter) Send(who Recipient, now time.Time, msgs []string) []string {
	s := l.at(who, now)
	room := l.n - len(s.at)
	total := s.pending + len(msgs)
	var out []string
	switch {
	case total == 0:
	case room <= 0:
		s.pending = total
		return nil
	case s.pending == 0 && len(msgs) <= room:
		out = slices.Clone(msgs)
	default:
		shown := msgs[:min(len(msgs), room-1)]
		out = append(slices.Clone(shown), more(total-len(shown)))
	}
	s.pending = 0
	for range out {
		s.at = append(s.at, now)
	}
	return out
}

// Note is a message for one recipient.
type Note struct {
	To   Recipient
	Text string
}

// Flush is the summaries now due: for each recipient with messages held back and room
// again, one "…and K more". It also forgets recipients with nothing left to track, so
// the limiter holds only who was written to within the window. Call it on the clock.
func (l *Limiter) Flush(now time.Time) []Note {
	var out []Note
	for who := range l.seen {
		s := l.at(who, now)
		if s.pending > 0 && len(s.at) < l.n {
			out = append(out, Note{who, more(s.pending)})
			s.pending = 0
			s.at = append(s.at, now)
		}
		if s.pending == 0 && len(s.at) == 0 {
			delete(l.seen, who)
		}
	}
	slices.SortFunc(out, func(a, b Note) int {
		return cmp.Or(cmp.Compare(a.To.Campaign, b.To.Campaign), cmp.Compare(a.To.Player, b.To.Player))
	})
	return out
}

// at is who's record with the times that fell out of the window dropped.
func (l *Limiter) at(who Recipient, now time.Time) *sent {
	s := l.seen[who]
	if s == nil {
		s = &sent{}
		l.seen[who] = s
	}
	i := 0
	for i < len(s.at) && now.Sub(s.at[i]) >= l.window {
		i++
	}
	s.at = s.at[i:]
	return s
}

func more(k int) string { return fmt.Sprintf("…and %d more", k) }
