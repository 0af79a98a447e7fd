package parser

import "sync"

// maxCachedFormulas bounds a Formulas cache: rules come from system files and items
// anyone can write, so the cache must not grow without end. Full, it starts afresh.
const maxCachedFormulas = 512

// Formulas reads each formula once and keeps it, refusal and all, for the next time
// the same text is worked out: reading costs participle a thousand allocations, while
// a rule's formula is worked out on every tick its rule is asked. Its Eval has the shape
// of inventory.Eval (Campaign.NewRunner(fs.Eval)). The zero value is ready; it is safe
// for concurrent use.
type Formulas struct {
	mu   sync.Mutex
	read map[string]readFormula
}

type readFormula struct {
	f   Formula
	err error
}

// Eval works formula out as EvalFormula does, reading it only the first time.
func (fs *Formulas) Eval(formula string, lookup func(address string) (float64, bool)) (float64, error) {
	fs.mu.Lock()
	r, ok := fs.read[formula]
	fs.mu.Unlock()
	if !ok {
		r.f, r.err = ParseFormula(formula)
		fs.mu.Lock()
		if fs.read == nil || len(fs.read) >= maxCachedFormulas {
			fs.read = map[string]readFormula{}
		}
		fs.read[formula] = r
		fs.mu.Unlock()
	}
	if r.err != nil {
		return 0, r.err
	}
	return r.f.Eval(lookup)
}
