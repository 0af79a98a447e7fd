package sheet

import (
	"encoding/json"
	"testing"
)

// TestCardJSON: stable output in Marinara's stored shapes, live sparse, unknown build keys
// kept; tolerant input where junk in one entry costs that entry only.
func TestCardJSON(t *testing.T) {
	in := `{"name":"Mira","ruleset":{"id":"trials","version":2},"sheetVersion":3,
	"build":{"abilities":{"might":14,"wits":"x"},"skills":{"lore":"expert","climb":7},"saves":{},
	  "bonuses":{"climb":1},"fields":{"level":3,"motto":"Onward","caster":true,"bad":{"x":1}},
	  "lists":{"tricks":[{"name":"Spark","uses":2,"_catalog":"knacks/spark"},"junk",{"name":"Odd","bad":[1]}],"gear":"nope"},
	  "future":{"a":1}},
	"live":{"pools":{"stamina":{"value":3,"temp":2},"bad":{"value":1.5},"neg":{"value":1,"temp":-1},"extra":{"value":1,"x":2}},
	  "tracks":{"heat":4,"big":2000000},"wounds":{"harm":{"marks":["lethal","bashing"],"overflow":1},"bad":{"marks":"x"}},
	  "text":{"goal":"home"},"conditions":["prone","prone",3,"shaken"],"states":{"stance":"reckless","bad":5},"newer":{}}}`
	var c Card
	if err := json.Unmarshal([]byte(in), &c); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"Mira","ruleset":{"id":"trials","version":2},"sheetVersion":3,` +
		`"build":{"abilities":{"might":14},"bonuses":{"climb":1},"fields":{"caster":true,"level":3,"motto":"Onward"},` +
		`"future":{"a":1},"lists":{"tricks":[{"_catalog":"knacks/spark","name":"Spark","uses":2},{"name":"Odd"}]},` +
		`"saves":{},"skills":{"lore":"expert"}},` +
		`"live":{"pools":{"stamina":{"value":3,"temp":2}},"tracks":{"heat":4},"wounds":{"harm":{"marks":["lethal","bashing"],"overflow":1}},` +
		`"text":{"goal":"home"},"conditions":["prone","shaken"],"states":{"stance":"reckless"}}}`
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	if c.Build.Lists["tricks"][0].Marker() != "knacks/spark" {
		t.Error("marker lost")
	}
	// Round trip is stable.
	var d Card
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(&d)
	if string(again) != string(out) {
		t.Errorf("not stable:\n%s\n%s", again, out)
	}
	// An empty card writes an empty live object and a full build shape.
	e, _ := json.Marshal(NewCard("Ash", "trials", 1, 3))
	if string(e) != `{"name":"Ash","ruleset":{"id":"trials","version":1},"sheetVersion":3,"build":{"abilities":{},"bonuses":{},"fields":{},"lists":{},"saves":{},"skills":{}},"live":{}}` {
		t.Errorf("empty card %s", e)
	}
}

// TestCardClone: a clone shares nothing with the card.
func TestCardClone(t *testing.T) {
	c := NewCard("Mira", "trials", 1, 1)
	c.Build.Lists = map[string][]Row{"tricks": {{"name": "Spark"}}}
	c.Live.Wounds = map[string]Wounds{"harm": {Marks: []string{"lethal"}}}
	c.Live.Conditions = []string{"prone"}
	d := c.Clone()
	d.Build.Lists["tricks"][0]["name"] = "Fizz"
	d.Live.Wounds["harm"].Marks[0] = "bashing"
	d.Live.Conditions[0] = "shaken"
	if c.Build.Lists["tricks"][0]["name"] != "Spark" || c.Live.Wounds["harm"].Marks[0] != "lethal" || c.Live.Conditions[0] != "prone" {
		t.Error("clone shares storage")
	}
}
