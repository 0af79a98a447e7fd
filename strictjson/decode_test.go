package strictjson

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

type inner struct {
	ID    string  `json:"id"`
	Count int     `json:"count,omitempty"`
	Ratio float64 `json:"ratio,omitempty"`
}

type outer struct {
	Name  string           `json:"name"`
	Items []inner          `json:"items,omitempty"`
	Flag  *bool            `json:"flag,omitempty"`
	Tags  map[string]int   `json:"tags,omitempty"`
	Pair  [2]float64       `json:"pair,omitempty"`
	Any   any              `json:"any,omitempty"`
	Raw   Raw              `json:"raw,omitempty"`
	Sub   *inner           `json:"sub,omitempty"`
	Deep  map[string][]any `json:"deep,omitempty"`
}

func TestDecodeValid(t *testing.T) {
	var o outer
	ps := Decode([]byte(`{"$comment":"hi","name":"a\u00e9\"b","items":[{"id":"x","count":3.0}],
		"flag":true,"tags":{"k":2},"pair":[1,2.5],"any":{"z":[1,"s",null,false]},"raw":{"a": [1]},"sub":{"id":"s"}}`),
		&o, "", Options{AllowComment: true})
	if len(ps) != 0 {
		t.Fatalf("problems: %v", ps)
	}
	if o.Name != "aé\"b" || o.Items[0].Count != 3 || !*o.Flag || o.Tags["k"] != 2 || o.Pair != [2]float64{1, 2.5} || o.Sub.ID != "s" {
		t.Fatalf("decoded %+v", o)
	}
	if string(o.Raw) != `{"a": [1]}` {
		t.Fatalf("raw %q", o.Raw)
	}
	want := map[string]any{"z": []any{1.0, "s", nil, false}}
	if !reflect.DeepEqual(o.Any, want) {
		t.Fatalf("any %#v", o.Any)
	}
}

func TestDecodeReportsEveryProblem(t *testing.T) {
	var o outer
	ps := Decode([]byte(`{"items":[{"id":1,"count":1.5,"extra":0},{"count":"2"}],"flag":null,"pair":[1],"$comment":"x","name":"n","name":"m"}`), &o, "doc", Options{})
	got := ps.Error()
	want := strings.Join([]string{
		"doc.items[0].id: expected a string, got a number",
		"doc.items[0].count: expected an integer, got 1.5",
		"doc.items[0].extra: unknown key",
		"doc.items[1].count: expected an integer, got a string",
		"doc.items[1].id: required",
		"doc.flag: expected a boolean, got null",
		"doc.pair: expected 2 items, got 1",
		"doc.$comment: unknown key",
		"doc.name: duplicate key",
	}, "\n")
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDecodeSyntax(t *testing.T) {
	cases := map[string]string{
		`{"name":"a",}`:                     "invalid JSON at line 1, column 13: expected a key in quotes",
		`{"name":"a"} x`:                    "invalid JSON at line 1, column 14: unexpected text after the document",
		"{\"name\":\"a\n\"}":                "invalid JSON at line 1, column 11: control character in string",
		`{"name":`:                          "invalid JSON at line 1, column 9: unexpected end of input",
		`{"name":01}`:                       "invalid JSON at line 1, column 10: expected ',' or '}'",
		strings.Repeat("[", 100):            "invalid JSON at line 1, column 72: nested deeper than 64 levels",
		`{"name":"\ud83d\ude00","x":1e999}`: "x: number 1e999 is out of range",
	}
	for in, want := range cases {
		var o outer
		target := any(&o)
		if strings.HasPrefix(in, "[[") {
			var a struct {
				Any any `json:"any"`
			}
			target = &a
			in = `{"any":` + in
		}
		ps := Decode([]byte(in), target, "", Options{})
		if len(ps) == 0 || !strings.HasPrefix(ps[len(ps)-1].String(), want) {
			t.Errorf("%q: got %v, want %q", in, ps, want)
		}
	}
}

// TestDecodeGenericDuplicate: a key given twice in an object decoded into any, or in
// one nested in it, is refused as in a struct or a typed map (it was kept silently,
// the last one winning).
func TestDecodeGenericDuplicate(t *testing.T) {
	var o outer
	ps := Decode([]byte(`{"name":"n","any":{"x":1,"x":2},"deep":{"k":[{"y":1,"y":2}]}}`), &o, "doc", Options{})
	if got, want := ps.Error(), "doc.any.x: duplicate key\ndoc.deep.k[0].y: duplicate key"; got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDecodeMapDuplicateAndGiven(t *testing.T) {
	var o outer
	var given []string
	ps := Decode([]byte(`{"name":"","tags":{"k":1,"j":2,"k":3},"sub":{"id":"","x":0}}`), &o, "doc",
		Options{Given: func(p string) { given = append(given, p) }})
	if got, want := ps.Error(), "doc.tags.k: duplicate key\ndoc.sub.x: unknown key"; got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	want := []string{"doc.name", "doc.tags", "doc.tags.k", "doc.tags.j", "doc.tags.k", "doc.sub", "doc.sub.id", "doc.sub.x"}
	if !reflect.DeepEqual(given, want) {
		t.Fatalf("given %q, want %q", given, want)
	}
}

func TestAnnotateAndSort(t *testing.T) {
	ps := Problems{{Path: "catalogs[0].entries[10].id", Msg: "b"}, {Path: "catalogs[0].entries[9]", Msg: "a"}, {Path: "catalogs[0].entriesX", Msg: "c"}}
	ps.Sort()
	ps.Annotate("catalogs[0].entries[9]", "knacks/last-ember")
	got := ps.Error()
	want := "catalogs[0].entriesX: c\ncatalogs[0].entries[9] (knacks/last-ember): a\ncatalogs[0].entries[10].id: b"
	if got != want {
		t.Fatalf("got\n%s", got)
	}
}

// TestAgreesWithEncodingJSON decodes the public corpus into any both ways.
func TestAgreesWithEncodingJSON(t *testing.T) {
	for _, name := range []string{"ember-roads.json", "gravewatch.json", "ruleset-5e-2014.example.json"} {
		data, err := os.ReadFile("../../shared/reference/marinara/" + name)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if ps := Decode(data, &a, "", Options{}); len(ps) != 0 {
			t.Fatalf("%s: %v", name, ps)
		}
		if err := json.Unmarshal(data, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%s: decoded differently", name)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"name":"a","items":[{"id":"x"}],"any":[1,{"a":null}]}`))
	f.Add([]byte(`{"name":"\ud800\u0041"}`))
	f.Add([]byte(`{"any":[1,2,{"a":"\n"},[3,"x\u0041"]],"tags":{"a":1,"b":2,"c":3}}`))
	f.Add([]byte("{\"name\":\"a\xffb\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var o outer
		ps := Decode(data, &o, "", Options{MaxDepth: 20})
		var v any
		// Numbers beyond float64 are valid JSON but no finite number, and text that is
		// not UTF-8 is valid to encoding/json: both refused on purpose.
		onPurpose := func(p Problem) bool {
			return strings.Contains(p.Msg, "out of range") || p.Msg == "is not valid UTF-8 text" || p.More() > 0
		}
		if json.Valid(data) {
			for _, p := range Decode(data, &v, "", Options{MaxDepth: 1000}) {
				if !onPurpose(p) {
					t.Fatalf("valid JSON refused: %v", p)
				}
			}
			// Bounded, it is refused only for its bounds.
			for _, p := range Decode(data, &v, "", Options{MaxDepth: 1000, MaxItems: 2, MaxValues: 40}) {
				if !onPurpose(p) && p.Kind != Limit {
					t.Fatalf("valid JSON refused within bounds: %v", p)
				}
			}
		} else if !errors.Is(ps, Malformed) {
			t.Fatalf("invalid JSON not refused as malformed: %v", ps)
		} else if bounded := Decode(data, &v, "", Options{MaxDepth: 20, MaxItems: 2}); !errors.Is(bounded, Malformed) && !errors.Is(bounded, Limit) {
			t.Fatalf("invalid JSON not refused when bounded: %v", bounded)
		}
	})
}
