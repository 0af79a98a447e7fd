package ruleset

import (
	"errors"
	"fmt"
	"sort"
	"sync"
)

// ErrRaiseVersion refuses a ruleset whose id and version are installed already with
// other content. A campaign is tied to the exact version it was created on, so the
// content of an installed version must never change under it: the author raises
// `version` instead, and campaigns move to it with an explicit upgrade.
var ErrRaiseVersion = errors.New("raise version")

// Registry holds the installed rulesets, every version of each, keyed by id (a
// built-in's bare id, or `local/<id>` for an imported file) and integer version. It is
// safe for concurrent use.
type Registry struct {
	mu       sync.RWMutex
	versions map[string]map[int]*Loaded
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{versions: map[string]map[int]*Loaded{}} }

// Install adds l under id. Installing the same content again is a no-op; the same id
// and version with other content is refused with ErrRaiseVersion. Old versions stay.
func (r *Registry) Install(id string, l *Loaded) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	v := l.Ruleset.Version
	if old, ok := r.versions[id][v]; ok {
		if old.Digest == l.Digest {
			return nil
		}
		return fmt.Errorf("%s v%d is installed with other content: %w", id, v, ErrRaiseVersion)
	}
	if r.versions[id] == nil {
		r.versions[id] = map[int]*Loaded{}
	}
	r.versions[id][v] = l
	return nil
}

// Get returns the exact version of id.
func (r *Registry) Get(id string, version int) (*Loaded, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	l, ok := r.versions[id][version]
	return l, ok
}

// Latest returns the newest installed version of id.
func (r *Registry) Latest(id string) (*Loaded, bool) {
	vs := r.Versions(id)
	if len(vs) == 0 {
		return nil, false
	}
	return r.Get(id, vs[len(vs)-1])
}

// Versions lists the installed versions of id, oldest first.
func (r *Registry) Versions(id string) []int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	vs := make([]int, 0, len(r.versions[id]))
	for v := range r.versions[id] {
		vs = append(vs, v)
	}
	sort.Ints(vs)
	return vs
}

// IDs lists the installed ruleset ids, sorted.
func (r *Registry) IDs() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ids := make([]string, 0, len(r.versions))
	for id := range r.versions {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
