package panel

import (
	"strings"
	"unicode/utf8"
)

// maxDepth is how deep Markdown follows a tree; below it a branch shows as "…".
const maxDepth = 64

// Markdown renders what a panel drew (PackRat.h trees, decoded from JSON: a string is
// text, an object {t, a, k} an element) as Discord markdown, at most MaxBodyRunes
// runes. Block elements (div, p, li, headings…) take lines of their own; b, i, code
// and s become **, *, ` and ~~; an input shows its value (a checkbox ☑ or ☐), a
// select its chosen option; an icon is its emoji; class "chip" or "tag" is a code
// span and any class with "warn" in it is flagged ⚠️. Text is escaped, so a panel
// cannot mention anyone or break the embed's formatting.
func Markdown(trees []any) string {
	var b strings.Builder
	for _, t := range trees {
		b.WriteString(block(element(t, 0)))
	}
	return clipBody(tidy(b.String()))
}

// element renders one node.
func element(v any, depth int) string {
	switch v := v.(type) {
	case string:
		return escape(v)
	case map[string]any:
		if depth >= maxDepth {
			return "…"
		}
		return tagged(v, depth)
	}
	return ""
}

// tagged renders an element by its tag and class.
func tagged(n map[string]any, depth int) string {
	tag, _ := n["t"].(string)
	attrs, _ := n["a"].(map[string]any)
	attr := func(k string) string { s, _ := attrs[k].(string); return s }
	kids, _ := n["k"].([]any)
	inner := func() string {
		var b strings.Builder
		for _, k := range kids {
			b.WriteString(element(k, depth+1))
		}
		return b.String()
	}
	class := " " + attr("class") + " "
	var out string
	switch tag {
	case "script", "style", "option", "template":
		return ""
	case "icon":
		return iconEmoji(attr("name"))
	case "markup":
		return escape(stripTags(attr("html")))
	case "br":
		return "\n"
	case "hr":
		return "\n───\n"
	case "input":
		if attr("type") == "checkbox" {
			if attr("checked") != "" {
				return "☑"
			}
			return "☐"
		}
		return escape(attr("value"))
	case "select":
		return escape(chosen(kids))
	case "b", "strong":
		out = wrap("**", inner())
	case "i", "em":
		out = wrap("*", inner())
	case "s", "del":
		out = wrap("~~", inner())
	case "code":
		out = wrap("`", strings.ReplaceAll(plain(kids), "`", "ˋ"))
	case "h1", "h2", "h3", "h4", "h5", "h6":
		out = block(wrap("**", inner()))
	case "li":
		out = block("• " + inner())
	case "div", "p", "section", "article", "header", "footer", "ul", "ol", "table", "tr", "details", "fieldset":
		out = block(inner())
	default:
		out = inner()
	}
	if strings.Contains(class, " chip ") || strings.Contains(class, " tag ") {
		out = wrap("`", strings.ReplaceAll(plain(kids), "`", "ˋ"))
	}
	if strings.Contains(class, "warn") && strings.TrimSpace(out) != "" {
		out = "⚠️ " + strings.TrimLeft(out, "\n")
		if tag == "div" || tag == "p" {
			out = "\n" + out
		}
	}
	return out
}

// chosen is a select's shown option: the selected one, or the first.
func chosen(kids []any) string {
	first := ""
	for _, k := range kids {
		o, ok := k.(map[string]any)
		if !ok || o["t"] != "option" {
			continue
		}
		sub, _ := o["k"].([]any)
		a, _ := o["a"].(map[string]any)
		if a["selected"] == "true" {
			return plain(sub)
		}
		if first == "" {
			first = plain(sub)
		}
	}
	return first
}

// plain is the text of nodes, without markup, depth-bounded.
func plain(kids []any) string {
	var b strings.Builder
	var walk func(list []any, depth int)
	walk = func(list []any, depth int) {
		for _, k := range list {
			switch k := k.(type) {
			case string:
				b.WriteString(k)
			case map[string]any:
				if sub, ok := k["k"].([]any); ok && depth < maxDepth {
					walk(sub, depth+1)
				}
			}
		}
	}
	walk(kids, 0)
	return strings.TrimSpace(b.String())
}

func block(s string) string { return "\n" + s + "\n" }

// wrap puts a markdown mark around text, keeping the text's outer spaces outside it
// (Discord shows "** x**" as it is).
func wrap(mark, s string) string {
	t := strings.TrimSpace(s)
	if t == "" {
		return s
	}
	lead := s[:strings.Index(s, t)]
	return lead + mark + t + mark + s[len(lead)+len(t):]
}

// tidy trims each line and keeps no blank lines.
func tidy(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	return b.String()
}

func clipBody(s string) string {
	if utf8.RuneCountInString(s) <= MaxBodyRunes {
		return s
	}
	return string([]rune(s)[:MaxBodyRunes-1]) + "…"
}

// escape backslashes every character Discord's markdown gives a meaning to.
func escape(s string) string {
	if !strings.ContainsAny(s, "\\*_~`|>#<[]@:") {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\*_~`|>#<[]", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
		if r == '@' {
			b.WriteRune('\u200b') // no @everyone
		}
	}
	return b.String()
}

// stripTags is HTML's text: what is outside its <…>.
func stripTags(s string) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// iconEmoji is the emoji for one of Pack Rat's panel icons.
func iconEmoji(name string) string {
	switch name {
	case "shield":
		return "🛡️"
	case "weight":
		return "⚖️"
	case "coins":
		return "🪙"
	case "user":
		return "👤"
	case "sword":
		return "⚔️"
	case "minus":
		return "➖"
	case "plus":
		return "➕"
	case "check":
		return "✔️"
	case "dice":
		return "🎲"
	case "book":
		return "📖"
	case "edit":
		return "✏️"
	case "trash":
		return "🗑️"
	case "wand":
		return "🪄"
	}
	return ""
}

// SummaryLine is an inventory panel's header as one line of Discord markdown: the
// parts shown while the panel is open (not Closed) or, collapsed, all of them, joined
// by " · "; a coins part shows purse, the caller's words for the coins.
func SummaryLine(parts []Part, open bool, purse string) string {
	var out []string
	for _, p := range parts {
		if open && p.Closed {
			continue
		}
		text := escape(p.Text)
		if p.Coins {
			text = "🪙 " + escape(purse)
		} else if e := iconEmoji(p.Icon); e != "" {
			text = e + " " + text
		}
		if p.Warn {
			text = "⚠️ " + text
		}
		if strings.TrimSpace(text) != "" {
			out = append(out, text)
		}
	}
	return strings.Join(out, " · ")
}

// Card is a gm-player panel's result as Discord markdown for a GM's player card: the
// stats on one line ("**AC** 18 · **Load** 68 / 225 lb"; a warned one flagged ⚠️, its
// sub in brackets), the chips as code spans, the notes as a list.
func Card(r Result) string {
	var lines, stats, chips []string
	for _, s := range r.Stats {
		text := "**" + escape(s.Label) + "** " + escape(s.Value)
		if s.Sub != "" {
			text += " (" + escape(s.Sub) + ")"
		}
		if s.Warn {
			text = "⚠️ " + text
		}
		stats = append(stats, text)
	}
	if len(stats) > 0 {
		lines = append(lines, strings.Join(stats, " · "))
	}
	for _, c := range r.Chips {
		if c = strings.TrimSpace(strings.ReplaceAll(c, "`", "ˋ")); c != "" {
			chips = append(chips, "`"+c+"`")
		}
	}
	if len(chips) > 0 {
		lines = append(lines, strings.Join(chips, " "))
	}
	for _, n := range r.Notes {
		lines = append(lines, "• "+escape(n))
	}
	return clipBody(strings.Join(lines, "\n"))
}
