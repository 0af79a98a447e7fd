package bot

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"sheetkeeper/inventory"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// The actions of an inventory tag (SPEC 3.5), each on holdings restored for the tag
// alone: a refusal returns before anything is written, so a tag is all or nothing. The
// engine decides (inventory.Campaign's Add, Equip, SetState, Money.Pay…); these only
// find what the tag names and say what it left.

// do runs the tag's action on rec's holdings h.
func (it *invTag) do(rec *storage.CardRecord, h *inventory.Held) error {
	switch it.tag.Op {
	case "add":
		return it.add(rec, h)
	case "remove":
		return it.remove(rec, h)
	case "give":
		return it.give(rec, h)
	case "use":
		return it.use(rec, h)
	case "equip":
		return it.equip(rec, h)
	case "unequip":
		return it.unequip(rec, h)
	case "bind", "unbind":
		key, err := it.bindState()
		if err != nil {
			return err
		}
		return it.switchState(rec, h, key, it.tag.Op == "bind")
	case "state":
		st, err := it.stateNamed(it.attr("key"))
		if err != nil {
			return err
		}
		return it.switchState(rec, h, st.Key, it.attr("state") == "on")
	case "pay", "receive", "earn":
		return it.money(rec, h)
	case "buy":
		return it.buyFromShop(rec, h)
	}
	return refusal.New(refusal.Malformed, "%q is not an inventory action", it.tag.Op)
}

func (it *invTag) remove(rec *storage.CardRecord, h *inventory.Held) error {
	e, err := it.entry(h.Inv)
	if err != nil {
		return err
	}
	if _, err := it.take(h, e, it.count()); err != nil {
		return err
	}
	it.nows[rec] = it.heldWords(h, e.Item)
	return nil
}

// give moves count of an item to the card to= names, in one tag: both holdings change
// or neither.
func (it *invTag) give(rec *storage.CardRecord, h *inventory.Held) error {
	to, ok := it.tag.Get("to")
	if !ok || to == "" {
		return refusal.New(refusal.Malformed, "give needs to=\"Name\": who receives it")
	}
	dst, err := findCard(it.t.records, to)
	if err != nil {
		return err
	}
	if dst == rec {
		return refusal.New(refusal.NotAllowed, "%s cannot give to themselves", rec.Card.Name)
	}
	e, err := it.entry(h.Inv)
	if err != nil {
		return err
	}
	moved, err := it.takeOut(h, e, it.count(), true)
	if err != nil {
		return err
	}
	dh, err := it.open(dst)
	if err != nil {
		return err
	}
	if it.t.actor != actorGM {
		if err := fitsLimits(it.c, dh.Inv, moved, it.t.locals(dst), dst.Card.Name); err != nil {
			return err
		}
	}
	receive(it.c, dh, h, moved)
	it.nows[rec] = it.heldWords(h, e.Item)
	it.nows[dst] = it.heldWords(dh, e.Item)
	return nil
}

// take takes n of entry e's item out of h (a remove, a use) as takeOut does, except that
// what was inside a container taken whole stays, dropped loose where the container
// stood: a bag thrown away does not take its contents with it.
func (it *invTag) take(h *inventory.Held, e *inventory.Entry, n int64) ([]*inventory.Entry, error) {
	return it.takeOut(h, e, n, false)
}

// entry is the entry among the tag names: the first answering to its item=, or, when the
// tag says uid= (a panel's request does: its button names the entry it was drawn for,
// and two entries may share a name), the entry of that uid, which must answer to the
// name too. A uid alone names nothing, so a stale or mistaken one is refused not-held,
// never played on another row; and it is looked for only among the holdings the tag
// opened, so it reaches no one else's entry.
func (it *invTag) entry(among []*inventory.Entry) (*inventory.Entry, error) {
	uid := it.attr("uid")
	if uid == "" {
		return it.c.FindEntry(among, it.attr("item"))
	}
	for _, e := range among {
		if e.UID == uid {
			return it.c.FindEntry([]*inventory.Entry{e}, it.attr("item"))
		}
	}
	return nil, refusal.New(refusal.NotHeld, "%s (%s) is not held", it.attr("item"), uid)
}

// takeOut takes n of entry from's item out of h, from its last rows first (from from's
// row alone when the tag names it by uid: the entry it names is the one that changes),
// and returns what it took, with what was inside a container taken whole when whole is
// set (a give). Less than n held is refused. What of the item goes along inside a
// container taken counts toward n, so a row that would take more than is left to take
// is passed over for one that fits: a give of two sacks is two, one of them perhaps
// inside the other, never a third with them. Such a row always stands while any of the
// item is left (the innermost of it fits), save in a corrupt ring of containers,
// refused not-allowed.
func (it *invTag) takeOut(h *inventory.Held, from *inventory.Entry, n int64, whole bool) ([]*inventory.Entry, error) {
	item, only := from.Item, (*inventory.Entry)(nil)
	held := heldCount(h, item)
	if it.attr("uid") != "" {
		only, held = from, from.Qty
	}
	if held < n {
		return nil, refusal.New(refusal.Insufficient, "%s has only %d", item.Name, held)
	}
	want := n
	var moved []*inventory.Entry
	for i := len(h.Inv) - 1; i >= 0 && n > 0; i-- {
		e := h.Inv[i]
		if e.Item != item || only != nil && e != only {
			continue
		}
		if e.Qty > n {
			part := cloneEntry(e)
			part.Qty, part.Equipped, part.Parent = n, false, ""
			e.Qty -= n
			moved = append(moved, part)
			n = 0
			break
		}
		goes := e.Qty
		if whole {
			goes += sameInside(h.Inv, e)
		}
		if goes > n {
			continue // it would take more than is left to take
		}
		n -= goes
		moved = append(moved, h.Inv[i])
		h.Inv = slices.Delete(h.Inv, i, i+1)
		if !whole {
			dropLoose(h.Inv, e)
			continue
		}
		moved = append(moved, takeContents(h, e.UID)...)
		i = len(h.Inv) // contents may have stood before it: look again from the end
	}
	if n > 0 {
		return nil, refusal.New(refusal.NotAllowed, "%s: %d cannot be taken without more of it inside going along; take the inner one out first", item.Name, want)
	}
	if it.t.actor != actorGM {
		if err := heldFast(it.c, moved); err != nil {
			return nil, err
		}
	}
	return moved, nil
}

// sameInside is how many of e's item are inside container e, however deep: they go
// along when it is taken whole. e itself is not counted, even in a corrupt ring.
func sameInside(inv []*inventory.Entry, e *inventory.Entry) int64 {
	if e.UID == "" {
		return 0 // no uid holds nothing (inside would read the loose rows as its contents)
	}
	var n int64
	for _, x := range inside(inv, e.UID) {
		if x.Item == e.Item && x != e {
			n += x.Qty
		}
	}
	return n
}

// heldFast refuses, locked, letting go of entries a character cannot end a state of: one
// with a state on that its item locks (a cursed binding) or that the GM set. SPEC 7:
// only the GM ends those, so a GM's /item (actorGM) does not ask; a player's and a tag
// (which acts as the character would) do, for a give, a remove, a use and a trade.
func heldFast(c *inventory.Campaign, entries []*inventory.Entry) error {
	for _, e := range entries {
		now := c.Now(e)
		for i := range c.States {
			st := &c.States[i]
			switch {
			case !e.On(st.Key):
			case now.Locks(st.Key):
				return refusal.New(refusal.Locked, "%s is %s and it is locked: only the GM can take it away", now.Name, strings.ToLower(st.Label))
			case e.GM[st.Key]:
				return refusal.New(refusal.Locked, "the GM has set %s %s: only the GM can take it away", now.Name, strings.ToLower(st.Label))
			}
		}
	}
	return nil
}

// fitsLimits refuses, limit, entries coming into inv (of the character who, whose Local
// values local reads) that would take a block-limited state past its limit, as
// SetState refuses switching it on. Each entry coming with the state on counts, even one
// that will join a stack, so a merge hides no binding; a row split off a stack within
// inv (equip's one) comes as an arrival does.
func fitsLimits(c *inventory.Campaign, inv, coming []*inventory.Entry, local func(string) (float64, bool), who string) error {
	for _, sc := range c.Limits(inv, local) {
		st := c.State(sc.Key)
		if st.Limit.Mode != "block" {
			continue
		}
		n := int64(0)
		for _, e := range coming {
			if e.On(sc.Key) {
				n++
			}
		}
		if n > 0 && sc.Count+n > sc.Limit {
			return refusal.New(refusal.Limit, "%s cannot take it: %s (%s %d/%d)", who, inventory.LimitText(st, sc.Limit), strings.ToLower(st.Label), sc.Count, sc.Limit)
		}
	}
	return nil
}

// dropLoose puts what stood directly in container box where box stood: in its
// container, else loose (and in no compartment of it).
func dropLoose(inv []*inventory.Entry, box *inventory.Entry) {
	for _, x := range inv {
		if x.Parent == box.UID && box.UID != "" {
			x.Parent, x.Compartment = box.Parent, box.Compartment
		}
	}
}

// takeContents takes out everything inside container uid, however deep.
func takeContents(h *inventory.Held, uid string) []*inventory.Entry {
	out := inside(h.Inv, uid)
	in := entrySet(out)
	h.Inv = slices.DeleteFunc(h.Inv, func(x *inventory.Entry) bool { return in[x] })
	return out
}

// inside is everything inside container uid in inv, however deep, each container
// before what it holds (each entry is found once, so a corrupt ring of containers ends).
func inside(inv []*inventory.Entry, uid string) []*inventory.Entry {
	var out []*inventory.Entry
	seen := map[*inventory.Entry]bool{}
	boxes := []string{uid}
	for len(boxes) > 0 {
		box := boxes[0]
		boxes = boxes[1:]
		for _, x := range inv {
			if x.Parent == box && !seen[x] {
				seen[x] = true
				out = append(out, x)
				boxes = append(boxes, x.UID)
			}
		}
	}
	return out
}

// receive puts entries taken from holdings from into h under h's own uids, loose and
// unequipped where they were at the top, inside their container where they were in one;
// an item of from's own comes with its JSON.
func receive(c *inventory.Campaign, h, from *inventory.Held, moved []*inventory.Entry) {
	uids := map[string]string{}
	for _, e := range moved {
		h.Adopt(from, e)
		old := e.UID
		e.UID = ""
		if p, ok := uids[e.Parent]; ok && e.Parent != "" {
			e.Parent = p
		} else {
			e.Parent, e.Equipped = "", false
		}
		inv, at := c.Add(h.Inv, e)
		h.Inv = inv
		if at == e {
			e.UID = h.NewUID()
		}
		uids[old] = at.UID
	}
}

// cloneEntry is a copy of e that shares no map or slice with it.
func cloneEntry(e *inventory.Entry) *inventory.Entry {
	d := *e
	d.Own, d.GM, d.Out = maps.Clone(e.Own), maps.Clone(e.GM), slices.Clone(e.Out)
	return &d
}

func heldCount(h *inventory.Held, item *inventory.Item) int64 {
	var n int64
	for _, e := range h.Inv {
		if e.Item == item {
			n += e.Qty
		}
	}
	return n
}

// heldWords is a now: how many of item the holdings have ("Rope ×2", "Rope ×0").
func (it *invTag) heldWords(h *inventory.Held, item *inventory.Item) string {
	return item.Name + " ×" + strconv.FormatInt(heldCount(h, item), 10)
}

// equip equips one of an item: a stack gives one of itself to the slot. A full slot is
// refused no-slot, saying what could come out to make room.
//
// The one split off keeps the stack's states, so it is a row more with each of them on:
// it is checked as an arrival is (fitsLimits, refused limit), since the block limits
// count rows, and an attuned pair of one row split in two would be two attunements of
// one allowed. The GM's /item overrides, as for a give.
func (it *invTag) equip(rec *storage.CardRecord, h *inventory.Held) error {
	e, err := it.entry(slices.DeleteFunc(slices.Clone(h.Inv), func(x *inventory.Entry) bool { return x.Equipped }))
	if err != nil {
		if _, again := it.entry(h.Inv); again == nil {
			return refusal.New(refusal.NotAllowed, "%s is equipped already", it.attr("item"))
		}
		return err
	}
	if e.Qty > 1 {
		one := cloneEntry(e)
		one.Qty, one.UID, one.Parent = 1, h.NewUID(), ""
		if it.t.actor != actorGM {
			if err := fitsLimits(it.c, h.Inv, []*inventory.Entry{one}, it.t.locals(rec), rec.Card.Name); err != nil {
				return err
			}
		}
		e.Qty--
		h.Inv = slices.Insert(h.Inv, slices.Index(h.Inv, e)+1, one)
		e = one
	}
	e.Parent = ""
	full, err := it.c.Equip(h.Inv, e)
	if err != nil {
		return err
	}
	if full != nil {
		return refusal.New(refusal.NoSlot, "%s", fullWords(it.c, full, it.c.Now(e).Name))
	}
	now := it.c.Now(e).Name + " equipped"
	if p, ok := it.c.SlotFor(e); ok {
		now += " (" + p.Slot.Label + " " + strconv.Itoa(slotUsed(it.c, h, p.Slot)) + "/" + strconv.Itoa(p.Slot.Count) + ")"
	}
	it.nows[rec] = now
	return nil
}

// fullWords is what to take out to make room in a full slot.
func fullWords(c *inventory.Campaign, full *inventory.Full, name string) string {
	s := full.Slot.Label + " is full: " + name + " needs " + strconv.Itoa(full.Need) + ", " + strconv.Itoa(full.Free) + " free"
	var out []string
	for _, x := range full.Holders {
		out = append(out, c.Now(x).Name)
	}
	if len(out) > 0 {
		s += "; take out " + strings.Join(out, " or ") + " first"
	}
	for _, so := range full.Shrink {
		st := c.State(so.State)
		s += "; or switch " + c.Now(so.Entry).Name + " out of " + strings.ToLower(st.Label)
	}
	return s
}

// slotUsed is how many places of slot the holdings' equipped entries take.
func slotUsed(c *inventory.Campaign, h *inventory.Held, slot *inventory.Slot) int {
	n := 0
	for _, x := range h.Inv {
		if p, ok := c.SlotFor(x); x.Equipped && ok && p.Slot == slot {
			n += p.Size
		}
	}
	return n
}

func (it *invTag) unequip(rec *storage.CardRecord, h *inventory.Held) error {
	worn := slices.DeleteFunc(slices.Clone(h.Inv), func(x *inventory.Entry) bool { return !x.Equipped })
	e, err := it.entry(worn)
	if err != nil {
		if _, held := it.entry(h.Inv); held == nil {
			return refusal.New(refusal.NotAllowed, "%s is not equipped", it.attr("item"))
		}
		return err
	}
	it.c.Unequip(e)
	it.nows[rec] = it.c.Now(e).Name + " unequipped"
	return nil
}

// bindState is the state binding switches: the ruleset's binding (inventory.BoundState),
// else the system's first limited player state (attunement in the 5e SRD).
func (it *invTag) bindState() (string, error) {
	if it.c.State(inventory.BoundState) != nil {
		return inventory.BoundState, nil
	}
	for _, st := range it.c.States {
		if st.Limit != nil && st.Who != "gm" {
			return st.Key, nil
		}
	}
	return "", refusal.New(refusal.NotEnabled, "this campaign's system binds nothing")
}

// stateNamed finds a state of the campaign by key or label.
func (it *invTag) stateNamed(name string) (*inventory.State, error) {
	for i := range it.c.States {
		st := &it.c.States[i]
		if st.Key == name || ruleset.FoldName(st.Label) == ruleset.FoldName(name) {
			return st, nil
		}
	}
	return nil, refusal.New(refusal.UnknownState, "the system has no state %q", name)
}

// switchState switches a state of the item on or off. A GM's tag acts as the character
// would, by the state's rules (limits, locks: a cursed binding stays), except that a
// state only the GM switches (who: "gm") is switched as the GM's, since only a GM's
// tags apply; a player's /item acts as the player, a GM's as the GM's override.
func (it *invTag) switchState(rec *storage.CardRecord, h *inventory.Held, key string, on bool) error {
	e, err := it.entry(h.Inv)
	if err != nil {
		return err
	}
	st := it.c.State(key)
	local := it.t.locals(rec)
	gm := st.Who == "gm"
	switch it.t.actor {
	case actorPlayer:
		gm = false
	case actorGM:
		gm = true
	}
	warn, err := it.c.SetState(h.Inv, e, inventory.StateChange{Key: key, On: on, GM: gm}, local)
	if err != nil {
		return err
	}
	it.switched = e // SetState changes e's states alone
	now := it.c.Now(e).Name + ": " + st.Label + " " + onOff(e.On(key))
	// Only the switched state's count is said, so only its limit is read: reading every
	// limited state's (Limits) worked the whole sheet out for a state without one.
	if sc, ok := it.c.LimitUse(h.Inv, st, local); ok {
		now += " (" + strings.ToLower(st.Label) + " " + strconv.FormatInt(sc.Count, 10) + "/" + strconv.FormatInt(sc.Limit, 10) + ")"
	}
	if warn != "" {
		now += "; " + warn
	}
	it.nows[rec] = now
	return nil
}

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// buyFromShop buys count of an item from the channel's open shop, as /buy does
// (market.buy): the buyer's coins, the stock and the shop's funds in the tag's one
// change. The shop is written when the tag commits; a channel without a shop refuses,
// changing nothing, rather than making the item (and its price) out of nothing.
func (it *invTag) buyFromShop(rec *storage.CardRecord, h *inventory.Held) error {
	t := it.t
	if t.market == nil {
		if t.tx == nil || t.camp == nil {
			return refusal.New(refusal.OutOfStock, "no shop is open here: %s cannot buy %s", rec.Card.Name, it.attr("item"))
		}
		m, err := loadMarket(t.tx, t.camp.ChannelID, it.c)
		if refusal.Of(err) == refusal.NotEnabled {
			return refusal.New(refusal.OutOfStock, "no shop is open in this channel: %s cannot buy %s here (the GM can add it, or take the coins with pay)", rec.Card.Name, it.attr("item"))
		}
		if err != nil {
			return err
		}
		m.t, t.market = t, m
	}
	before := t.market.state()
	said, err := t.market.buy(rec, h, it.attr("item"), it.count())
	if err != nil {
		t.market = nil // the shop may have sold before the holdings refused the rows: read it afresh
		return err
	}
	it.bought = &sheet.Change{Card: t.market.rec.Name, Path: pathShop, Before: before, After: t.market.state()}
	it.nows[rec] = said
	return nil
}

// amountText is the money a money tag names: its amount=, else (an earn as Marinara's
// GM writes it) count= of the coin item= names, or of the shown coin.
func (it *invTag) amountText() string {
	if a, ok := it.tag.Get("amount"); ok {
		return a
	}
	return strings.TrimSpace(it.attr("count") + " " + it.attr("item"))
}

// money pays (to= another character, else out of the game) or receives (receive, earn)
// an amount. It changes purses alone (purseOnly).
func (it *invTag) money(rec *storage.CardRecord, h *inventory.Held) error {
	it.purseOnly = true
	m := it.c.System.Money()
	text := it.amountText()
	amount, err := m.ParseAmount(text)
	if err != nil {
		return err
	}
	if it.tag.Op != "pay" {
		h.Purse = receiveCoins(m, h.Purse, text, amount)
		it.nows[rec] = purseWords(m, h.Purse)
		return nil
	}
	after, ok := m.Pay(h.Purse, amount)
	if !ok {
		return refusal.New(refusal.CannotAfford, "%s cannot afford %s: the purse holds %s", rec.Card.Name, m.Format(amount), m.Format(m.Worth(h.Purse)))
	}
	h.Purse = after
	it.nows[rec] = purseWords(m, h.Purse)
	if to, ok := it.tag.Get("to"); ok && to != "" {
		dst, err := findCard(it.t.records, to)
		if err != nil {
			return err
		}
		if dst == rec {
			return refusal.New(refusal.NotAllowed, "%s cannot pay themselves", rec.Card.Name)
		}
		dh, err := it.open(dst)
		if err != nil {
			return err
		}
		dh.Purse = m.Receive(dh.Purse, amount)
		it.nows[dst] = purseWords(m, dh.Purse)
	}
	return nil
}

// receiveCoins adds an amount to a purse as the coins it was written in ("2 crown 3
// mark" is two crowns and three marks), else (a bare number, a decimal) as a shop pays
// it, in the change coins (Money.Receive). amount is what Money.ParseAmount read from s.
func receiveCoins(m *inventory.Money, p inventory.Purse, s string, amount int64) inventory.Purse {
	words := strings.Fields(strings.ReplaceAll(s, ",", " "))
	add := make(inventory.Purse, len(p))
	for i := 0; i+1 < len(words); i += 2 {
		n, err := strconv.ParseInt(words[i], 10, 64)
		c := slices.IndexFunc(m.Coins, func(c inventory.Coin) bool {
			return strings.EqualFold(c.Key, words[i+1]) || strings.EqualFold(c.Name, words[i+1])
		})
		if err != nil || n < 0 || c < 0 {
			return m.Receive(p, amount)
		}
		add[c] += n
	}
	if len(words)%2 != 0 || m.Worth(add) != amount {
		return m.Receive(p, amount)
	}
	out := slices.Clone(p)
	for i, n := range add {
		out[i] += n
	}
	return out
}

// purseWords is a purse as coins, largest first ("3 gp 7 cp"; "no coins").
func purseWords(m *inventory.Money, p inventory.Purse) string {
	var parts []string
	for i, n := range p {
		if n != 0 {
			parts = append(parts, strconv.FormatInt(n, 10)+" "+m.Coins[i].Key)
		}
	}
	if len(parts) == 0 {
		return "no coins"
	}
	return strings.Join(parts, " ")
}

// locals reads a character's Local values a state's limit names: the ruleset's binding
// maximum as the engine reads it (inventory.BindingMax), else a derived value of that
// id, both off their sheet with what they hold (a carried charm may raise either).
func (t *table) locals(rec *storage.CardRecord) func(string) (float64, bool) {
	var v *sheet.Values
	return func(name string) (float64, bool) {
		rs := t.rules.Ruleset
		if !inventory.ReadsBinding(rs, name) && rs.Sheet.DerivedValue(name) == nil {
			// The sheet has no value of that name: working out all of it (every item
			// held, for its itemStats) would read nothing.
			return 0, false
		}
		if v == nil {
			v = evaluate(rs, rec.Card, t.holdings(rec))
		}
		if n, ok := inventory.BindingMax(rs, v)(name); ok {
			return n, true
		}
		n, ok := v.Derived[name]
		return n, ok
	}
}
