package inventory

import (
	"slices"
	"strconv"
	"strings"

	"sheetkeeper/refusal"
)

// Money is a system's currency ready to use: its coins largest first, the change coins
// and the coin prices show in. Every amount is an integer of the smallest coin, so a
// purchase, a sale and its change never lose or make a copper to rounding.
type Money struct {
	Coins     []Coin
	change    []int // indexes into Coins of the change coins, largest first
	show      int   // index into Coins of the coin prices show in
	perWeight float64
}

// Purse is a character's coins: Purse[i] coins of Money.Coins[i].
type Purse []int64

// basicCurrency is the money of a system that declares none (Pack Rat's): gold, silver
// and copper, decimal, change in all three, weightless.
func basicCurrency() *Currency {
	return &Currency{Coins: []Coin{{Key: "gp", Name: "gold", Value: 100}, {Key: "sp", Name: "silver", Value: 10}, {Key: "cp", Name: "copper", Value: 1}}, Show: "gp"}
}

// newMoney builds Money from a checked currency (nil: the basic one). The change coins
// are kept in coin order, and the smallest coin is always one of them: change must be
// able to make any amount.
func newMoney(cur *Currency) *Money {
	if cur == nil {
		cur = basicCurrency()
	}
	m := &Money{Coins: cur.Coins, perWeight: cur.PerWeight, show: -1}
	for i, c := range cur.Coins {
		if len(cur.Change) == 0 || slices.Contains(cur.Change, c.Key) || i == len(cur.Coins)-1 {
			m.change = append(m.change, i)
		}
		if c.Key == cur.Show {
			m.show = i
		}
	}
	if m.show < 0 {
		m.show = m.change[0]
	}
	return m
}

// Money returns the system's currency.
func (s *System) Money() *Money { return s.index.money }

// NewPurse returns an empty purse.
func (m *Money) NewPurse() Purse { return make(Purse, len(m.Coins)) }

// PurseOf reads coins by key ({"gp": 3}); a key that is no coin is refused.
func (m *Money) PurseOf(coins map[string]int64) (Purse, error) {
	p := m.NewPurse()
	for k, n := range coins {
		i := m.coinIndex(k)
		if i < 0 {
			return nil, refusal.New(refusal.BadAmount, "%q is not a coin of this system", k)
		}
		if !m.coinFits(i, n) {
			return nil, refusal.New(refusal.BadAmount, "%d %s is out of bounds", n, k)
		}
		p[i] = n
	}
	return p, nil
}

// PurseFits refuses, bad-amount, a purse holding more of a coin than PurseOf reads
// back (or fewer than none). One amount is bounded when it is read (ParseAmount), but
// a purse is the sum of every amount it was given: Keep asks this of every purse it
// writes, so an addition that would take one past the bound is refused whole rather
// than stored where Restore then refuses the character's whole inventory.
func (m *Money) PurseFits(p Purse) error {
	for i, n := range p {
		if m.coinFits(i, n) {
			continue
		}
		key, limit, count := m.Coins[i].Key, m.coinLimit(i), strconv.FormatInt(n, 10)
		if n > 0 {
			count = group(n)
		}
		e := refusal.New(refusal.BadAmount, "a purse holds 0 up to %s %s, this would be %s %s", group(limit), key, count, key)
		e.Bounds = "0.." + strconv.FormatInt(limit, 10)
		return e
	}
	return nil
}

// coinFits reports whether a purse may hold n of coin i: none up to what is worth
// maxMoney of the smallest coin.
func (m *Money) coinFits(i int, n int64) bool { return n >= 0 && n <= m.coinLimit(i) }

// coinLimit is the most of coin i a purse holds.
func (m *Money) coinLimit(i int) int64 { return maxMoney / m.Coins[i].Value }

// Map returns the purse by coin key, leaving out coins it has none of.
func (m *Money) Map(p Purse) map[string]int64 {
	out := map[string]int64{}
	for i, n := range p {
		if n != 0 {
			out[m.Coins[i].Key] = n
		}
	}
	return out
}

func (m *Money) coinIndex(key string) int {
	for i, c := range m.Coins {
		if c.Key == key {
			return i
		}
	}
	return -1
}

// Worth is what a purse is worth in the smallest coin.
func (m *Money) Worth(p Purse) int64 {
	var w int64
	for i, n := range p {
		w += n * m.Coins[i].Value
	}
	return w
}

// CoinWeight is what a purse weighs: perWeight coins to one unit (0: nothing).
func (m *Money) CoinWeight(p Purse) float64 {
	if m.perWeight <= 0 {
		return 0
	}
	var n int64
	for _, c := range p {
		n += c
	}
	return float64(n) / m.perWeight
}

// Pay takes cost (in the smallest coin) from a purse, Pack Rat's way: the largest coins
// first without overpaying; then, if something is left, the smallest coin that covers
// it is broken and the change comes back in the change coins smaller than it, largest
// first. 3 gp paying 9 sp 3 cp leaves 2 gp 7 cp. It returns the purse after paying, or
// false (and p untouched) when the purse is worth less than cost.
func (m *Money) Pay(p Purse, cost int64) (Purse, bool) {
	if cost < 0 || m.Worth(p) < cost {
		return nil, false
	}
	for _, n := range p {
		if n < 0 {
			return nil, false // a corrupt purse pays nothing
		}
	}
	out := append(Purse(nil), p...)
	rem := cost
	for i, c := range m.Coins {
		n := min(out[i], rem/c.Value)
		out[i] -= n
		rem -= n * c.Value
	}
	if rem == 0 {
		return out, true
	}
	// Every coin still held is worth more than rem (or the greedy pass would have spent
	// it), and some is held (the purse covers cost): break the smallest.
	b := len(m.Coins) - 1
	for b >= 0 && !(out[b] > 0 && m.Coins[b].Value > rem) {
		b--
	}
	out[b]--
	m.give(out, m.Coins[b].Value-rem, b)
	return out, true
}

// Receive adds amount to a purse as a shop pays it: in the change coins, largest first.
func (m *Money) Receive(p Purse, amount int64) Purse {
	out := append(Purse(nil), p...)
	m.give(out, amount, -1)
	return out
}

// give adds amount to p in the change coins smaller than Coins[below] (all, for -1).
func (m *Money) give(p Purse, amount int64, below int) {
	for _, i := range m.change {
		if i <= below {
			continue
		}
		n := amount / m.Coins[i].Value
		p[i] += n
		amount -= n * m.Coins[i].Value
	}
}

// Prices are what a shop's prices follow: a markup on what it sells (percent, rounded half
// up, so the price shown is the price charged) and the rate it buys at (percent of an
// item's cost, rounded down: a shop never pays a fraction).
type Prices struct {
	Markup   int64 // -90 up to 500
	SellRate int64 // 0 up to 1000; Pack Rat's shops default to 50
}

// Price is what a shop charges for one lot of an item that costs cost (never below 0).
func (pr Prices) Price(cost int64) int64 {
	markup := min(max(pr.Markup, -100), maxMarkup)
	return max(0, (cost*(100+markup)+50)/100)
}

// Offer is what a shop pays for qty of an item costing cost per bundle of bundle. It is
// worked out in unsigned 64 bits (a cost of at most 10¹² times 10⁴ items times a rate of
// 1000 % fits), and is never below 0.
func (pr Prices) Offer(cost, qty, bundle int64) int64 {
	if cost <= 0 || qty <= 0 || pr.SellRate <= 0 {
		return 0
	}
	rate := uint64(min(pr.SellRate, maxSellRate))
	n := uint64(min(cost, maxMoney)) * uint64(min(qty, maxLots)) * rate / (uint64(max(bundle, 1)) * 100)
	return int64(n)
}

// The bounds of a shop's prices, as Pack Rat's party server holds them.
const (
	maxMarkup   = 500
	maxSellRate = 1000
)

// Format shows an amount the way the system shows prices: in its show coin, as a
// decimal when that coin is worth a power of ten of the smallest ("1.5 gp"), else as
// coins from the show coin down ("4 sh 2 d"), never as fractions of a coin.
func (m *Money) Format(amount int64) string {
	var b strings.Builder
	if amount < 0 {
		b.WriteByte('-')
		amount = -amount
	}
	sc := m.Coins[m.show]
	whole, part := amount/sc.Value, amount%sc.Value
	switch {
	case part == 0:
		b.WriteString(group(whole) + " " + sc.Key)
	case isPow10(sc.Value):
		digits := len(strconv.FormatInt(sc.Value, 10)) - 1
		frac := strings.TrimRight(leftPad(strconv.FormatInt(part, 10), digits), "0")
		b.WriteString(group(whole) + "." + frac + " " + sc.Key)
	default:
		first := true
		for i := m.show; i < len(m.Coins); i++ {
			n := amount / m.Coins[i].Value
			amount -= n * m.Coins[i].Value
			if n == 0 {
				continue
			}
			if !first {
				b.WriteByte(' ')
			}
			first = false
			b.WriteString(group(n) + " " + m.Coins[i].Key)
		}
	}
	return b.String()
}

func isPow10(v int64) bool {
	for v > 1 && v%10 == 0 {
		v /= 10
	}
	return v == 1
}

func leftPad(s string, n int) string {
	if len(s) >= n {
		return s
	}
	return strings.Repeat("0", n-len(s)) + s
}

// group writes a count with thousands separators: 12,500.
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// maxAmountText bounds an amount's text (a tag's amount="…").
const maxAmountText = 100

// ParseAmount reads an amount: numbers each followed by a coin, by key or name ("4 gp
// 2 sp", "4gp, 2 silver", "1.5 gp"); a bare number is in the show coin. The total must
// be a whole number of the smallest coin. A mistake is refused as bad-amount, saying
// what could not be read.
func (m *Money) ParseAmount(s string) (int64, error) {
	if len(s) > maxAmountText {
		return 0, refusal.New(refusal.BadAmount, "an amount is at most %d characters", maxAmountText)
	}
	toks := amountTokens(s)
	if len(toks) == 0 {
		return 0, refusal.New(refusal.BadAmount, "no amount given")
	}
	var total int64
	for i := 0; i < len(toks); i++ {
		num := toks[i]
		if !isNumber(num) {
			return 0, refusal.New(refusal.BadAmount, "%q is not a number", num)
		}
		coin := m.show
		if i+1 < len(toks) && !isNumber(toks[i+1]) {
			i++
			if coin = m.coinNamed(toks[i]); coin < 0 {
				return 0, refusal.New(refusal.BadAmount, "%q is not a coin of this system", toks[i])
			}
		} else if len(toks) > 1 {
			return 0, refusal.New(refusal.BadAmount, "%q needs a coin after it", num)
		}
		v, ok := coinAmount(num, m.Coins[coin].Value)
		if !ok {
			return 0, refusal.New(refusal.BadAmount, "%s %s is not a whole number of %s", num, m.Coins[coin].Key, m.Coins[len(m.Coins)-1].Key)
		}
		if total += v; total > maxMoney {
			return 0, refusal.New(refusal.BadAmount, "the amount is over %d %s", int64(maxMoney), m.Coins[len(m.Coins)-1].Key)
		}
	}
	return total, nil
}

// amountTokens splits an amount into numbers and words: "4gp, 2 sp" → 4 gp 2 sp.
func amountTokens(s string) []string {
	var toks []string
	var cur strings.Builder
	kind := 0 // 1 number, 2 word
	flush := func() {
		if cur.Len() > 0 {
			toks = append(toks, cur.String())
			cur.Reset()
		}
		kind = 0
	}
	for _, r := range strings.ToLower(s) {
		k := 2
		switch {
		case r >= '0' && r <= '9' || r == '.':
			k = 1
		case r == ' ' || r == ',' || r == '\t' || r == '+':
			flush()
			continue
		}
		if kind != 0 && k != kind {
			flush()
		}
		kind = k
		cur.WriteRune(r)
	}
	flush()
	out := toks[:0]
	for _, t := range toks {
		if t != "and" {
			out = append(out, t)
		}
	}
	return out
}

func isNumber(s string) bool {
	dot := false
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
		case r == '.' && !dot && i > 0 && i < len(s)-1:
			dot = true
		default:
			return false
		}
	}
	return s != "" && len(s) <= 15
}

// coinNamed finds a coin by key or name, singular or plural, ignoring case.
func (m *Money) coinNamed(w string) int {
	for i, c := range m.Coins {
		name := strings.ToLower(c.Name)
		if w == c.Key || name != "" && (w == name || w == name+"s" || w == name+"es") {
			return i
		}
	}
	return -1
}

// coinAmount converts a decimal count of a coin worth value into the smallest coin,
// exactly; false when it is not a whole number of it.
func coinAmount(num string, value int64) (int64, bool) {
	ip, fp, _ := strings.Cut(num, ".")
	whole, err := strconv.ParseInt(ip, 10, 64)
	if err != nil || whole > maxMoney/value || len(fp) > 9 {
		return 0, false
	}
	v := whole * value
	if fp == "" {
		return v, true
	}
	frac, err := strconv.ParseInt(fp, 10, 64)
	if err != nil {
		return 0, false
	}
	scale := int64(1)
	for range fp {
		scale *= 10
	}
	if frac*value%scale != 0 {
		return 0, false
	}
	return v + frac*value/scale, true
}
