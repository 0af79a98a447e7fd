package worker

import (
	"crypto/sha256"
	"fmt"
	"sync"
	"time"

	"sheetkeeper/panel"
)

// A panel that runs out its budget (time or memory) holds a child for all of it, so one
// that does it every call would keep half the pool busy for everyone. After breakAfter
// such calls in a row it is skipped for breakFor: its calls fail at once, as
// KindSkipped, without a child. A panel is known by its code (the system's panelLib
// and its own HTML), so a new version of the system starts afresh.
const (
	breakAfter = 3
	breakFor   = time.Minute
	// maxTracked bounds how many panels the breaker remembers; past it, it forgets all.
	maxTracked = 1000
)

// breaker counts each panel's calls that ran out their budget in a row.
type breaker struct {
	mu    sync.Mutex
	panel map[[32]byte]*trips
}

type trips struct {
	inRow int
	until time.Time // skipped until then
}

func panelKey(j *panel.Job) [32]byte {
	return sha256.Sum256([]byte(j.Lib + "\x00" + j.Panel.HTML))
}

// skipped is the error for a call of j's panel while it is skipped, or nil.
func (b *breaker) skipped(j *panel.Job, now time.Time) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.panel[panelKey(j)]
	if t == nil || !now.Before(t.until) {
		return nil
	}
	return &panel.Error{Kind: panel.KindSkipped, Panel: j.Panel.ID,
		Msg: fmt.Sprintf("it ran out its budget %d times in a row; it is not run until %s", breakAfter, t.until.UTC().Format(time.TimeOnly))}
}

// record notes how a call of j's panel ended.
func (b *breaker) record(j *panel.Job, err error, now time.Time) {
	k := panel.KindOf(err)
	if err != nil && k == "" {
		return // the caller's context, not the panel
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	key := panelKey(j)
	if k != panel.KindTimeout && k != panel.KindMemory {
		delete(b.panel, key)
		return
	}
	if b.panel == nil || len(b.panel) >= maxTracked {
		b.panel = map[[32]byte]*trips{}
	}
	t := b.panel[key]
	if t == nil {
		t = &trips{}
		b.panel[key] = t
	}
	if t.inRow++; t.inRow >= breakAfter {
		t.inRow, t.until = 0, now.Add(breakFor)
	}
}
