package inventory

// uidSet is the uids of one holdings as Restore checks them (each once, every "in" one
// of them): those NewUID makes ("i1", "i2"…) as bits, any other in a map, so restoring
// a card's hundreds of entries on every message builds no map of them.
type uidSet struct {
	bits  []uint64
	other map[string]bool
}

// maxUIDBit is the largest uid number kept as a bit (a set of bits is at most 8 KB);
// a larger one, like any uid NewUID would not write, goes in the map.
const maxUIDBit = 1 << 16

// newUIDSet is an empty set sized for the uids of holdings whose counter is next (up
// to a thousand uids; one past grows it).
func newUIDSet(next int64) *uidSet {
	return &uidSet{bits: make([]uint64, 0, min(max(next, 0)/64+1, 16))}
}

// add puts uid in the set and reports whether it was there already.
func (s *uidSet) add(uid string) bool {
	if n, ok := uidNumber(uid); ok {
		w, b := n/64, uint64(1)<<(n%64)
		for len(s.bits) <= w {
			s.bits = append(s.bits, 0)
		}
		had := s.bits[w]&b != 0
		s.bits[w] |= b
		return had
	}
	if s.other == nil {
		s.other = map[string]bool{}
	}
	had := s.other[uid]
	s.other[uid] = true
	return had
}

func (s *uidSet) has(uid string) bool {
	if n, ok := uidNumber(uid); ok {
		return n/64 < len(s.bits) && s.bits[n/64]&(uint64(1)<<(n%64)) != 0
	}
	return s.other[uid]
}

// uidNumber is n of a uid "i<n>" as NewUID writes it (no sign, no leading zero), when
// n is at most maxUIDBit.
func uidNumber(uid string) (int, bool) {
	if len(uid) < 2 || len(uid) > 6 || uid[0] != 'i' || uid[1] == '0' {
		return 0, false
	}
	n := 0
	for i := 1; i < len(uid); i++ {
		c := uid[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, n <= maxUIDBit
}
