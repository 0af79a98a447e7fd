// Package strictjson decodes JSON into Go values the way a strict schema validator reads
// a document: an unknown key is refused, a missing required key is refused, a value of
// the wrong type is refused, and every such problem is reported at once with its JSON
// path, instead of stopping at the first as encoding/json does.
//
// A struct field is required unless its json tag says omitempty. Decoding is one pass
// over the bytes with no intermediate tree, nesting is bounded, and a syntax error stops
// the document (nothing after it can be located reliably). Text that is not UTF-8 is
// refused where it stands, never read as U+FFFD.
//
// Counts are bounded while decoding, not after: an array over its limit (a slice
// field's `maxItems:"2000"` tag, else Options.MaxItems) is one Limit problem, its items
// past the limit only skipped over, whatever they hold; a million bad items cost a
// scan, not a million decoded values and their problems. Options.MaxValues is a budget
// of values for the whole document (2,000 arrays of 2,000 items each stay within every
// item limit), and problems past MaxProblems are counted, not kept (limits.go).
//
// Problems is also the one problem type of the whole validation family: the ruleset
// checks and the package reader (ruleset/bundle) report in it too, each Problem with a
// Kind (Malformed, TooNew, Limit, Integrity, Unsafe, Archive) that errors.Is and KindOf
// answer, so every front end prints and tells apart problems alike.
package strictjson

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// Options tune a decode.
type Options struct {
	// MaxDepth bounds nesting; 0 means 64. Hostile files nest deeply to exhaust the stack.
	MaxDepth int
	// AllowComment accepts a string "$comment" key on every object, as Marinara's files
	// carry them for their readers.
	AllowComment bool
	// Given, when set, is called with the path of every key an object gives, known or
	// not, so a caller can tell an omitempty key given empty ("name": "") from one
	// left out.
	Given func(path string)
	// MaxItems bounds the items of every array and the members of every map (or
	// generic object) that a `maxItems` tag does not bound otherwise; 0 means no bound.
	MaxItems int
	// MaxValues bounds the values a document decodes, nested ones included, as a
	// budget of the memory decoding may take; past it the document is refused with one
	// Limit problem and decoding stops. 0 means no bound. Items only skipped over
	// (past an array's limit) do not count.
	MaxValues int
}

// Raw holds a value's JSON text undecoded, for a union the caller decodes itself.
type Raw []byte

var rawType = reflect.TypeOf(Raw(nil))

// Decode decodes data into v (a non-nil pointer) and returns every problem found, with
// paths under base.
func Decode(data []byte, v any, base string, opt Options) Problems {
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = 64
	}
	d := &decoder{data: data, opt: opt, base: base}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		panic("strictjson: Decode needs a non-nil pointer")
	}
	d.skipSpace()
	d.value(rv.Elem(), 0)
	if !d.failed {
		d.skipSpace()
		if d.pos < len(d.data) {
			d.syntax("unexpected text after the document")
		}
	}
	if d.dropped > 0 {
		d.problems.countMore(d.droppedKind, d.dropped)
	}
	return d.problems
}

type segment struct {
	key   string
	index int // -1 for a key
}

type decoder struct {
	data     []byte
	pos      int
	opt      Options
	base     string
	path     []segment
	problems Problems
	failed   bool
	// dropped counts the problems past MaxProblems, added to the list once at the end
	// (a count kept per problem would cost a message each); droppedKind is the first's.
	dropped     int
	droppedKind Kind
	values      int // values decoded so far, for Options.MaxValues
}

func (d *decoder) pathString() string {
	var b strings.Builder
	b.WriteString(d.base)
	for _, s := range d.path {
		if s.index >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return b.String()
}

func (d *decoder) problem(format string, args ...any) {
	if d.problems.full() {
		d.drop(Malformed) // the path is not built for a problem not kept
		return
	}
	d.problems.Add(d.pathString(), format, args...)
}

func (d *decoder) syntax(msg string) {
	if d.failed {
		return
	}
	d.failed = true
	line, col := 1, 1
	for _, c := range d.data[:min(d.pos, len(d.data))] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	// A syntax error is located by line and column: the path of a broken document is
	// not meaningful, and a deeply nested one would be as long as the nesting. It is
	// kept past MaxProblems: it says why the rest of the document was not read.
	d.problems = append(d.problems, Problem{Path: d.base, Msg: fmt.Sprintf("invalid JSON at line %d, column %d: %s", line, col, msg)})
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// value decodes the next JSON value into target (which may be invalid: the value is
// then only checked for syntax and skipped).
func (d *decoder) value(target reflect.Value, depth int) {
	if d.failed {
		return
	}
	if depth > d.opt.MaxDepth {
		d.syntax(fmt.Sprintf("nested deeper than %d levels", d.opt.MaxDepth))
		return
	}
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of input")
		return
	}
	if !d.counted() {
		return
	}
	if d.indirect(target, depth) {
		return
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		d.object(target, depth)
	case c == '[':
		d.array(target, depth, d.opt.MaxItems)
	case c == '"':
		s, ok := d.str()
		if !ok {
			return
		}
		if !target.IsValid() {
			return
		}
		if target.Kind() == reflect.String {
			target.SetString(s)
			return
		}
		d.mismatch(target, "a string")
	case c == 't' || c == 'f':
		b, ok := d.literalBool()
		if !ok || !target.IsValid() {
			return
		}
		if target.Kind() == reflect.Bool {
			target.SetBool(b)
			return
		}
		d.mismatch(target, "a boolean")
	case c == 'n':
		if !d.literal("null") || !target.IsValid() {
			return
		}
		d.mismatch(target, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		f, ok := d.number()
		if !ok || !target.IsValid() {
			return
		}
		d.setNumber(target, f)
	default:
		d.syntax(fmt.Sprintf("unexpected character %q", rune(c)))
	}
}

// indirect decodes into what target stands for: raw JSON kept as its bytes, a pointer
// allocated and followed, an empty interface given the generic value. It reports
// whether it decoded the value; false leaves it to value's switch on the input.
func (d *decoder) indirect(target reflect.Value, depth int) bool {
	if !target.IsValid() {
		return false
	}
	if target.Type() == rawType {
		start := d.pos
		d.value(reflect.Value{}, depth)
		if !d.failed {
			target.SetBytes(append([]byte(nil), d.data[start:d.pos]...))
		}
		return true
	}
	switch target.Kind() {
	case reflect.Pointer:
		if d.data[d.pos] == 'n' {
			break // null into a pointer is a type error, reported by value
		}
		if target.IsNil() {
			target.Set(reflect.New(target.Type().Elem()))
		}
		d.values-- // the value pointed to is this one, counted again by value
		d.value(target.Elem(), depth)
		return true
	case reflect.Interface:
		if target.NumMethod() == 0 {
			if g := d.generic(depth); g != nil {
				target.Set(reflect.ValueOf(g))
			} else {
				target.Set(reflect.Zero(target.Type()))
			}
			return true
		}
	}
	return false
}

func (d *decoder) setNumber(target reflect.Value, f float64) {
	switch target.Kind() {
	case reflect.Float64, reflect.Float32:
		target.SetFloat(f)
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Int16, reflect.Int8:
		if f != math.Trunc(f) {
			d.problem("expected an integer, got %s", formatNumber(f))
			return
		}
		if target.OverflowInt(int64(f)) || math.Abs(f) > 1<<53 {
			d.problem("number %s is too large", formatNumber(f))
			return
		}
		target.SetInt(int64(f))
	default:
		d.mismatch(target, "a number")
	}
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// mismatch reports that the document holds got where target's type was expected.
func (d *decoder) mismatch(target reflect.Value, got string) {
	d.problem("expected %s, got %s", describe(target.Type()), got)
}

func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return describe(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Float64, reflect.Float32:
		return "a number"
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Int16, reflect.Int8:
		return "an integer"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a value"
}

func (d *decoder) literal(word string) bool {
	if len(d.data)-d.pos >= len(word) && string(d.data[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return true
	}
	d.syntax("invalid literal")
	return false
}

func (d *decoder) literalBool() (bool, bool) {
	if d.data[d.pos] == 't' {
		return true, d.literal("true")
	}
	return false, d.literal("false")
}

func (d *decoder) number() (float64, bool) {
	start := d.pos
	if !d.scanNumber() {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(d.data[start:d.pos]), 64)
	if err != nil || math.IsInf(f, 0) {
		d.problem("number %s is out of range", d.data[start:d.pos])
		return 0, false
	}
	return f, true
}

// scanNumber passes over a number, checking its grammar.
func (d *decoder) scanNumber() bool {
	p := d.pos
	if p < len(d.data) && d.data[p] == '-' {
		p++
	}
	digits := func() int {
		n := 0
		for p < len(d.data) && d.data[p] >= '0' && d.data[p] <= '9' {
			p++
			n++
		}
		return n
	}
	bad := func() bool {
		d.pos = p
		d.syntax("invalid number")
		return false
	}
	if p < len(d.data) && d.data[p] == '0' {
		p++
	} else if digits() == 0 {
		return bad()
	}
	if p < len(d.data) && d.data[p] == '.' {
		p++
		if digits() == 0 {
			return bad()
		}
	}
	if p < len(d.data) && (d.data[p] == 'e' || d.data[p] == 'E') {
		p++
		if p < len(d.data) && (d.data[p] == '+' || d.data[p] == '-') {
			p++
		}
		if digits() == 0 {
			return bad()
		}
	}
	d.pos = p
	return true
}

// str reads a JSON string. Text that is not UTF-8 is a problem at the string's path
// (a key's is its object's); unlike encoding/json, which reads it as U+FFFD and so lets
// a file say something other than what its author's editor shows.
func (d *decoder) str() (string, bool) {
	d.pos++ // opening quote
	start := d.pos
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			s := d.data[start:d.pos]
			d.pos++
			if !utf8.Valid(s) {
				d.notUTF8()
			}
			return string(s), true
		case c == '\\':
			return d.strEscaped(start)
		case c < 0x20:
			d.syntax("control character in string")
			return "", false
		}
		d.pos++
	}
	d.syntax("unterminated string")
	return "", false
}

func (d *decoder) strEscaped(start int) (string, bool) {
	var b strings.Builder
	b.Write(d.data[start:d.pos])
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			if !utf8.ValidString(b.String()) {
				d.notUTF8()
			}
			return b.String(), true
		case c < 0x20:
			d.syntax("control character in string")
			return "", false
		case c != '\\':
			b.WriteByte(c)
			d.pos++
			continue
		}
		if d.pos+1 >= len(d.data) {
			break
		}
		e := d.data[d.pos+1]
		d.pos += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
					save := d.pos
					d.pos += 2
					if r2, ok = d.hex4(); !ok {
						return "", false
					}
					if utf16.DecodeRune(r, r2) == utf8.RuneError {
						d.pos = save
						r2 = -1
					}
				}
				if r2 >= 0 {
					r = utf16.DecodeRune(r, r2)
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			d.syntax("invalid escape in string")
			return "", false
		}
	}
	d.syntax("unterminated string")
	return "", false
}

// notUTF8 reports a string holding bytes that are not UTF-8.
func (d *decoder) notUTF8() { d.problem("is not valid UTF-8 text") }

func (d *decoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		d.syntax("invalid \\u escape")
		return 0, false
	}
	n, err := strconv.ParseUint(string(d.data[d.pos:d.pos+4]), 16, 32)
	if err != nil {
		d.syntax("invalid \\u escape")
		return 0, false
	}
	d.pos += 4
	return rune(n), true
}

// generic decodes a value into the types encoding/json uses for any.
func (d *decoder) generic(depth int) any {
	if depth > d.opt.MaxDepth {
		d.syntax(fmt.Sprintf("nested deeper than %d levels", d.opt.MaxDepth))
		return nil
	}
	if !d.counted() {
		return nil
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		m := map[string]any{}
		d.bounded(d.members, depth, d.opt.MaxItems, "keys", func(key string) {
			if _, seen := m[key]; seen {
				d.problem(MsgDuplicateKey) // as in a struct or a typed map: never the last one silently
			}
			m[key] = d.generic(depth + 1)
		})
		return m
	case c == '[':
		a := []any{}
		if d.bounded(d.elementsOf, depth, d.opt.MaxItems, "items", func(string) { a = append(a, d.generic(depth+1)) }) {
			return []any{}
		}
		return a
	case c == '"':
		s, _ := d.str()
		return s
	case c == 't' || c == 'f':
		b, _ := d.literalBool()
		return b
	case c == 'n':
		d.literal("null")
		return nil
	case c == '-' || (c >= '0' && c <= '9'):
		f, _ := d.number()
		return f
	}
	d.syntax(fmt.Sprintf("unexpected character %q", rune(d.data[d.pos])))
	return nil
}

// members walks an object's members, calling each with the key; each must consume the
// member's value. Syntax problems stop the walk.
func (d *decoder) members(depth int, each func(key string)) {
	d.pos++ // {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return
	}
	for !d.failed {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			d.syntax("expected a key in quotes")
			return
		}
		key, ok := d.str()
		if !ok {
			return
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			d.syntax("expected ':' after a key")
			return
		}
		d.pos++
		d.skipSpace()
		if d.pos >= len(d.data) {
			d.syntax("unexpected end of input")
			return
		}
		d.path = append(d.path, segment{key: key, index: -1})
		if d.opt.Given != nil {
			d.opt.Given(d.pathString())
		}
		each(key)
		d.path = d.path[:len(d.path)-1]
		if d.failed {
			return
		}
		if !d.more('}') {
			return
		}
	}
}

// more reads what follows an object's member or an array's element: a ',' (another
// comes: true) or the container's close (false); anything else, or the end of the
// input, is a syntax problem (false).
func (d *decoder) more(close byte) bool {
	d.skipSpace()
	if d.pos >= len(d.data) {
		d.syntax("unexpected end of input")
		return false
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		return true
	case close:
		d.pos++
		return false
	}
	d.syntax("expected ',' or '" + string(close) + "'")
	return false
}

func (d *decoder) elements(depth int, each func(i int)) {
	d.pos++ // [
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return
	}
	for i := 0; !d.failed; i++ {
		d.skipSpace()
		if d.pos >= len(d.data) {
			d.syntax("unexpected end of input")
			return
		}
		d.path = append(d.path, segment{index: i})
		each(i)
		d.path = d.path[:len(d.path)-1]
		if d.failed {
			return
		}
		if !d.more(']') {
			return
		}
	}
}

func (d *decoder) object(target reflect.Value, depth int) {
	if !target.IsValid() {
		d.members(depth, func(string) { d.value(reflect.Value{}, depth+1) })
		return
	}
	switch target.Kind() {
	case reflect.Struct:
		d.structObject(target, depth)
	case reflect.Map:
		if target.Type().Key().Kind() != reflect.String {
			panic("strictjson: map keys must be strings")
		}
		if target.IsNil() {
			target.Set(reflect.MakeMap(target.Type()))
		}
		elem := target.Type().Elem()
		seen := map[string]bool{}
		d.bounded(d.members, depth, d.opt.MaxItems, "keys", func(key string) {
			if seen[key] {
				d.problem(MsgDuplicateKey)
			}
			seen[key] = true
			v := reflect.New(elem).Elem()
			d.value(v, depth+1)
			target.SetMapIndex(reflect.ValueOf(key).Convert(target.Type().Key()), v)
		})
	default:
		d.mismatch(target, "an object")
		d.members(depth, func(string) { d.value(reflect.Value{}, depth+1) })
	}
}

func (d *decoder) structObject(target reflect.Value, depth int) {
	info := structInfoOf(target.Type())
	seen := make([]bool, len(info.fields))
	d.members(depth, func(key string) {
		i, ok := info.byName[key]
		if !ok {
			if key == "$comment" && d.opt.AllowComment {
				var s string
				d.value(reflect.ValueOf(&s).Elem(), depth+1)
				return
			}
			d.problem(MsgUnknownKey)
			d.value(reflect.Value{}, depth+1)
			return
		}
		if seen[i] {
			d.problem(MsgDuplicateKey)
		}
		seen[i] = true
		f := target.FieldByIndex(info.fields[i].index)
		if limit := info.fields[i].maxItems; limit > 0 && f.Kind() == reflect.Slice && d.data[d.pos] == '[' {
			d.array(f, depth+1, limit)
			return
		}
		d.value(f, depth+1)
	})
	if d.failed {
		return
	}
	for i, f := range info.fields {
		if f.required && !seen[i] {
			d.path = append(d.path, segment{key: f.name, index: -1})
			d.problem("required")
			d.path = d.path[:len(d.path)-1]
		}
	}
}

// array decodes an array into target, at most limit items of it (0: no bound).
func (d *decoder) array(target reflect.Value, depth, limit int) {
	if !target.IsValid() {
		d.elements(depth, func(int) { d.value(reflect.Value{}, depth+1) })
		return
	}
	switch target.Kind() {
	case reflect.Slice:
		elem := target.Type().Elem()
		s := reflect.MakeSlice(target.Type(), 0, 4)
		d.bounded(d.elementsOf, depth, limit, "items", func(string) {
			s = reflect.Append(s, reflect.Zero(elem))
			d.value(s.Index(s.Len()-1), depth+1)
		})
		target.Set(s)
	case reflect.Array:
		n := target.Len()
		count := 0
		d.elements(depth, func(i int) {
			count++
			if i < n {
				d.value(target.Index(i), depth+1)
			} else {
				d.value(reflect.Value{}, depth+1)
			}
		})
		if !d.failed && count != n {
			d.problem("expected %d items, got %d", n, count)
		}
	default:
		d.mismatch(target, "an array")
		d.elements(depth, func(int) { d.value(reflect.Value{}, depth+1) })
	}
}

type fieldInfo struct {
	name     string
	index    []int
	required bool
	maxItems int // from a `maxItems:"N"` tag; 0 leaves Options.MaxItems
}

type structInfo struct {
	fields []fieldInfo
	byName map[string]int
}

var structCache sync.Map // reflect.Type → *structInfo

func structInfoOf(t reflect.Type) *structInfo {
	if v, ok := structCache.Load(t); ok {
		return v.(*structInfo)
	}
	info := &structInfo{byName: map[string]int{}}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		info.byName[name] = len(info.fields)
		maxItems := 0
		if t := f.Tag.Get("maxItems"); t != "" {
			n, err := strconv.Atoi(t)
			if err != nil || n <= 0 {
				panic("strictjson: maxItems of " + f.Name + " must be a positive count")
			}
			maxItems = n
		}
		info.fields = append(info.fields, fieldInfo{
			name:     name,
			index:    f.Index,
			required: !strings.Contains(opts, "omitempty"),
			maxItems: maxItems,
		})
	}
	v, _ := structCache.LoadOrStore(t, info)
	return v.(*structInfo)
}
