package bot

import (
	"container/list"
	"sync"
)

// Parsed game systems and the campaign systems built on them are kept in memory so a
// message does not parse a system's file again (milliseconds for the 5e SRD). What a
// guild may import is not bounded by what this process can hold, though: a server's
// GMs can import version after version, each a megabyte parsed. So each cache keeps at
// most its cap, the least recently used dropped first; a dropped system is parsed again
// from its stored bytes when next asked for, so a cap costs time, never an answer.

const (
	// maxCachedSystems bounds the parsed systems kept (systems.go): the built-ins and
	// the imports in play, with room for every guild's few.
	maxCachedSystems = 32
	// maxCachedPlayed bounds the campaign systems kept (inventory.go): one per parsed
	// system or ruleset's items block in play.
	maxCachedPlayed = 32
)

// lru is a map of at most max entries, safe for concurrent use, that drops the least
// recently used entry to make room.
type lru[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	order *list.List // of lruEntry, most recently used first
	at    map[K]*list.Element
}

type lruEntry[K comparable, V any] struct {
	key K
	val V
}

// newLRU returns an empty cache of at most max entries.
func newLRU[K comparable, V any](max int) *lru[K, V] {
	return &lru[K, V]{max: max, order: list.New(), at: map[K]*list.Element{}}
}

// get is k's value, if kept, which becomes the most recently used.
func (c *lru[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.at[k]
	if !ok {
		var zero V
		return zero, false
	}
	c.order.MoveToFront(el)
	return el.Value.(lruEntry[K, V]).val, true
}

// keep stores v under k, unless k is kept already (another goroutine built it first):
// the value kept is returned, so every caller shares one.
func (c *lru[K, V]) keep(k K, v V) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.at[k]; ok {
		c.order.MoveToFront(el)
		return el.Value.(lruEntry[K, V]).val
	}
	c.at[k] = c.order.PushFront(lruEntry[K, V]{key: k, val: v})
	for c.order.Len() > c.max {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.at, old.Value.(lruEntry[K, V]).key)
	}
	return v
}

// len is how many entries are kept.
func (c *lru[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
