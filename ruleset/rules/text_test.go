package rules

import "testing"

// TestTextChecks is each kind of character the prompt and catalog checks refuse, ASCII
// and not, and text they let through.
func TestTextChecks(t *testing.T) {
	for _, c := range []struct {
		s               string
		prompt, catalog string // the problem each check reports, or ""
	}{
		{"Fire Bolt", "", ""},
		{"Tiefling’s ∞ rest", "", ""},
		{"two\nlines", "must not contain line breaks", "must not contain line breaks or control characters"},
		{"cr\r", "must not contain line breaks", "must not contain line breaks or control characters"},
		{"next\u0085line", "must not contain line breaks", "must not contain line breaks or control characters"},
		{"para\u2029graph", "must not contain line breaks", "must not contain line breaks or control characters"},
		{"line\u2028sep", "must not contain line breaks", "must not contain line breaks or control characters"},
		{"tab\there", "must not contain control characters", "must not contain line breaks or control characters"},
		{"del\x7f", "must not contain control characters", "must not contain line breaks or control characters"},
		{"c1\u009b", "", "must not contain line breaks or control characters"},
		{"both\n\x01", "must not contain line breaks", "must not contain line breaks or control characters"},
	} {
		var p, k Report
		p.PromptText("x", c.s, 80)
		k.CatalogText("x", c.s, 80)
		for _, got := range []struct {
			r           *Report
			want, which string
		}{{&p, c.prompt, "prompt"}, {&k, c.catalog, "catalog"}} {
			want := ""
			if got.want != "" {
				want = "x: " + got.want
			}
			if e := got.r.Problems.Error(); e != want {
				t.Errorf("%s text %q: %q, want %q", got.which, c.s, e, want)
			}
		}
	}
}

// TestPathOf is paths built from keys and indexes, as strictjson.Join builds them one
// at a time.
func TestPathOf(t *testing.T) {
	for _, c := range []struct {
		base string
		keys []any
		want string
	}{
		{"", []any{"spells"}, "spells"},
		{"", []any{3}, "[3]"},
		{"catalogs", []any{12, "rows", -1, "name"}, "catalogs[12].rows[-1].name"},
		{"", []any{"a", "b"}, "a.b"},
		{"x", []any{uint8(7)}, "x.7"},
		{"x", nil, "x"},
	} {
		if got := PathOf(c.base, c.keys...); got != c.want {
			t.Errorf("PathOf(%q, %v) = %q, want %q", c.base, c.keys, got, c.want)
		}
	}
}

// TestDiceRemembered is dice text read once and answered again from the report's
// memory: a bad text is a problem at every path it is met, a good one at none.
func TestDiceRemembered(t *testing.T) {
	var r Report
	for _, path := range []string{"a", "b"} {
		r.Dice(path, "2d6+1")
		r.Dice(path, "1d1")
		r.Dice(path, "2d6 + 1")
	}
	want := `a: "1d1" is not dice like 2d6 or 1d8+3` + "\n" +
		`a: "2d6 + 1" is not dice like 2d6 or 1d8+3` + "\n" +
		`b: "1d1" is not dice like 2d6 or 1d8+3` + "\n" +
		`b: "2d6 + 1" is not dice like 2d6 or 1d8+3`
	if got := r.Problems.Error(); got != want {
		t.Fatalf("problems:\n%s\nwant:\n%s", got, want)
	}
}
