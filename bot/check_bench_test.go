package bot

import (
	"context"
	"strings"
	"testing"
)

// checkBenchText is a GM message with a check (advantage, a DC) and a damage on a 5e
// card: the engine's resolution, and the faces stored with the reply.
const checkBenchText = `Mira slips past the ghoul. [skill_check: who="Mira" skill="Stealth" dc="15" mode="advantage"] It claws her anyway. [sheet: who="Mira" op="damage" pool="hp" amount="7"]`

// BenchmarkCheckReplyVsBare is BenchmarkReplyVsBare for a reply with a check tag: the
// roll must cost next to nothing beside the commit (target reply/bare ≤ 1.5).
func BenchmarkCheckReplyVsBare(b *testing.B) {
	m := replyBenchTable(b)
	replyVsBare(b, m, func(id string) {
		acts := m.core.OnMessage(context.Background(), Message{ChannelID: m.ch, ID: id, Author: gmUser, Content: checkBenchText})
		if len(acts) != 1 || !strings.Contains(acts[0].Content, `total="`) {
			b.Fatalf("%+v", acts)
		}
	})
}
