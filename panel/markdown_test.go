package panel_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"sheetkeeper/panel"
)

// Whatever tree a panel draws, its body is valid UTF-8 within an embed's length, and
// nobody is mentioned.
func FuzzMarkdown(f *testing.F) {
	for _, seed := range []string{
		`[{"t":"div","a":{"class":"stat warn"},"k":["AC ",{"t":"b","a":{},"k":["15"]}]}]`,
		`[{"t":"ul","k":[{"t":"li","k":["@everyone"]},{"t":"li","k":[{"t":"icon","a":{"name":"shield"}}]}]}]`,
		`[{"t":"select","k":[{"t":"option","a":{"selected":"true"},"k":["×2"]}]},{"t":"input","a":{"type":"checkbox","checked":"true"}}]`,
		`[{"t":"code","k":["` + "``" + `"]},{"t":"markup","a":{"html":"<svg>x</svg>"}},"<@123> **"]`,
		`["` + strings.Repeat("é", 5000) + `"]`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		var trees []any
		if json.Unmarshal([]byte(data), &trees) != nil {
			return
		}
		out := panel.Markdown(trees)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8: %q", out)
		}
		if n := utf8.RuneCountInString(out); n > panel.MaxBodyRunes {
			t.Fatalf("%d runes", n)
		}
		if at := bareAt(out); at >= 0 {
			t.Fatalf("a mention could get through at byte %d: %q", at, out)
		}
	})
}

// bareAt is where out has an @ outside a code span that is not followed by a zero-width
// space (which keeps @everyone and <@id> from mentioning anyone) or the body's
// clipping, or -1.
func bareAt(out string) int {
	code, escaped := false, false
	for i, r := range out {
		switch {
		case escaped:
			escaped = false
		case r == '\\' && !code:
			escaped = true
		case r == '`':
			code = !code
		case r == '@' && !code && !strings.HasPrefix(out[i+1:], "\u200b") && out[i+1:] != "…": // (clipped there)
			return i
		}
	}
	return -1
}
