package parser

import (
	"strconv"
	"strings"
	"unicode"
)

// MaxCount is the most one inventory tag may move of an item (Marinara's cap); a larger
// count is read as this many, and the write-back says so.
const MaxCount = 9999

// maxName is the longest item or character name an inventory tag keeps.
const maxName = 120

// inventoryActions are Marinara's actions (give, earn and buy included) and the ones a
// Pack Rat system adds: state (an item's state on or off), pay and receive (money).
var inventoryActions = map[string]bool{
	"add": true, "remove": true, "give": true, "equip": true, "unequip": true, "bind": true,
	"unbind": true, "use": true, "state": true, "pay": true, "receive": true, "earn": true,
	"buy": true,
}

// readInventory reads one inventory body (SPEC 3.5). Marinara reads these leniently, and so
// does this: attributes in any order, item or items, count, quantity or qty, a bare action
// word in place of action=, and an unquoted value running to the next attribute, so
// `item=Bronze Key who=Bram` names the Bronze Key. A tag naming several items, comma
// separated, is one request per item, so each item gets its own outcome.
func readInventory(body string, attrs []rawAttr) []Tag {
	runBareValues(body, attrs)
	l := lookup{attrs: attrs, firstWins: true}
	bad := func(detail string) []Tag { return []Tag{malformed(Inventory, body, attrs, detail)} }

	action := "add"
	if a := l.find("action"); a != nil && a.value != "" {
		action = strings.ToLower(a.value)
		if !inventoryActions[action] {
			// Marinara reads an action it does not know as add; a sell or steal read as
			// add would create items, so it is refused instead.
			return bad("action " + strconv.Quote(CapUTF16(a.value, 40)) + " is not an inventory action")
		}
	} else if w := bareAction(body, attrs); w != "" {
		action = w
	}

	t := Tag{Kind: Inventory, Op: action, Raw: strings.TrimSpace(body)}
	if who, ok := l.get("who"); ok {
		t.Who = cleanName(who)
	}
	to, hasTo := l.get("to")

	if action == "earn" {
		if _, ok := l.get("amount"); !ok {
			return readEarnCount(t, l, bad)
		}
	}
	if action == "pay" || action == "receive" || action == "earn" {
		amount, ok := l.get("amount")
		if !ok || !strings.ContainsAny(amount, "0123456789") {
			return bad(action + " needs an amount of money, e.g. amount=\"4 gp 2 sp\"")
		}
		t.Attrs = append(t.Attrs, Attr{"amount", CollapseSpace(amount)})
		if hasTo {
			t.Attrs = append(t.Attrs, Attr{"to", cleanName(to)})
		}
		return []Tag{t}
	}

	items := readItems(l)
	if len(items) == 0 {
		return bad("the tag names no item")
	}
	var extraBuf [4]Attr
	extra, e := readItemAttrs(l, action, extraBuf[:0])
	if e != "" {
		return bad(e)
	}
	if uid, ok := l.get("uid"); ok && action != "add" && action != "buy" {
		// Which row of the item is meant, when two share its name: a panel's request
		// names its entry so (bot/panel_request.go), and a Redo reads it back from here.
		extra = append(extra, Attr{"uid", cleanName(uid)})
	}
	if hasTo {
		extra = append(extra, Attr{"to", cleanName(to)})
	}
	if action == "add" {
		extra = readInvention(l, extra)
	}
	// Every item's attributes share one array; each tag's slice is capped at its own end,
	// so an append to one never writes over the next.
	n := 1 + len(extra)
	all := make([]Attr, 0, len(items)*n)
	tags := make([]Tag, len(items))
	for i, item := range items {
		all = append(all, Attr{"item", item})
		all = append(all, extra...)
		tags[i] = t
		tags[i].Attrs = all[i*n : (i+1)*n : (i+1)*n]
	}
	return tags
}

// readEarnCount reads an earn written as Marinara's GM writes it, coins counted rather
// than an amount: count= of the coin item= names ("30" of "gp"), or of the system's shown
// coin when no item is named.
func readEarnCount(t Tag, l lookup, bad func(string) []Tag) []Tag {
	if l.find("count") == nil && l.find("quantity") == nil && l.find("qty") == nil {
		return bad("earn needs an amount of money, e.g. amount=\"4 gp 2 sp\", or count= of a coin")
	}
	var buf [2]Attr
	attrs, e := readItemAttrs(l, "earn", buf[:0])
	if e != "" {
		return bad(e)
	}
	if items := readItems(l); len(items) == 1 {
		attrs = append(attrs, Attr{"item", items[0]})
	} else if len(items) > 1 {
		return bad("earn names one coin")
	}
	t.Attrs = attrs
	return []Tag{t}
}

// inventionKeys are what a GM's add may say of an item it invents (Marinara's guide,
// What reads items), in the order they are written back.
var inventionKeys = [...]string{"like", "category", "rarity", "tags", "stats", "slots", "binds", "worn", "carried", "summary"}

// maxInvention bounds one invention attribute; a summary may run longer.
const (
	maxInvention = 300
	maxSummary   = 1000
)

// readInvention appends the invention attributes an add has, each cleaned and capped.
func readInvention(l lookup, dst []Attr) []Attr {
	for _, k := range inventionKeys {
		v, ok := l.get(k)
		if !ok {
			continue
		}
		n := maxInvention
		if k == "summary" {
			n = maxSummary
		}
		dst = append(dst, Attr{k, strings.TrimSpace(CapUTF16(CollapseSpace(v), n))})
	}
	return dst
}

// runBareValues runs each unquoted value to the next attribute (or the body's end), so
// `item=Bronze Key who=Bram` names the Bronze Key.
func runBareValues(body string, attrs []rawAttr) {
	for i := range attrs {
		a := &attrs[i]
		if !a.has || !a.bare {
			continue
		}
		next := len(body)
		if i+1 < len(attrs) {
			next = attrs[i+1].start
		}
		a.value = strings.TrimSpace(stripLooseQuotes(strings.TrimSpace(body[a.valuePos:next])))
	}
}

// readItemAttrs reads what an item action says besides the item: for state, the key of
// the item's state and on or off; for any other, the count, capped at MaxCount. It
// appends them to dst, and returns why the tag is malformed, or "".
func readItemAttrs(l lookup, action string, dst []Attr) ([]Attr, string) {
	if action == "state" {
		key, ok := l.get("key")
		if !ok {
			return nil, "state needs the key of the item's state"
		}
		on, ok := readSwitch(l.find("state"))
		if !ok {
			return nil, "state must be on or off"
		}
		return append(dst, Attr{"key", cleanName(key)}, Attr{"state", on}), ""
	}
	count := 1
	for _, k := range [...]string{"count", "quantity", "qty"} {
		if a := l.find(k); a != nil {
			n, ok := readInt(a.value)
			if !ok || n < 1 || a.value[0] == '+' || a.value[0] == '-' {
				return nil, k + " must be a whole number from 1"
			}
			count = min(n, MaxCount)
			break
		}
	}
	return append(dst, Attr{"count", strconv.Itoa(count)}), ""
}

// readItems reads items= (or item=): names split at commas, each unquoted and cleaned;
// a name that would be written back empty is no name.
func readItems(l lookup) []string {
	a := l.find("items")
	if a == nil {
		a = l.find("item")
	}
	if a == nil {
		return nil
	}
	items := make([]string, 0, strings.Count(a.value, ",")+1)
	for part := range strings.SplitSeq(a.value, ",") {
		name := cleanName(unquoteMatched(strings.TrimSpace(part)))
		if meaningful(name) {
			items = append(items, name)
		}
	}
	return items
}

// bareAction finds an action word written without action=, as in `[inventory: equip
// item="Sword"]`. Only the text before the first attribute (and within its first 40
// bytes) is looked at, so an item's own name never counts.
func bareAction(body string, attrs []rawAttr) string {
	end := len(body)
	if len(attrs) > 0 {
		end = attrs[0].start
	}
	end = min(end, 40)
	for i := 0; i < end; {
		if !isWord(body[i]) {
			i++
			continue
		}
		j := wordEnd(body[:end], i)
		if w := strings.ToLower(body[i:j]); inventoryActions[w] {
			return w
		}
		i = j
	}
	return ""
}

// unquoteMatched drops the pairs of matching quotes around s ('A', "'A'"), all of them, so
// that an item read back from its write-back is the same item.
func unquoteMatched(s string) string {
	for {
		r1, n1 := firstRune(s)
		r2, n2 := lastRune(s)
		if n1 == 0 || n1+n2 > len(s) || !isQuote(r1) || !(r1 == r2 || typographicClass(r1) != 0 && typographicClass(r1) == typographicClass(r2)) {
			return s
		}
		s = strings.TrimSpace(s[n1 : len(s)-n2])
	}
}

// cleanName collapses whitespace and caps a name at maxName characters.
func cleanName(s string) string {
	return strings.TrimSpace(CapUTF16(CollapseSpace(s), maxName))
}

// CollapseSpace is strings.Join(strings.Fields(s), " "), without the allocations when s
// is already so: no space at either end and every other run of space a single ' ' —
// as nearly every name a GM writes is.
func CollapseSpace(s string) string {
	prevSpace := true // so that a space at the start is not kept
	for _, r := range s {
		isSpace := unicode.IsSpace(r)
		if isSpace && (r != ' ' || prevSpace) {
			return strings.Join(strings.Fields(s), " ")
		}
		prevSpace = isSpace
	}
	if prevSpace && s != "" {
		return strings.Join(strings.Fields(s), " ") // a space at the end
	}
	return s
}
