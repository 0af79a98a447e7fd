package inventory

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"sheetkeeper/strictjson"
)

// The importer's hostile-file table (issue 15): every bound of Parse and Import, each
// file refused with the problem kind it should have — Limit for a file or a list over its
// bound, Malformed for what is not a system at all — in under a second and 64 MB
// allocated. Each file is built here by code, so the table shows what it holds.

// hostileSystem is a system file whose key holds value (JSON text), beside a template and
// an item, so the rest of the file is sound.
func hostileSystem(key, value string) []byte {
	base := map[string]string{
		"templates": `[{"id":"t","name":"T"}]`,
		"catalog":   `[{"id":"i","type":"t","name":"I"}]`,
	}
	base[key] = value
	var b strings.Builder
	b.WriteString(`{"packrat":"system","id":"hostile"`)
	for _, k := range []string{"templates", "catalog"} {
		fmt.Fprintf(&b, `,%q:%s`, k, base[k])
		delete(base, k)
	}
	for k, v := range base {
		fmt.Fprintf(&b, `,%q:%s`, k, v)
	}
	b.WriteString("}")
	return []byte(b.String())
}

// list is n copies of one JSON value, as an array; each may use %d for its index.
func list(n int, item string) string {
	var b strings.Builder
	b.Grow(n * (len(item) + 6))
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if strings.Contains(item, "%d") {
			fmt.Fprintf(&b, item, i)
		} else {
			b.WriteString(item)
		}
	}
	b.WriteByte(']')
	return b.String()
}

// fill repeats item in a list until the file is just under MaxFileBytes: the most a
// list can hold within the size bound.
func fill(key, item string) []byte {
	n := (MaxFileBytes - 200) / (len(item) + 1)
	return hostileSystem(key, list(n, item))
}

// object is n members "k<i>": value.
func object(n int, value string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%s`, i, value)
	}
	b.WriteByte('}')
	return b.String()
}

type hostileFile struct {
	name string
	data []byte
	want strictjson.Kind
}

func hostileFiles() []hostileFile {
	str := func(n int) string { return `"` + strings.Repeat("a", n) + `"` }
	var parents strings.Builder
	parents.WriteString(`[{"id":"c0","name":"C"}`)
	for i := 1; i < MaxTemplates; i++ {
		fmt.Fprintf(&parents, `,{"id":"c%d","name":"C","parent":"c%d"}`, i, i-1)
	}
	parents.WriteString("]")
	return []hostileFile{
		{"over MaxFileBytes", make([]byte, MaxFileBytes+1), strictjson.Limit},
		{"100,000-deep arrays", []byte(`{"packrat":"system","id":"x","stats":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`), strictjson.Malformed},
		{"100,000-deep objects", hostileSystem("stats", strings.Repeat(`{"a":`, 100_000)+"1"+strings.Repeat("}", 100_000)), strictjson.Malformed},
		{"not JSON", []byte(`{"packrat":"system","id":`), strictjson.Malformed},
		{"invalid UTF-8", []byte("{\"packrat\":\"system\",\"id\":\"x\xff\xfe\"}"), strictjson.Malformed},
		// every count bound, one over, and as many as 4 MB holds
		{"templates + 1", hostileSystem("templates", list(MaxTemplates+1, `{"id":"t%d","name":"T"}`)), strictjson.Limit},
		{"templates filling 4 MB", fill("templates", `{}`), strictjson.Limit},
		{"starterTemplates filling 4 MB", fill("starterTemplates", `{}`), strictjson.Limit},
		{"groups filling 4 MB", fill("groups", `{}`), strictjson.Limit},
		{"features + 1", hostileSystem("features", list(MaxFeatures+1, `{"key":"f%d","label":"F"}`)), strictjson.Limit},
		{"features filling 4 MB", fill("features", `{}`), strictjson.Limit},
		{"commonFields filling 4 MB", fill("commonFields", `{}`), strictjson.Limit},
		{"states + 1", hostileSystem("states", list(MaxStates+1, `{"key":"s%d","label":"S"}`)), strictjson.Limit},
		{"states filling 4 MB", fill("states", `{}`), strictjson.Limit},
		{"values filling 4 MB", fill("values", `{}`), strictjson.Limit},
		{"stats with 400,000 keys", hostileSystem("stats", object(400_000, "0")), strictjson.Limit},
		{"panels filling 4 MB", fill("panels", `{}`), strictjson.Limit},
		{"catalog + 1", hostileSystem("catalog", list(MaxCatalog+1, `{"id":"i%d","type":"t","name":"I"}`)), strictjson.Limit},
		{"catalog filling 4 MB", fill("catalog", `{}`), strictjson.Limit},
		{"tables filling 4 MB", fill("tables", `{}`), strictjson.Limit},
		{"table entries + 1", hostileSystem("tables", `[{"id":"tb","name":"T","entries":`+list(MaxTableEntries+1, `{"roll":1,"id":"i"}`)+`}]`), strictjson.Limit},
		{"glossary with 400,000 keys", hostileSystem("glossary", object(400_000, `""`)), strictjson.Limit},
		{"slots filling 4 MB", fill("slots", `{}`), strictjson.Limit},
		{"slot rules + 1", hostileSystem("slots", `[{"key":"s","label":"S","count":1,"rules":`+list(MaxSlotRules+1, `{"name":"x"}`)+`}]`), strictjson.Limit},
		{"coins filling 4 MB", hostileSystem("currency", `{"coins":`+list((MaxFileBytes-200)/3, `{}`)+`}`), strictjson.Limit},
		{"a template's fields + 1", hostileSystem("templates", `[{"id":"t","name":"T","fields":`+list(MaxFields+1, `{"key":"f%d","label":"F","kind":"text"}`)+`}]`), strictjson.Limit},
		{"a field's options + 1", hostileSystem("commonFields", `[{"key":"f","label":"F","kind":"select","options":`+list(MaxOptions+1, `"o%d"`)+`}]`), strictjson.Limit},
		{"a template's categories + 1", hostileSystem("templates", `[{"id":"t","name":"T","categories":`+list(MaxCategories+1, `"c%d"`)+`}]`), strictjson.Limit},
		{"an item's keys + 1", hostileSystem("catalog", `[`+strings.TrimSuffix(object(MaxItemFields+1, `""`), "}")+`,"id":"i","type":"t","name":"I"}]`), strictjson.Limit},
		{"within every list bound, over the budget of values", hostileSystem("catalog", list(4000, object(100, "0"))), strictjson.Limit},
		{"toggles filling 4 MB", fill("toggles", `{}`), strictjson.Limit},
		{"campaignSettings filling 4 MB", fill("campaignSettings", `""`), strictjson.Limit},
		{"an item's triggers + 1", hostileSystem("catalog", `[{"id":"i","type":"t","name":"I","triggers":`+list(MaxTriggers+1, `{}`)+`}]`), strictjson.Limit},
		{"a template's triggers + 1", hostileSystem("templates", `[{"id":"t","name":"T","triggers":`+list(MaxTriggers+1, `{}`)+`}]`), strictjson.Limit},
		{"a set's pieces filling 4 MB", hostileSystem("catalog", `[{"id":"i","type":"t","name":"I","features":{"deck":true},"deckCards":`+list((MaxFileBytes-300)/4, `"a"`)+`}]`), strictjson.Limit},
		{"an item's field 4 MB long", hostileSystem("catalog", `[{"id":"i","type":"t","name":"I","features":{"writable":true},"body":`+str(MaxFileBytes-300)+`}]`), strictjson.Malformed},
		// long strings
		{"a 4 MB id", hostileSystem("id", str(MaxFileBytes-200)), strictjson.Malformed},
		{"a description over MaxTextBytes", hostileSystem("description", str(MaxTextBytes+1)), strictjson.Malformed},
		{"panelLib over MaxPanelBytes", hostileSystem("panelLib", str(MaxPanelBytes+1)), strictjson.Limit},
		{"a panel over MaxPanelBytes", hostileSystem("panels", `[{"id":"p","slot":"inventory","html":`+str(MaxPanelBytes+1)+`}]`), strictjson.Limit},
		{"a glossary entry over MaxTextBytes", hostileSystem("glossary", `{"Finesse":`+str(MaxTextBytes+1)+`}`), strictjson.Malformed},
		{"a feature's hint over MaxTextBytes", hostileSystem("features", `[{"key":"f","label":"F","hint":`+str(MaxTextBytes+1)+`}]`), strictjson.Malformed},
		// a huge number of problems
		{"5,000 items each wrong three ways", hostileSystem("catalog", list(MaxCatalog, `{"id":"","type":"nope","name":"","cost":-1}`)), strictjson.Malformed},
		// parent chains and cycles
		{"a chain of 300 templates", hostileSystem("templates", parents.String()), strictjson.Malformed},
		{"a cycle of templates", hostileSystem("templates", `[{"id":"a","name":"A","parent":"b"},{"id":"b","name":"B","parent":"a"}]`), strictjson.Malformed},
		// huge numbers
		{"huge numbers", hostileSystem("catalog", `[{"id":"i","type":"t","name":"I","cost":1e308,"weight":1e308}]`), strictjson.Malformed},
		{"a number past float64", hostileSystem("catalog", `[{"id":"i","type":"t","name":"I","cost":1e999}]`), strictjson.Malformed},
		{"a huge coin", hostileSystem("currency", `{"coins":[{"key":"g","value":1e300},{"key":"c","value":1}]}`), strictjson.Malformed},
		{"a huge slot count", hostileSystem("slots", `[{"key":"s","label":"S","count":1e18}]`), strictjson.Malformed},
	}
}

// allocated runs f and returns its time and the bytes it allocated (runtime.MemStats
// TotalAlloc delta: an upper bound of what it held at once).
func allocated(f func()) (time.Duration, float64) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	f()
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	return elapsed, float64(after.TotalAlloc-before.TotalAlloc) / (1 << 20)
}

func TestHostileSystemFiles(t *testing.T) {
	for _, h := range hostileFiles() {
		t.Run(h.name, func(t *testing.T) {
			var ps strictjson.Problems
			var s *System
			elapsed, mb := allocated(func() { s, ps = Import(h.data, func(string) bool { return false }) })
			t.Logf("%d KB: %v, %.1f MB allocated, %d problems", len(h.data)/1024, elapsed.Round(time.Millisecond), mb, len(ps))
			if s != nil || len(ps) == 0 {
				t.Fatal("imported")
			}
			if k, _ := strictjson.KindOf(ps); k != h.want {
				t.Errorf("kind %v, want %v: %.300v", k, h.want, ps)
			}
			if len(ps) > MaxProblems+1 {
				t.Errorf("%d problems kept", len(ps))
			}
			if elapsed > time.Second && !testing.Short() && !raceEnabled {
				t.Errorf("took %v", elapsed)
			}
			if mb > 64 {
				t.Errorf("%.1f MB allocated", mb)
			}
		})
	}
}

// TestHostileItems: a player's own item (ParseItem, what a table's import of one reads) is
// bounded the same way.
func TestHostileItems(t *testing.T) {
	c := campaign(t)
	for _, h := range []hostileFile{
		{"over MaxFileBytes", make([]byte, MaxFileBytes+1), strictjson.Limit},
		{"100,000-deep arrays", []byte(`{"id":"i","type":"lr-gear","name":"I","x":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`), strictjson.Malformed},
		{"300,000 keys", []byte(object(300_000, "0")), strictjson.Limit},
		{"a list filling 4 MB", []byte(`{"id":"i","type":"lr-gear","name":"I","tags":` + list((MaxFileBytes-100)/2, "0") + `}`), strictjson.Limit},
		{"keys + 1", []byte(strings.TrimSuffix(object(MaxItemFields+1, `""`), "}") + `,"id":"i","type":"lr-gear","name":"I"}`), strictjson.Limit},
	} {
		t.Run(h.name, func(t *testing.T) {
			var ps strictjson.Problems
			elapsed, mb := allocated(func() { _, ps = c.ParseItem(h.data) })
			t.Logf("%d KB: %v, %.1f MB allocated", len(h.data)/1024, elapsed.Round(time.Millisecond), mb)
			if k, _ := strictjson.KindOf(ps); len(ps) == 0 || k != h.want {
				t.Errorf("kind %v, want %v: %.300v", k, h.want, ps)
			}
			if elapsed > time.Second && !raceEnabled || mb > 64 {
				t.Errorf("%v, %.1f MB", elapsed, mb)
			}
		})
	}
}
