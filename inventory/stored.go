package inventory

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sheetkeeper/refusal"
	"sheetkeeper/strictjson"
)

// A character's holdings are kept in the store as Stored: plain data that names catalog
// items by id (so a system's new version changes them everywhere) and embeds only the
// items a catalog does not have (a player's own, one the GM invented) as the item JSON
// ParseItem reads. It is what `/inventory format:json` is built from, and what a reply's
// change records before and after a tag, so undo puts back exactly what was there.

// Bounds on stored holdings. A character's inventory is hundreds of rows at most; a
// record past these is corrupt or hostile and refused before it costs more.
const (
	MaxHeld         = 2000 // entries of one inventory
	MaxStoredBytes  = 4 << 20
	maxStoredValues = 400000
)

// RowsFit refuses too-many holdings of n entries, past MaxHeld. Keep checks it, the one
// place every change passes before it is written; a caller about to make many rows
// (an add of a thousand swords) asks it first, so the refusal costs nothing.
func RowsFit(n int64) error {
	if n > MaxHeld {
		return refusal.New(refusal.TooMany, "an inventory holds at most %d rows, this would be %d", MaxHeld, n)
	}
	return nil
}

// Stored is a character's holdings as the store keeps them: the entries in inventory
// order, the purse per coin key, and the counter the next entry's uid is made from, so
// uids are deterministic (the same tags on the same holdings make the same uids, and a
// regenerated reply names things as the first one did).
//
// Stored holdings are values: never changed in place once made (Keep, KeepOver,
// UndoStored and Clone make new ones, and every writer replaces a record's pointer), so
// copies of a card record may share them (storage/record.CloneCard). The one exception
// is KeepChange with reuse, which writes over entries its caller made with it and has
// shown nobody (a message's tags, before the card is saved).
type Stored struct {
	Items []StoredEntry    `json:"items,omitempty" maxItems:"2000"`
	Purse map[string]int64 `json:"purse,omitempty"`
	Next  int64            `json:"next,omitempty"`
	// Rules is what the campaign's rules left (stored_rules.go); nil until they ran.
	Rules *StoredRules `json:"rules,omitempty"`
}

// StoredEntry is one entry of Stored: a catalog item by ID, or a player's own or
// GM-invented item embedded as Item (exactly one of the two), with what Entry holds.
type StoredEntry struct {
	UID      string          `json:"uid"`
	ID       string          `json:"id,omitempty"`
	Item     map[string]any  `json:"item,omitempty"`
	Qty      int64           `json:"qty"`
	Equipped bool            `json:"equipped,omitempty"`
	States   map[string]bool `json:"states,omitempty"`
	GM       map[string]bool `json:"gm,omitempty"`
	In       string          `json:"in,omitempty"`
	Charges  int64           `json:"charges,omitempty"`
	Fill     float64         `json:"fill,omitempty"`
	Out      []int           `json:"out,omitempty" maxItems:"1000"`
}

// ParseStored reads stored holdings strictly and within bounds: an unknown key, a value
// of the wrong type or a record past MaxStoredBytes is refused with its path. It reads
// the shape only; Campaign.Restore checks it against the system.
func ParseStored(data []byte) (*Stored, strictjson.Problems) {
	if len(data) > MaxStoredBytes {
		var ps strictjson.Problems
		ps.AddKind(strictjson.Limit, "", fmt.Sprintf("stored inventory is %d bytes, at most %d allowed", len(data), MaxStoredBytes))
		return nil, ps
	}
	st := new(Stored)
	ps := strictjson.Decode(data, st, "", strictjson.Options{MaxDepth: MaxDepth, MaxItems: MaxItemFields, MaxValues: maxStoredValues})
	if st.Rules != nil {
		checkRules(st.Rules, &ps)
	}
	if len(ps) > 0 {
		return nil, ps
	}
	return st, nil
}

// UnmarshalJSON reads stored holdings through ParseStored, so a record decoded anywhere
// (the store's card records, its memo) is held to the bounds ParseStored declares, not
// read unbounded by encoding/json. The error is ParseStored's strictjson.Problems.
func (s *Stored) UnmarshalJSON(data []byte) error {
	st, ps := ParseStored(data)
	if len(ps) > 0 {
		return ps
	}
	*s = *st
	return nil
}

// Held is a character's holdings in play: the entries and purse the engine works on,
// and what writing them back needs (the uid counter, the JSON of items no catalog has).
type Held struct {
	Inv   []*Entry
	Purse Purse
	next  int64
	// own is the item JSON of each entry's item the catalog does not have.
	own map[*Item]map[string]any
	// rules is what rules left, as Restore read it or KeepWorld recorded it.
	rules *StoredRules
}

// NewUID names a new entry: "i1", "i2"…, never one already used in these holdings.
func (h *Held) NewUID() string {
	h.next++
	return "i" + strconv.FormatInt(h.next, 10)
}

// Own records the JSON of an item no catalog has (a player's own, a GM's invention), so
// Keep can write it back; data is what ParseItem read it from.
func (h *Held) Own(it *Item, data []byte) error {
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	if h.own == nil {
		h.own = map[*Item]map[string]any{}
	}
	h.own[it] = m
	return nil
}

// Adopt records in h the item JSON e's item has in from, when it is one of from's own,
// so an entry moved from one character's holdings to another's (a give, a trade) can
// be written back there. A catalog item needs nothing and is left alone.
func (h *Held) Adopt(from *Held, e *Entry) {
	m, own := from.own[e.Item]
	if !own {
		return
	}
	if h.own == nil {
		h.own = map[*Item]map[string]any{}
	}
	if _, has := h.own[e.Item]; !has {
		h.own[e.Item] = cloneJSON(m).(map[string]any)
	}
}

// NewHeld returns empty holdings of the campaign.
func (c *Campaign) NewHeld() *Held {
	return &Held{Purse: c.System.Money().NewPurse()}
}

// Restore reads stored holdings into play, checking them against the system: a
// catalog id it has not, an embedded item it refuses, two entries with one uid, a
// container that is not there, a coin it has not are each a problem with its path, and
// holdings with any problem are not restored (nil means none at all: empty holdings).
func (c *Campaign) Restore(st *Stored) (*Held, strictjson.Problems) {
	h := c.NewHeld()
	if st == nil {
		return h, nil
	}
	var ps strictjson.Problems
	if len(st.Items) > MaxHeld {
		ps.AddKind(strictjson.Limit, "items", fmt.Sprintf("holds %d entries, at most %d allowed", len(st.Items), MaxHeld))
		return nil, ps
	}
	h.next, h.rules = st.Next, st.Rules.clone()
	uids := newUIDSet(st.Next)
	// One allocation for every entry, not one each.
	slab := make([]Entry, len(st.Items))
	if len(st.Items) > 0 {
		h.Inv = make([]*Entry, 0, len(st.Items))
	}
	ix := c.System.index
	hint, missed := ix.hints(), false
	for i := range st.Items {
		se := &st.Items[i]
		var it *Item
		if se.ID != "" {
			if it = catalogHint(hint, i, se.ID); it == nil {
				it, missed = c.System.CatalogItem(se.ID), true
			}
		}
		e, eps := c.restoreEntry(h, i, se, &slab[i], it)
		ps = append(ps, eps...)
		if e == nil {
			continue
		}
		if uids.add(e.UID) {
			ps.Add(strictjson.Join(strictjson.Join("items", i), "uid"), "uid %q is used twice", e.UID)
		}
		h.Inv = append(h.Inv, e)
	}
	for i := range st.Items {
		if se := &st.Items[i]; se.In != "" && !uids.has(se.In) {
			ps.Add(strictjson.Join(strictjson.Join("items", i), "in"), "is in %q, which is not in the inventory", se.In)
		}
	}
	p, err := c.System.Money().PurseOf(st.Purse)
	if err != nil {
		ps.Add("purse", "%v", err)
	}
	if len(ps) > 0 {
		ps.Sort()
		return nil, ps
	}
	if missed {
		ix.keepRestored(slab)
	}
	h.Purse = p
	return h, nil
}

// restoreEntry reads stored entry i into e, it being the catalog's item of its id (nil:
// none); nil with the problems when it cannot be read.
// Its path is made only for a problem: restoring is once a message on a card of
// hundreds of entries, nearly always with none.
func (c *Campaign) restoreEntry(h *Held, i int, se *StoredEntry, e *Entry, it *Item) (*Entry, strictjson.Problems) {
	var ps strictjson.Problems
	path := func(key string) string {
		if key == "" {
			return strictjson.Join("items", i)
		}
		return strictjson.Join(strictjson.Join("items", i), key)
	}
	if se.UID == "" {
		ps.Add(path("uid"), "an entry needs a uid")
	}
	if se.Qty < 1 {
		ps.Add(path("qty"), "qty %d: an entry holds at least 1", se.Qty)
	}
	switch {
	case se.ID != "" && se.Item != nil:
		ps.Add(path(""), "an entry names a catalog item (id) or embeds its own (item), not both")
	case se.ID != "":
		if it == nil {
			ps.Add(path("id"), "the catalog has no item %q", se.ID)
		}
	case se.Item != nil:
		data, err := json.Marshal(se.Item)
		if err != nil {
			ps.Add(path("item"), "%v", err)
			break
		}
		var ips strictjson.Problems
		if it, ips = c.parseOwn(data); len(ips) > 0 {
			at := path("item")
			for _, pr := range ips {
				if pr.Path = at + "." + pr.Path; strings.HasSuffix(pr.Path, ".") {
					pr.Path = at
				}
				ps = append(ps, pr)
			}
		} else {
			if h.own == nil {
				h.own = map[*Item]map[string]any{}
			}
			h.own[it] = se.Item
		}
	default:
		ps.Add(path(""), "an entry needs a catalog item (id) or its own (item)")
	}
	if len(ps) > 0 {
		return nil, ps
	}
	*e = Entry{UID: se.UID, Item: it, Qty: se.Qty, Equipped: se.Equipped, Own: maps.Clone(se.States), GM: maps.Clone(se.GM),
		Parent: se.In, Charges: se.Charges, Fill: se.Fill, Out: slices.Clone(se.Out)}
	return e, nil
}

// maxParsedItems bounds the embedded items a campaign keeps parsed: more than a table's
// own and invented items, few enough that hostile records cannot pin much.
const maxParsedItems = 1024

// parsedItems is a campaign's embedded items as Restore parsed them, by their JSON's
// digest: parsing one builds a checker of the system's indexes, and Restore runs on
// every completer keystroke and sheet read. Safe for concurrent use; nil keeps nothing.
type parsedItems struct {
	mu    sync.Mutex
	items map[[sha256.Size]byte]*Item
}

func (p *parsedItems) get(k [sha256.Size]byte) *Item {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.items[k]
}

// keep adds it under k; a full cache starts over rather than tracking use.
func (p *parsedItems) keep(k [sha256.Size]byte, it *Item) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.items == nil || len(p.items) >= maxParsedItems {
		p.items = map[[sha256.Size]byte]*Item{}
	}
	p.items[k] = it
}

func (p *parsedItems) reset() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.items = nil
}

func (p *parsedItems) len() int {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.items)
}

// parseOwn is ParseItem of an embedded item's JSON, parsed once per campaign: each call
// gets its own copy of the parsed *Item (its maps shared, read-only as a catalog item's
// are), so entries that were separate rows stay separate, as a parse each made them.
func (c *Campaign) parseOwn(data []byte) (*Item, strictjson.Problems) {
	k := sha256.Sum256(data)
	if it := c.parsed.get(k); it != nil {
		cp := *it
		return &cp, nil
	}
	it, ps := c.ParseItem(data)
	if len(ps) > 0 {
		return nil, ps
	}
	c.parsed.keep(k, it)
	cp := *it
	return &cp, nil
}

// Keep writes holdings in play back into their stored shape. An entry whose item is
// neither the catalog's nor recorded with Own or Adopt cannot be written, and is
// refused not-ruleset-item; more entries than MaxHeld are refused too-many (RowsFit);
// a purse past what Restore reads back is refused bad-amount (Money.PurseFits).
func (c *Campaign) Keep(h *Held) (*Stored, error) { return c.KeepOver(nil, h) }

// KeepOver is Keep of holdings that were prev (restored from it, or kept into it),
// sharing prev's entries while they are as Keep would write them: a tag changes an
// entry or two of hundreds, or none (coins only), and writing every entry again on
// every tag was most of what a reply allocated. Stored holdings are never changed in
// place (Clone, UndoStored and Keep make new ones), so sharing their entries is safe;
// prev is left as it was.
func (c *Campaign) KeepOver(prev *Stored, h *Held) (*Stored, error) {
	if err := RowsFit(int64(len(h.Inv))); err != nil {
		return nil, err
	}
	st, err := c.keptBare(h)
	if err != nil {
		return nil, err
	}
	if len(h.Inv) == 0 {
		return st, nil
	}
	var have []StoredEntry
	if prev != nil {
		have = prev.Items
	}
	same := 0
	for same < len(h.Inv) && same < len(have) && c.keptAs(h, h.Inv[same], &have[same]) {
		same++
	}
	if same == len(h.Inv) && same == len(have) {
		st.Items = have
		return st, nil
	}
	st.Items = make([]StoredEntry, same, len(h.Inv))
	copy(st.Items, have[:same])
	for _, e := range h.Inv[same:] {
		se, err := c.storedEntry(h, e)
		if err != nil {
			return nil, err
		}
		st.Items = append(st.Items, se)
	}
	return st, nil
}

// storedEntry is entry e of holdings h as Keep writes it: an entry whose item is
// neither the catalog's nor recorded with Own or Adopt is refused not-ruleset-item.
func (c *Campaign) storedEntry(h *Held, e *Entry) (StoredEntry, error) {
	se := StoredEntry{UID: e.UID, Qty: e.Qty, Equipped: e.Equipped, States: nonEmpty(e.Own), GM: nonEmpty(e.GM),
		In: e.Parent, Charges: e.Charges, Fill: e.Fill, Out: slices.Clone(e.Out)}
	switch m, own := h.own[e.Item]; {
	case own:
		se.Item = m
	case c.System.inCatalog(e.Item):
		se.ID = e.Item.ID
	default:
		return StoredEntry{}, refusal.New(refusal.NotRulesetItem, "entry %s holds %q, an item neither the catalog's nor recorded as its own", e.UID, e.Item.Name)
	}
	return se, nil
}

// keptBare is holdings h kept without their entries: the uid counter, what rules
// left and the purse. Every keep passes here, so this is where a purse that would not
// restore is refused (Money.PurseFits), whichever addition took it there.
func (c *Campaign) keptBare(h *Held) (*Stored, error) {
	m := c.System.Money()
	if err := m.PurseFits(h.Purse); err != nil {
		return nil, err
	}
	st := &Stored{Next: h.next, Rules: h.rules.clone(), Purse: m.Map(h.Purse)}
	if len(st.Purse) == 0 {
		st.Purse = nil
	}
	return st, nil
}

// keptAs reports whether se is what Keep writes for entry e (a NaN fill never is).
func (c *Campaign) keptAs(h *Held, e *Entry, se *StoredEntry) bool {
	if e.UID != se.UID || e.Qty != se.Qty || e.Equipped != se.Equipped || e.Parent != se.In || e.Charges != se.Charges || e.Fill != se.Fill ||
		!sameSwitches(e.Own, se.States) || !sameSwitches(e.GM, se.GM) || !slices.Equal(e.Out, se.Out) {
		return false
	}
	// Most holdings embed no item at all: then there is nothing to look up (KeepChange
	// asks this of every entry on every tag).
	if len(h.own) > 0 {
		if m, own := h.own[e.Item]; own {
			return se.ID == "" && m != nil && se.Item != nil && reflect.ValueOf(m).Pointer() == reflect.ValueOf(se.Item).Pointer()
		}
	}
	return se.Item == nil && se.ID == e.Item.ID && c.System.inCatalog(e.Item)
}

func nonEmpty(m map[string]bool) map[string]bool {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}

// Clone is a deep copy of stored holdings, so a store's memo of a record and the
// command changing it never share a map.
func (s *Stored) Clone() *Stored {
	if s == nil {
		return nil
	}
	d := &Stored{Next: s.Next, Rules: s.Rules.clone(), Purse: maps.Clone(s.Purse), Items: slices.Clone(s.Items)}
	for i := range d.Items {
		e := &d.Items[i]
		e.States, e.GM, e.Out = maps.Clone(e.States), maps.Clone(e.GM), slices.Clone(e.Out)
		if e.Item != nil {
			e.Item = cloneJSON(e.Item).(map[string]any)
		}
	}
	return d
}

// cloneJSON deep-copies a value in JSON's generic shapes.
func cloneJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, v := range x {
			m[k] = cloneJSON(v)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, v := range x {
			l[i] = cloneJSON(v)
		}
		return l
	}
	return v
}
