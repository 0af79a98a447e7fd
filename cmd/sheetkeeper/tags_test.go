package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestTagsPrintsOneLinePerTag(t *testing.T) {
	msg := "The acid hisses. [sheet: who=\"Mira\" op=\"damage\" pool=\"hp\" amount=\"7\" result=\"ok\" now=\"99/99\"]\n" +
		"`[sheet: op=\"rest\" rest=\"long\"]` Mira answers <with> fire. [sheet: who=\"Mira\" op=\"cast\" spell=\"Fireball\" pool=\"4th-level slots\"]\n" +
		"[sheet: Mira is tired] [inventory: items=\"Rope, Torch\" who=Bram]"
	var out, errb bytes.Buffer
	code := cmdTags(nil, strings.NewReader(msg), &out, &errb)
	if code != 0 || errb.Len() != 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	want := []string{
		`{"kind":"sheet","op":"damage","who":"Mira","attrs":{"pool":"hp","amount":"7"},"malformed":false,"reason":"","canonical":"[sheet: who=\"Mira\" op=\"damage\" pool=\"hp\" amount=\"7\"]"}`,
		`{"kind":"sheet","op":"use","who":"Mira","attrs":{"name":"Fireball","pool":"4th-level slots"},"malformed":false,"reason":"","canonical":"[sheet: who=\"Mira\" op=\"use\" name=\"Fireball\" pool=\"4th-level slots\"]"}`,
		`{"kind":"sheet","op":"","who":"","attrs":{},"malformed":true,"reason":"malformed","canonical":"[sheet: raw=\"Mira is tired\"]"}`,
		`{"kind":"inventory","op":"add","who":"Bram","attrs":{"item":"Rope","count":"1"},"malformed":false,"reason":"","canonical":"[inventory: action=\"add\" item=\"Rope\" count=\"1\" who=\"Bram\"]"}`,
		`{"kind":"inventory","op":"add","who":"Bram","attrs":{"item":"Torch","count":"1"},"malformed":false,"reason":"","canonical":"[inventory: action=\"add\" item=\"Torch\" count=\"1\" who=\"Bram\"]"}`,
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, line := range got {
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Errorf("not JSON: %s: %v", line, err)
		}
	}
}

func TestTagsTooManyAndNoTags(t *testing.T) {
	var out, errb bytes.Buffer
	msg := strings.Repeat(`[sheet: op="spend" pool="hp" amount="1"] `, 41)
	if code := cmdTags(nil, strings.NewReader(msg), &out, &errb); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 41 || !strings.Contains(lines[40], `"reason":"too-many"`) || strings.Contains(lines[39], "too-many") {
		t.Fatalf("got %d lines, last %s", len(lines), lines[len(lines)-1])
	}
	out.Reset()
	if code := cmdTags(nil, strings.NewReader("no tags here [at all]"), &out, &errb); code != 0 || out.Len() != 0 {
		t.Fatalf("exit %d, out %q", code, out.String())
	}
}

func TestTagsHelpAndMisuse(t *testing.T) {
	var out, errb bytes.Buffer
	if code := cmdTags([]string{"--help"}, strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(out.String(), "standard input") {
		t.Fatalf("--help: exit %d, out %q", code, out.String())
	}
	out.Reset()
	if code := cmdTags([]string{"message.txt"}, strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), "standard input") {
		t.Fatalf("argument: exit %d, stderr %q", code, errb.String())
	}
	errb.Reset()
	if code := cmdTags([]string{"--json"}, strings.NewReader(""), &out, &errb); code != 2 {
		t.Fatalf("unknown flag: exit %d", code)
	}
	code, stdout, _ := runCLI(t, `[sheet: op=rest rest=long]`, "tags")
	if code != 0 || !strings.Contains(stdout, `"op":"rest"`) {
		t.Fatalf("via dispatch: exit %d, %q", code, stdout)
	}
}
