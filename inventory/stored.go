package inventory

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

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

// Stored is a character's holdings as the store keeps them: the entries in inventory
// order, the purse per coin key, and the counter the next entry's uid is made from, so
// uids are deterministic (the same tags on the same holdings make the same uids, and a
// regenerated reply names things as the first one did).
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
	uids := make(map[string]bool, len(st.Items))
	for i, se := range st.Items {
		path := strictjson.Join("items", i)
		e, eps := c.restoreEntry(h, path, &se)
		ps = append(ps, eps...)
		if e == nil {
			continue
		}
		if uids[e.UID] {
			ps.Add(strictjson.Join(path, "uid"), "uid %q is used twice", e.UID)
		}
		uids[e.UID] = true
		h.Inv = append(h.Inv, e)
	}
	for i, se := range st.Items {
		if se.In != "" && !uids[se.In] {
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
	h.Purse = p
	return h, nil
}

// restoreEntry reads one stored entry; nil with the problems when it cannot be read.
func (c *Campaign) restoreEntry(h *Held, path string, se *StoredEntry) (*Entry, strictjson.Problems) {
	var ps strictjson.Problems
	if se.UID == "" {
		ps.Add(strictjson.Join(path, "uid"), "an entry needs a uid")
	}
	if se.Qty < 1 {
		ps.Add(strictjson.Join(path, "qty"), "qty %d: an entry holds at least 1", se.Qty)
	}
	var it *Item
	switch {
	case se.ID != "" && se.Item != nil:
		ps.Add(path, "an entry names a catalog item (id) or embeds its own (item), not both")
	case se.ID != "":
		if it = c.System.CatalogItem(se.ID); it == nil {
			ps.Add(strictjson.Join(path, "id"), "the catalog has no item %q", se.ID)
		}
	case se.Item != nil:
		data, err := json.Marshal(se.Item)
		if err != nil {
			ps.Add(strictjson.Join(path, "item"), "%v", err)
			break
		}
		var ips strictjson.Problems
		if it, ips = c.parseOwn(data); len(ips) > 0 {
			at := strictjson.Join(path, "item")
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
		ps.Add(path, "an entry needs a catalog item (id) or its own (item)")
	}
	if len(ps) > 0 {
		return nil, ps
	}
	return &Entry{UID: se.UID, Item: it, Qty: se.Qty, Equipped: se.Equipped, Own: maps.Clone(se.States), GM: maps.Clone(se.GM),
		Parent: se.In, Charges: se.Charges, Fill: se.Fill, Out: slices.Clone(se.Out)}, nil
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
// neither the catalog's nor recorded with Own cannot be written, and is an error.
func (c *Campaign) Keep(h *Held) (*Stored, error) {
	st := &Stored{Next: h.next, Rules: h.rules.clone(), Purse: c.System.Money().Map(h.Purse), Items: make([]StoredEntry, 0, len(h.Inv))}
	if len(st.Purse) == 0 {
		st.Purse = nil
	}
	for _, e := range h.Inv {
		se := StoredEntry{UID: e.UID, Qty: e.Qty, Equipped: e.Equipped, States: nonEmpty(e.Own), GM: nonEmpty(e.GM),
			In: e.Parent, Charges: e.Charges, Fill: e.Fill, Out: slices.Clone(e.Out)}
		switch m, own := h.own[e.Item]; {
		case own:
			se.Item = m
		case c.System.CatalogItem(e.Item.ID) == e.Item:
			se.ID = e.Item.ID
		default:
			return nil, fmt.Errorf("inventory: entry %s holds %q, an item neither the catalog's nor recorded as its own", e.UID, e.Item.Name)
		}
		st.Items = append(st.Items, se)
	}
	if len(st.Items) == 0 {
		st.Items = nil
	}
	return st, nil
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
