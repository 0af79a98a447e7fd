package check

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
	"sync"
)

// Source throws dice. Roll returns a face from 1 to sides (sides ≥ 1).
//
// The core holds one Source and every roll goes through it, so the engine never reaches
// for a global generator: production seeds it from crypto/rand (NewSource), so nobody
// can predict a face from the last ones, tests and the console's --seed use Seeded, and
// a check resolved again with the faces it threw the first time (undo, redo, regenerate)
// uses Replay.
type Source interface {
	Roll(sides int) int
}

// lockedRand is a generator behind a lock: a Source is shared by every campaign the core
// serves, and math/rand/v2's generators are not safe for concurrent use.
type lockedRand struct {
	mu sync.Mutex
	r  *rand.Rand
}

func (l *lockedRand) Roll(sides int) int {
	if sides <= 1 {
		return 1
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return 1 + l.r.IntN(sides)
}

// NewSource returns a Source seeded from crypto/rand: a ChaCha8 stream whose 32-byte key
// nothing outside the process sees, so faces cannot be predicted or fished for.
func NewSource() Source {
	var seed [32]byte
	_, _ = crand.Read(seed[:]) // crypto/rand.Read never fails (Go 1.24+: it panics instead)
	return &lockedRand{r: rand.New(rand.NewChaCha8(seed))}
}

// Seeded returns a reproducible Source: the same seed throws the same faces, for tests
// and for a console run with --seed.
func Seeded(seed uint64) Source {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	return &lockedRand{r: rand.New(rand.NewChaCha8(key))}
}

// Replay is a Source that gives back stored faces, in order, and throws from Then once
// they run out or one no longer fits the die asked for (a ruleset whose die changed).
// Resolving a check again with Replay(result.Faces, …) reproduces the roll exactly, so
// undo, redo and a regenerate show the roll the players saw.
type Replay struct {
	Faces []int
	Then  Source
	next  int
	// Diverged says a stored face did not fit and Then was asked from there on.
	Diverged bool
}

// NewReplay returns a Replay of faces that falls back to then.
func NewReplay(faces []int, then Source) *Replay { return &Replay{Faces: faces, Then: then} }

// Roll gives the next stored face, or one from Then.
func (r *Replay) Roll(sides int) int {
	if !r.Diverged && r.next < len(r.Faces) {
		f := r.Faces[r.next]
		if f >= 1 && f <= sides {
			r.next++
			return f
		}
		r.Diverged = true
	}
	return r.Then.Roll(sides)
}

// recorder notes every face it hands out, so a result can carry the faces it was thrown
// with and be replayed.
type recorder struct {
	src   Source
	faces []int
}

func (r *recorder) roll(sides int) int {
	f := r.src.Roll(sides)
	if f < 1 || f > sides { // a Source that breaks its contract cannot break a total
		f = min(max(f, 1), sides)
	}
	r.faces = append(r.faces, f)
	return f
}

// recorded is a Source that throws through a recorder, so dice thrown by another part
// of a resolution (a condition's modifier dice) are stored with the check's faces.
type recorded struct{ r *recorder }

func (s recorded) Roll(sides int) int { return s.r.roll(sides) }

func srcOf(r *recorder) Source { return recorded{r} }
