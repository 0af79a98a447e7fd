package fakediscord

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"sync"
	"time"
)

// discordEpoch is the first millisecond of 2015, the epoch of snowflakes.
const discordEpoch = 1420070400000

// idGen hands out increasing snowflakes: milliseconds since the Discord epoch
// in the top bits, a counter in the low 12.
type idGen struct {
	mu   sync.Mutex
	last uint64
}

func (g *idGen) next() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	id := uint64(time.Now().UnixMilli()-discordEpoch) << 22
	if id <= g.last {
		id = g.last + 1
	}
	g.last = id
	return strconv.FormatUint(id, 10)
}

// randomToken returns n random bytes as hex, for session ids and interaction
// tokens.
func randomToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// timestamp formats t as Discord does: "2024-05-01T12:00:00.123000+00:00".
func timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000+00:00")
}
