package jsonappend

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// same fails unless got (after the prefix) and err are what json.Marshal(v) gives.
func same(t *rapid.T, what string, got []byte, err error, v any) {
	want, werr := json.Marshal(v)
	if werr != nil {
		if err == nil || err.Error() != werr.Error() || string(got) != "prefix" {
			t.Fatalf("%s: got %q (%v), want json.Marshal's error %v", what, got, err, werr)
		}
		return
	}
	if err != nil || string(got) != "prefix"+string(want) {
		t.Fatalf("%s:\n got %q (%v)\nwant prefix%q", what, got, err, want)
	}
}

func drawText(t *rapid.T, label string) string {
	return rapid.OneOf(
		rapid.SampledFrom([]string{"", "Mira", "a<b>&c", "quote\"back\\slash", "tab\tnew\nline\r\x01\x08\x0c\x1f",
			"line\u2028sep\u2029", "caf\u00e9 \U0001F600 ×3", "bad\xffutf8\xe2\x80", "\x7f", strings.Repeat("x", 300)}),
		rapid.StringN(0, 12, -1),
		rapid.Map(rapid.SliceOfN(rapid.Byte(), 0, 12), func(b []byte) string { return string(b) }),
	).Draw(t, label)
}

func drawFloat(t *rapid.T, label string) float64 {
	return rapid.OneOf(
		rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1, -7, 0.5, 1e-7, 1e-6, 1e15, 1e20, 1e21,
			123456789012345678, 1e300, math.Inf(1), math.Inf(-1), math.NaN()}),
		rapid.Float64(),
	).Draw(t, label)
}

func drawScalar(t *rapid.T, label string) any {
	switch rapid.IntRange(0, 8).Draw(t, label+"-kind") {
	case 0:
		return nil
	case 1:
		return drawFloat(t, label)
	case 2:
		return drawText(t, label)
	case 3:
		return rapid.Bool().Draw(t, label)
	case 4:
		return rapid.IntRange(-5, 5).Draw(t, label)
	case 5:
		return map[string]any{"a<": 1.5, "b": []any{nil, "x"}, "c": map[string]any{"d": nil}}
	case 6:
		if rapid.IntRange(0, 9).Draw(t, label+"-nil") == 0 {
			return map[string]any(nil)
		}
		return rapid.MapOfN(rapid.Custom(func(t *rapid.T) string { return drawText(t, "key") }),
			rapid.Custom(func(t *rapid.T) any { return drawFloat(t, "number") }), 0, 4).Draw(t, label)
	case 7:
		if rapid.IntRange(0, 9).Draw(t, label+"-nil") == 0 {
			return []any(nil)
		}
		return rapid.SliceOfN(rapid.Custom(func(t *rapid.T) any { return drawFloat(t, "element") }), 0, 4).Draw(t, label)
	}
	return json.RawMessage(`{ "raw" : [1, 2] }`)
}

// TestMatchesEncodingJSON: every writer writes what json.Marshal writes, after what
// dst held, and fails where it fails with its error, leaving dst as it was.
func TestMatchesEncodingJSON(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := func() []byte { return []byte("prefix") }
		s := drawText(t, "string")
		same(t, "string", String(p(), s), nil, s)
		f := drawFloat(t, "float")
		got, err := Float(p(), f)
		same(t, "float", got, err, f)
		n := rapid.Int().Draw(t, "int")
		same(t, "int", Int(p(), n), nil, n)
		v := drawScalar(t, "scalar")
		got, err = Scalar(p(), v)
		same(t, "scalar", got, err, v)

		var tm time.Time
		switch rapid.IntRange(0, 3).Draw(t, "time") {
		case 1:
			tm = time.Date(2026, 3, 14, 15, 9, 26, rapid.IntRange(0, 999_999_999).Draw(t, "ns"), time.FixedZone("x", 3600))
		case 2:
			tm = time.Date(rapid.IntRange(-2, 10_001).Draw(t, "year"), 1, 2, 3, 4, 5, 0, time.UTC) // out of range fails
		case 3:
			tm = time.Now() // with a monotonic reading
		}
		got, err = Time(p(), tm)
		same(t, "time", got, err, tm)

		m := rapid.MapOfN(rapid.Custom(func(t *rapid.T) string { return drawText(t, "key") }),
			rapid.Custom(func(t *rapid.T) any { return drawScalar(t, "value") }), 0, 70).Draw(t, "map")
		if rapid.IntRange(0, 9).Draw(t, "nil map") == 0 {
			m = nil
		}
		got, err = Map(p(), m, false, Scalar)
		same(t, "map", got, err, m)
		if m == nil {
			got, err = Map(p(), m, true, Scalar)
			same(t, "nil map as empty", got, err, map[string]any{})
		}

		ss := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) string { return drawText(t, "item") }), -1, 4).Draw(t, "strings")
		if rapid.IntRange(0, 4).Draw(t, "nil strings") == 0 {
			ss = nil
		}
		same(t, "strings", Strings(p(), ss), nil, ss)
	})
}

// TestMapRemembersOrder: maps of many keys, drawn from a few dozen so their key sets
// repeat and differ (a remembered order used, missing, or not the map's), are written
// as json.Marshal writes them.
func TestMapRemembersOrder(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		for i := range rapid.IntRange(1, 6).Draw(t, "maps") {
			m := map[string]any{}
			for _, k := range rapid.SliceOfN(rapid.IntRange(0, 40), orderedMin-2, 40).Draw(t, "keys") {
				m[fmt.Sprintf("field-%02d", k)] = float64(k + i)
			}
			got, err := Map([]byte("prefix"), m, false, Scalar)
			same(t, "map", got, err, m)
		}
	})
}

// TestMapOrderNotItsKeys: a remembered order found for a map (the same sum of hashes,
// as many keys) whose keys are not all the map's is not used.
func TestMapOrderNotItsKeys(t *testing.T) {
	m := map[string]any{}
	var sum uint64
	for i := range orderedMin {
		k := fmt.Sprint("k", i)
		m[k] = float64(i)
		sum += maphash.String(orderSeed, k)
	}
	other := make([]string, orderedMin)
	for i := range other {
		other[i] = fmt.Sprint("j", i)
	}
	orders[sum%uint64(len(orders))].Store(&order{sum, other})
	got, err := Map(nil, m, false, Scalar)
	want, _ := json.Marshal(m)
	if err != nil || string(got) != string(want) {
		t.Fatalf("got %s (%v), want %s", got, err, want)
	}
}
