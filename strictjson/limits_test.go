package strictjson

import (
	"strings"
	"testing"
)

type limited struct {
	Entries []inner          `json:"entries" maxItems:"3"`
	Others  []inner          `json:"others,omitempty"`
	Tags    map[string]int   `json:"tags,omitempty"`
	Any     any              `json:"any,omitempty"`
	Deep    map[string][]any `json:"deep,omitempty"`
}

func decodeLimited(t *testing.T, doc string) Problems {
	t.Helper()
	var v limited
	return Decode([]byte(doc), &v, "", Options{MaxItems: 5})
}

func wantLines(t *testing.T, ps Problems, want ...string) {
	t.Helper()
	if got := ps.Error(); got != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// An array over its limit is one Limit problem whatever its items hold: their own
// problems are taken back and the items past the limit are only scanned.
func TestArrayOverItsLimitIsOneProblem(t *testing.T) {
	ps := decodeLimited(t, `{"entries":[{},{},{},{},0,"x",[1,{"a":"b"}]]}`)
	wantLines(t, ps, "entries: has 7 items, at most 3 allowed")
	if k, _ := KindOf(ps); k != Limit {
		t.Errorf("kind %v", k)
	}
	// At the limit, the items are decoded and checked.
	wantLines(t, decodeLimited(t, `{"entries":[{"id":"a"},{},{"id":"c"}]}`), "entries[1].id: required")
	// Options.MaxItems bounds what no tag does: arrays, maps, generic values.
	wantLines(t, decodeLimited(t, `{"entries":[],"others":[{},{},{},{},{},{}]}`), "others: has 6 items, at most 5 allowed")
	wantLines(t, decodeLimited(t, `{"entries":[],"tags":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":"x"}}`), "tags: has 6 keys, at most 5 allowed")
	wantLines(t, decodeLimited(t, `{"entries":[],"any":[1,2,3,4,5,6]}`), "any: has 6 items, at most 5 allowed")
	wantLines(t, decodeLimited(t, `{"entries":[],"deep":{"k":[[],{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}]}}`), "deep.k[1]: has 6 keys, at most 5 allowed")
	// A syntax error among the skipped items still stops the document.
	ps = decodeLimited(t, `{"entries":[1,2,3,4,{"a" 1}]}`)
	wantLines(t, ps, "entries[0]: expected an object, got a number", "entries[1]: expected an object, got a number",
		"entries[2]: expected an object, got a number", "invalid JSON at line 1, column 26: expected ':' after a key")
}

func TestProblemsAreCapped(t *testing.T) {
	var ps Problems
	for i := range MaxProblems + 2500 {
		ps.Add(Join("entries", i), "bad")
	}
	if len(ps) != MaxProblems+1 || ps[MaxProblems].String() != "… and 2,500 more problems" || ps.Total() != MaxProblems+2500 {
		t.Fatalf("%d kept, last %q", len(ps), ps[len(ps)-1])
	}
	if ps.Complete() {
		t.Error("a list with problems not kept is not complete")
	}
	// Lists joined by append are trimmed and their counts summed by Sort.
	joined := append(append(Problems{}, ps...), ps...)
	joined.Sort()
	if len(joined) != MaxProblems+1 || joined.Total() != 2*(MaxProblems+2500) {
		t.Fatalf("joined: %d kept, %d in all", len(joined), joined.Total())
	}
	head := ps.Head(50)
	if len(head) != 51 || head[50].String() != "… and 3,450 more problems" || head.Total() != ps.Total() {
		t.Fatalf("head: %d, %q", len(head), head[len(head)-1])
	}
	if short := ps[:10].Head(50); len(short) != 10 {
		t.Fatalf("a short list is its own head: %d", len(short))
	}
	// The decoder counts problems past the cap without building their paths.
	doc := `{"entries":[],"others":[` + strings.Repeat(`{"x":1},`, 1999) + `{"x":1}]}`
	var v limited
	got := Decode([]byte(doc), &v, "", Options{})
	if len(got) != MaxProblems+1 || got.Total() != 4000 {
		t.Fatalf("decoded: %d kept, %d in all", len(got), got.Total())
	}
}

// Text that is not UTF-8 is refused where it stands, not read as U+FFFD.
func TestInvalidUTF8IsRefusedWithItsPath(t *testing.T) {
	wantLines(t, decodeLimited(t, "{\"entries\":[{\"id\":\"a\xffb\"}]}"), "entries[0].id: is not valid UTF-8 text")
	wantLines(t, decodeLimited(t, "{\"entries\":[{\"id\":\"a\\n\xff\"}]}"), "entries[0].id: is not valid UTF-8 text")
	wantLines(t, decodeLimited(t, "{\"entries\":[],\"any\":{\"k\xfe\":1}}"), "any: is not valid UTF-8 text")
	wantLines(t, decodeLimited(t, "{\"entries\":[],\"any\":[1,2,3,4,5,\"\xff\"]}"), "any: has 6 items, at most 5 allowed")
}

// A document over its budget of values is one Limit problem, and decoding stops there.
func TestValuesBudget(t *testing.T) {
	var v limited
	doc := `{"entries":[{"id":"a"},{},{"id":"c"}],"others":[{},{},{}]}`
	ps := Decode([]byte(doc), &v, "", Options{MaxValues: 6})
	wantLines(t, ps, "holds more than 6 values, more than any such document needs; the rest was not read")
	if k, _ := KindOf(ps); k != Limit {
		t.Errorf("kind %v", k)
	}
	if ps := Decode([]byte(doc), &v, "", Options{MaxValues: 11}); ps.Error() != "entries[1].id: required\nothers[0].id: required\nothers[1].id: required\nothers[2].id: required" {
		t.Errorf("within the budget: %v", ps)
	}
}
