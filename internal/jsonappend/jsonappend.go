// Package jsonappend writes JSON by appending to a byte slice, byte for byte what
// encoding/json writes for the same values, without reflection.
//
// It is the one hand-written JSON writer of sheetkeeper: the sheet engine encodes a
// card with it and the bolt store the records every command writes (a card record, a
// reply), where encoding/json's reflection and its second pass over a Marshaler's
// bytes are most of the cost of a write. Anything it does not write itself goes to
// encoding/json (Value), so an odd value costs time, never a different byte.
//
// On an error every function returns dst as it was given, with encoding/json's error.
package jsonappend

import (
	"encoding/json"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// Value appends json.Marshal(v).
func Value(dst []byte, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, data...), nil
}

// Scalar appends a value decoded from JSON or set by the engine: nil, float64, string
// and bool directly, and an object of them (map[string]any, what a pool's recorded
// change holds) member by member; anything else through Value.
func Scalar(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case float64:
		return Float(dst, x)
	case string:
		return String(dst, x), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case map[string]any:
		return Map(dst, x, false, Scalar)
	case []any:
		return array(dst, x)
	}
	return Value(dst, v)
}

// array appends xs as Scalar writes a []any: null for nil, each element by Scalar.
func array(dst []byte, xs []any) ([]byte, error) {
	if xs == nil {
		return append(dst, "null"...), nil
	}
	out := append(dst, '[')
	for i, x := range xs {
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = Scalar(out, x); err != nil {
			return dst, err
		}
	}
	return append(out, ']'), nil
}

// Int appends n.
func Int(dst []byte, n int) []byte { return strconv.AppendInt(dst, int64(n), 10) }

// Float appends f as encoding/json does (ES6 number formatting); NaN and ±Inf fail
// with its error.
func Float(dst []byte, f float64) ([]byte, error) {
	// Whole numbers first, the usual case: NaN fails f == Trunc(f) and ±Inf fails the
	// bound, so neither takes this path.
	if f == math.Trunc(f) && math.Abs(f) < 1e15 && (f != 0 || !math.Signbit(f)) {
		return strconv.AppendInt(dst, int64(f), 10), nil // what 'f' writes for a whole number
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return Value(dst, f) // encoding/json's error
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' { // e-09 → e-9
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, nil
}

// Time appends t as time.Time's MarshalJSON does.
func Time(dst []byte, t time.Time) ([]byte, error) {
	out, err := t.AppendText(append(dst, '"'))
	if err != nil {
		return Value(dst, t) // encoding/json's error, which wraps AppendText's
	}
	return append(out, '"'), nil
}

// Map appends m as an object with its keys sorted, each value written by value; a nil
// map is null unless nilAsEmpty.
func Map[V any](dst []byte, m map[string]V, nilAsEmpty bool, value func([]byte, V) ([]byte, error)) ([]byte, error) {
	if m == nil && !nilAsEmpty {
		return append(dst, "null"...), nil
	}
	buf := sortedKeys.Get().(*[]string)
	keys := (*buf)[:0]
	var sum uint64
	for k := range m {
		keys = append(keys, k)
		if len(m) >= orderedMin {
			sum += maphash.String(orderSeed, k)
		}
	}
	var slot *atomic.Pointer[order]
	if len(m) >= orderedMin {
		slot = &orders[sum%uint64(len(orders))]
		if o := slot.Load(); o != nil && o.sum == sum && len(o.keys) == len(m) {
			if out, ok, err := members(dst, m, o.keys, value); ok {
				put(buf, keys)
				return out, err
			}
		}
	}
	slices.Sort(keys)
	if slot != nil {
		slot.Store(&order{sum, slices.Clone(keys)})
	}
	out, _, err := members(dst, m, keys, value)
	put(buf, keys)
	return out, err
}

// members appends m as an object whose keys, in order, are keys; ok is false (and dst
// is as given) when one of them is not in m. keys being as many as m's, m then has
// exactly them.
func members[V any](dst []byte, m map[string]V, keys []string, value func([]byte, V) ([]byte, error)) (_ []byte, ok bool, _ error) {
	out := append(dst, '{')
	for i, k := range keys {
		v, ok := m[k]
		if !ok {
			return dst, false, nil
		}
		if i > 0 {
			out = append(out, ',')
		}
		var err error
		if out, err = value(append(String(out, k), ':'), v); err != nil {
			return dst, true, err
		}
	}
	return append(out, '}'), true, nil
}

// put gives keys back to the pool, emptied so the pool keeps no one's strings alive.
func put(buf *[]string, keys []string) {
	clear(keys)
	*buf = keys[:0]
	sortedKeys.Put(buf)
}

// sortedKeys holds the slices Map sorts keys in. Not an array on Map's stack: a card's
// maps nest (lists of rows of cells), and a kilobyte a level made every goroutine that
// encodes a card grow its stack again after each collection shrank it (runtime.copystack
// was a quarter of encoding a card under load).
var sortedKeys = sync.Pool{New: func() any { s := make([]string, 0, 64); return &s }}

// orders remembers the sorted keys of maps of at least orderedMin keys, by the sum of
// their keys' hashes: a card's fields are the same few dozen keys every time it is
// written, and sorting them was a third of encoding it (~4 µs of a 2 KB card, under
// the bolt store's run lock). A remembered order is used only when the map has as many
// keys and every one of them, so it is never wrong, only sometimes not there.
var orders [64]atomic.Pointer[order]

type order struct {
	sum  uint64
	keys []string
}

// orderedMin is the fewest keys whose order Map remembers: fewer sort in less time
// than hashing them takes.
const orderedMin = 12

var orderSeed = maphash.MakeSeed()

// Strings appends ss as an array of strings; nil is null.
func Strings(dst []byte, ss []string) []byte {
	if ss == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = String(dst, s)
	}
	return append(dst, ']')
}

// String appends s quoted and escaped exactly as encoding/json does: '"', '\\', the
// HTML characters and control bytes escaped, U+2028 and U+2029 escaped, invalid UTF-8
// as U+FFFD.
func String(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if plain[b] {
			i++
			continue
		}
		if b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

// plain holds the ASCII bytes String copies as they are: all but control bytes, '"',
// '\\' and the HTML characters '<', '>', '&' (encoding/json's htmlSafeSet). Nearly
// every byte of a card or a reply is one, and one table load is cheaper than the
// comparisons it replaces.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()
