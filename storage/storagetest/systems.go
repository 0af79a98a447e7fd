package storagetest

import (
	"slices"
	"testing"

	"sheetkeeper/storage"
)

// testSystems: every version of an imported system is kept under its guild, versions
// are listed oldest first in numeric order, ids sorted and never mixed with a neighbour
// sharing their prefix, and another guild's namespace sees none of them.
func testSystems(t *testing.T, s storage.Store) {
	recs := []*storage.SystemRecord{
		{Guild: "g1", ID: "saltmarch", Version: 2, Name: "Saltmarch", Digest: "d2", File: []byte(`{"v":2}`), InstalledBy: "u1", InstalledAt: When},
		{Guild: "g1", ID: "saltmarch", Version: 10, Name: "Saltmarch", Digest: "d10", File: []byte(`{"v":10}`), InstalledAt: When},
		{Guild: "g1", ID: "saltmarch", Version: 1, Name: "Saltmarch", Digest: "d1", File: []byte{0, 1, 2, 255}, InstalledAt: When},
		{Guild: "g1", ID: "saltmarch-x", Version: 1, Name: "prefix neighbour", File: []byte("{}"), InstalledAt: When},
		{Guild: "g2", ID: "saltmarch", Version: 1, Name: "another server's", File: []byte("{}"), InstalledAt: When},
		{ID: "saltmarch", Version: 3, Name: "the console's", File: []byte("{}"), InstalledAt: When},
	}
	update(t, s, func(tx storage.Tx) error {
		for _, r := range recs {
			must(tx.PutSystem(r))
		}
		return nil
	})
	view(t, s, func(tx storage.Tx) error {
		for _, want := range recs {
			got, err := tx.System(want.Guild, want.ID, want.Version)
			if err != nil {
				t.Fatalf("System(%q, %s, %d): %v", want.Guild, want.ID, want.Version, err)
			}
			sameJSON(t, "system", got, want)
		}
		for _, c := range []struct {
			guild string
			want  []int
		}{{"g1", []int{1, 2, 10}}, {"g2", []int{1}}, {"", []int{3}}, {"g3", nil}} {
			vs, err := tx.SystemVersions(c.guild, "saltmarch")
			must(err)
			if !slices.Equal(vs, c.want) {
				t.Fatalf("versions in %q: %v, want %v", c.guild, vs, c.want)
			}
		}
		ids, err := tx.SystemIDs("g1")
		must(err)
		if !slices.Equal(ids, []string{"saltmarch", "saltmarch-x"}) {
			t.Fatalf("ids of g1: %q", ids)
		}
		if ids, err := tx.SystemIDs("nowhere"); err != nil || len(ids) != 0 {
			t.Fatalf("ids of an empty guild: %q, %v", ids, err)
		}
		_, err = tx.System("g1", "saltmarch", 3)
		notFound(t, "missing version", err)
		_, err = tx.System("g2", "saltmarch", 2)
		notFound(t, "another guild's version", err)
		_, err = tx.System("g1", "nope", 1)
		notFound(t, "missing id", err)
		return nil
	})
}

// testInvalidSystems: a record no store keeps is refused Invalid and writes nothing.
func testInvalidSystems(t *testing.T, s storage.Store) {
	for _, bad := range []*storage.SystemRecord{
		{Guild: "g", ID: "", Version: 1},
		{Guild: "g", ID: "a\x00b", Version: 1},
		{Guild: "g\x00h", ID: "a", Version: 1},
		{Guild: "g", ID: "a", Version: 0},
	} {
		err := s.Update(t.Context(), func(tx storage.Tx) error { return tx.PutSystem(bad) })
		wantKind(t, "PutSystem "+bad.Guild+"/"+bad.ID, err, storage.Invalid)
	}
	view(t, s, func(tx storage.Tx) error {
		if ids, err := tx.SystemIDs("g"); err != nil || len(ids) != 0 {
			t.Fatalf("a refused put wrote: %q, %v", ids, err)
		}
		return nil
	})
}
