package inventory

import (
	"bytes"
	"reflect"
	"testing"
)

// TestExportRoundTrips: an exported system reads back as the same system, and exports
// the same bytes again; a legacy file exports as the nested templates it became.
func TestExportRoundTrips(t *testing.T) {
	for _, name := range []string{"lantern.json", "legacy-groups.json"} {
		s, ps := Parse(readTestdata(t, name))
		if len(ps) > 0 {
			t.Fatal(ps)
		}
		out, err := s.Export()
		if err != nil {
			t.Fatal(err)
		}
		back, ps := Parse(out)
		if len(ps) > 0 {
			t.Fatalf("%s exported:\n%s\nproblems: %v", name, out, ps)
		}
		again, _ := back.Export()
		if !bytes.Equal(out, again) {
			t.Errorf("%s: export is not stable", name)
		}
		if !reflect.DeepEqual(s.Templates[0].Name, back.Templates[0].Name) || len(s.Templates) != len(back.Templates) ||
			!reflect.DeepEqual(s.LegacyGroups, back.LegacyGroups) || len(s.Catalog) != len(back.Catalog) {
			t.Errorf("%s: the system read back differs", name)
		}
	}
}
