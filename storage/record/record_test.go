package record

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"sheetkeeper/inventory"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
	"sheetkeeper/storage/storagetest"
)

// benchCard is a card whose JSON is about 2 KB, like a built character.
func benchCard(name string) *storage.CardRecord {
	c := storagetest.Card("u1", name, 1e6)
	for i := range 40 {
		c.Card.Build.Fields[fmt.Sprintf("field-%02d", i)] = float64(i * 7)
	}
	c.Card.Build.Abilities = map[string]float64{"str": 10, "dex": 14, "con": 12, "int": 8, "wis": 13, "cha": 15}
	c.Card.Live.Pools = map[string]sheet.PoolValue{"hp": {Value: 31}, "slots-1": {Value: 2}, "slots-2": {Value: 1}}
	c.Card.Live.Conditions = []string{"blessed"}
	c.Card.Build.Lists = map[string][]sheet.Row{"spells": {
		{"name": "Fire Bolt", "level": 0.0}, {"name": "Shield", "level": 1.0}, {"name": "Misty Step", "level": 2.0},
		{"name": "Magic Missile", "level": 1.0}, {"name": "Counterspell", "level": 3.0}}}
	return c
}

// drawText draws strings that stress escaping: HTML characters, quotes, control bytes,
// U+2028, invalid UTF-8, and random ones.
func drawText(t *rapid.T, label string) string {
	return rapid.OneOf(
		rapid.SampledFrom([]string{"", "u1", "Mira", "a<b>&c", "quote\"back\\slash", "tab\tnew\nline\r\x01\x08\x0c\x1f",
			"line\u2028sep\u2029", "caf\u00e9 \U0001F600 ×3", "bad\xffutf8\xe2\x80", "\x7f", strings.Repeat("x", 300)}),
		rapid.StringN(0, 12, -1),
		rapid.Map(rapid.SliceOfN(rapid.Byte(), 0, 12), func(b []byte) string { return string(b) }),
	).Draw(t, label)
}

func drawTime(t *rapid.T, label string) time.Time {
	switch rapid.IntRange(0, 4).Draw(t, label+"-kind") {
	case 0:
		return time.Time{}
	case 1:
		return time.Date(2026, 3, 14, 15, 9, 26, rapid.IntRange(0, 999_999_999).Draw(t, label+"-ns"), time.UTC)
	case 2:
		return time.Date(2026, 3, 14, 15, 9, 26, 5000, time.FixedZone("x", rapid.IntRange(-50_000, 50_000).Draw(t, label+"-off")))
	case 3:
		return time.Date(rapid.IntRange(-2, 10_001).Draw(t, label+"-year"), 1, 2, 3, 4, 5, 0, time.UTC) // out of range fails
	}
	return time.Now() // with a monotonic reading
}

func drawValue(t *rapid.T, label string) any {
	switch rapid.IntRange(0, 9).Draw(t, label+"-kind") {
	case 0:
		return nil
	case 1:
		return rapid.SampledFrom([]float64{0, math.Copysign(0, -1), 1, -7, 0.5, 1e-7, 1e-6, 1e20, 1e21, 123456789012345678, 1e300,
			math.Inf(1), math.NaN()}).Draw(t, label)
	case 2:
		return rapid.Float64().Draw(t, label)
	case 3:
		return drawText(t, label)
	case 4:
		return rapid.Bool().Draw(t, label)
	case 5:
		return rapid.IntRange(-5, 5).Draw(t, label)
	case 6:
		return []string{"prone", drawText(t, label)}
	case 7:
		return sheet.PoolValue{Value: 3, Temp: 1}
	case 8:
		return map[string]any{"a<": 1.5, "b": []any{nil, "x"}}
	}
	return json.RawMessage(`{ "raw" : [1, 2] }`)
}

// TestEncodeMatches: the record writers write exactly what json.Marshal writes, and
// fail where it fails, with its error.
func TestEncodeMatches(t *testing.T) {
	check := func(t *rapid.T, what string, got []byte, err error, v any) {
		want, werr := json.Marshal(v)
		if werr != nil {
			if err == nil || err.Error() != werr.Error() {
				t.Fatalf("%s: got %s (%v), want the error %v", what, got, err, werr)
			}
			return
		}
		if err != nil || string(got) != string(want) {
			t.Fatalf("%s:\n got %s (%v)\nwant %s", what, got, err, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		c := benchCard(drawText(t, "name"))
		c.OwnerID = drawText(t, "owner")
		c.From = drawText(t, "from")
		c.KitSystem = drawText(t, "kit system")
		c.UpdatedAt = drawTime(t, "updated")
		c.Card.Build.Fields["odd"] = drawValue(t, "field")
		c.Card.Live.Conditions = append(c.Card.Live.Conditions, drawText(t, "condition"))
		if rapid.IntRange(0, 2).Draw(t, "holdings") > 0 {
			c.Inventory = drawHoldings(t)
		}
		if rapid.IntRange(0, 9).Draw(t, "nil card") == 0 {
			c.Card = nil
		}
		got, err := Encode(c, AppendCard)
		check(t, "card record", got, err, c)

		r := &storage.Reply{ChannelID: drawText(t, "channel"), Seq: rapid.Int64().Draw(t, "seq"), MessageID: drawText(t, "message"),
			AuthorID: drawText(t, "author"), Text: drawText(t, "text"), Status: drawText(t, "status"),
			Source: drawText(t, "source"), Default: drawText(t, "default"), CreatedAt: drawTime(t, "created"), UpdatedAt: drawTime(t, "updated")}
		for range rapid.IntRange(0, 3).Draw(t, "posts") {
			r.Posted = append(r.Posted, drawText(t, "posted"))
		}
		for range rapid.IntRange(0, 3).Draw(t, "rolls") {
			roll := storage.Roll{Tag: drawText(t, "roll tag")}
			if rapid.IntRange(0, 4).Draw(t, "nil faces") > 0 {
				roll.Faces = rapid.SliceOfN(rapid.IntRange(-3, 1000), 0, 6).Draw(t, "faces")
			}
			r.Rolls = append(r.Rolls, roll)
		}
		switch n := rapid.IntRange(-1, 3).Draw(t, "changes"); n {
		case -1:
			r.Changes = []sheet.Change{}
		default:
			for range n {
				r.Changes = append(r.Changes, sheet.Change{Card: drawText(t, "card"), Path: drawText(t, "path"),
					Before: drawValue(t, "before"), After: drawValue(t, "after")})
			}
		}
		got, err = Encode(r, AppendReply)
		check(t, "reply", got, err, r)
	})
}

// drawHoldings is stored holdings with drawn names, states and an embedded item.
func drawHoldings(t *rapid.T) *inventory.Stored {
	st := &inventory.Stored{Next: rapid.Int64Range(0, 1e9).Draw(t, "next")}
	if rapid.Bool().Draw(t, "purse") {
		st.Purse = map[string]int64{drawText(t, "coin"): rapid.Int64().Draw(t, "coins")}
	}
	for range rapid.IntRange(0, 3).Draw(t, "entries") {
		e := inventory.StoredEntry{UID: drawText(t, "uid"), ID: drawText(t, "id"), Qty: rapid.Int64().Draw(t, "qty"),
			Equipped: rapid.Bool().Draw(t, "equipped"), In: drawText(t, "in"), Charges: rapid.Int64().Draw(t, "charges")}
		if f, ok := drawValue(t, "fill").(float64); ok {
			e.Fill = f
		}
		if rapid.Bool().Draw(t, "out") {
			e.Out = rapid.SliceOfN(rapid.IntRange(-3, 1000), 1, 4).Draw(t, "pieces out")
		}
		if rapid.Bool().Draw(t, "states") {
			e.States = map[string]bool{drawText(t, "state"): rapid.Bool().Draw(t, "on")}
			e.GM = map[string]bool{drawText(t, "gm state"): rapid.Bool().Draw(t, "gm on")}
		}
		if rapid.Bool().Draw(t, "own") {
			e.Item = map[string]any{"name": drawText(t, "name"), "weight": drawValue(t, "weight")}
		}
		st.Items = append(st.Items, e)
	}
	if rapid.Bool().Draw(t, "rules") {
		r := &inventory.StoredRules{At: drawText(t, "at")}
		if f, ok := drawValue(t, "local").(float64); ok {
			r.Locals = map[string]float64{drawText(t, "local name"): f}
			until := f / 2
			r.Moving = map[string]inventory.Moving{drawText(t, "moving"): {Rate: f, Until: &until}}
		}
		if rapid.Bool().Draw(t, "seen") {
			r.Seen, r.Off = []string{drawText(t, "seen key")}, []string{drawText(t, "off key")}
			r.Had, r.Worn = []string{drawText(t, "had")}, []string{drawText(t, "worn")}
		}
		st.Rules = r
	}
	return st
}

// BenchmarkEncode: a 3-tag reply's card and reply record, by encoding/json and by the
// writers here.
func BenchmarkEncode(b *testing.B) {
	c := benchCard("Mira")
	r := &storage.Reply{ChannelID: "ch0", Seq: 1_000_000, MessageID: "1300000000000000001", AuthorID: "gm",
		Text:   `The acid hisses. [sheet: who="Mira" op="spend" pool="gold" amount="1"] ×3`,
		Status: storage.ReplyLive, CreatedAt: time.Now().UTC(), UpdatedAt: time.Now().UTC()}
	for range 3 {
		r.Changes = append(r.Changes, sheet.Change{Card: "Mira", Path: "build.fields.gold", Before: 1e6, After: 1e6 - 1})
	}
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(c); err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("writers", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Encode(c, AppendCard); err != nil {
				b.Fatal(err)
			}
			if _, err := Encode(r, AppendReply); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestAppendCardWritesEveryField: a card record with every text field set encodes as
// json.Marshal does, so a field added to storage.CardRecord and not to AppendCard
// fails here rather than going missing from disk behind the card memo (KitSystem did:
// it read back "" once the process restarted).
func TestAppendCardWritesEveryField(t *testing.T) {
	c := benchCard("Mira")
	c.Inventory = &inventory.Stored{}
	v := reflect.ValueOf(c).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.String {
			f.SetString(v.Type().Field(i).Name)
		}
	}
	got, err := Encode(c, AppendCard)
	want, _ := json.Marshal(c)
	if err != nil || string(got) != string(want) {
		t.Fatalf("AppendCard:\n got %s (%v)\nwant %s", got, err, want)
	}
}
