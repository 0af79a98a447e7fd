package discord

import (
	"strings"
	"testing"
	"time"

	"sheetkeeper/internal/fakediscord"
	"sheetkeeper/internal/hostile"
)

// Issue 12 through Discord: `/ruleset import` with a hostile upload attached gets its
// answer, short and within the interaction's deadline (the fake refuses a callback
// after 3 seconds), the rest of a long list of problems attached as problems.txt.
func TestHostileImportIsAnsweredInTime(t *testing.T) {
	cases, err := hostile.Cases(corpus)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]hostile.Case{}
	for _, c := range cases {
		byName[c.Name] = c
	}
	h := newHarness(t)
	for _, tc := range []struct {
		name, file, want string
		attached         bool
	}{
		{"knacks.json of 699,000 {} zipped", "knacks.zip",
			"The picker will show mistakes instead of entries for catalog knacks (catalogs/knacks.json):\nentries: has 699,000 items, at most 2,000 allowed", false},
		{"512 KB of bad entries within the entry limit", "bad.json", "more problems\n… (the full list is in problems.txt)", true},
		{"zip bomb: a 64 MB manifest", "bomb.zip", "manifest.json: is 67108864 bytes, over the 65536-byte limit", false},
	} {
		start := time.Now()
		att := fakediscord.Attachment{Filename: tc.file, Data: byName[tc.name].Data}
		r, _ := h.command(h.gm, "ruleset", fakediscord.SubCommand("import", fakediscord.AttachmentOption("file", att)))
		took := time.Since(start)
		t.Logf("%s: answered in %v (%s), %d characters", tc.name, took, r.Kind, len(r.Message.Content))
		if r.Kind != fakediscord.KindCallback || r.Status/100 != 2 {
			t.Errorf("%s: answered by %s with status %d, not in time", tc.name, r.Kind, r.Status)
		}
		if !strings.HasSuffix(r.Message.Content, tc.want) || len(r.Message.Content) > maxContent {
			t.Errorf("%s: %d characters, ending %q", tc.name, len(r.Message.Content), r.Message.Content[max(0, len(r.Message.Content)-200):])
		}
		if got := len(r.Files) == 1 && r.Files[0].Filename == "problems.txt"; got != tc.attached {
			t.Errorf("%s: files %+v", tc.name, r.Files)
		}
	}
}
