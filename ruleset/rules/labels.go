package rules

import (
	"reflect"
	"strings"
	"unicode"

	"sheetkeeper/strictjson"
)

// maxLabelID bounds each id a label shows: a hostile file's ten-thousand-character id
// must not be repeated into every problem under it.
const maxLabelID = 40

// Scoped is the mark of an element whose id is unique only within the element holding
// it, as a catalog entry's is within its catalog: its label names both
// (`knacks/last-ember`), as the product names an entry everywhere.
type Scoped interface{ ScopedID() }

// LabelIDs names, in each problem's path, every element the path goes through by its id:
// after each index of a list element that has one it inserts the id, in parentheses —
// `catalogs[0] (knacks): …`, `sheet.derived[0] (grit_max).of[3]: …`,
// `sheet.lists[0] (tricks).columns[2] (uses): …`. A Scoped element's label is its
// holder's id, '/', its own (`catalogs[0].entries[3] (knacks/last-ember).rows[1]…`), and
// the holder's label, which it repeats, is then left out. scope is the id of what root
// itself stands in (a standalone catalog file's catalog), or "".
//
// It is one rule for every list in a ruleset: root is the decoded value, walked the way
// strictjson decoded it (exported fields under their json names), and an element has an
// id when it is a struct with a string field decoded from "id". It runs after every check
// (and after sorting, so labels change no order), and only when there are problems.
func LabelIDs(ps strictjson.Problems, root any, scope string) {
	if len(ps) == 0 {
		return
	}
	labels := map[string]string{}
	walkIDs(reflect.ValueOf(root), "", capID(strings.TrimSpace(scope)), labels)
	if len(labels) == 0 {
		return
	}
	for i := range ps {
		ps[i].Path = labelPath(ps[i].Path, labels)
	}
}

// labelPath inserts the label of each labelled element of path, leaving out one that the
// next repeats.
func labelPath(path string, labels map[string]string) string {
	type mark struct {
		at    int
		label string
	}
	var marks []mark
	for k := 0; k < len(path); k++ {
		if path[k] != ']' {
			continue
		}
		if l, ok := labels[path[:k+1]]; ok {
			if n := len(marks); n > 0 && strings.HasPrefix(l, marks[n-1].label+"/") {
				marks = marks[:n-1]
			}
			marks = append(marks, mark{k + 1, l})
		}
	}
	if len(marks) == 0 {
		return path
	}
	var b strings.Builder
	last := 0
	for _, m := range marks {
		b.WriteString(path[last:m.at])
		b.WriteString(" (" + m.label + ")")
		last = m.at
	}
	b.WriteString(path[last:])
	return b.String()
}

// walkIDs records the label of each list element with an id under its path. holder is
// the id of the nearest element above v that has one.
func walkIDs(v reflect.Value, path, holder string, labels map[string]string) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			if name, ok := jsonName(t.Field(i)); ok {
				walkIDs(v.Field(i), strictjson.Join(path, name), holder, labels)
			}
		}
	case reflect.Slice, reflect.Array:
		if !holdsStructs(v.Type().Elem()) {
			return
		}
		for i := 0; i < v.Len(); i++ {
			el, p, inner := v.Index(i), strictjson.Join(path, i), holder
			if id := idOf(el); id != "" {
				inner = capID(id)
				labels[p] = inner
				if _, scoped := el.Interface().(Scoped); scoped && holder != "" {
					labels[p] = holder + "/" + inner
				}
			}
			walkIDs(el, p, inner, labels)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String || !holdsStructs(v.Type().Elem()) {
			return
		}
		for it := v.MapRange(); it.Next(); {
			walkIDs(it.Value(), strictjson.Join(path, it.Key().String()), holder, labels)
		}
	}
}

// holdsStructs reports whether a list or map of t can hold something with an id: a
// []byte or []string never does, and is not walked.
func holdsStructs(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Slice, reflect.Array, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

// jsonName is the key strictjson decodes a field from; ok is false for a field it skips.
func jsonName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	if name, _, _ := strings.Cut(tag, ","); name != "" {
		return name, true
	}
	return f.Name, true
}

// idOf returns the id of a struct decoded with an "id" key, or "".
func idOf(v reflect.Value) string {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return ""
	}
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if name, ok := jsonName(t.Field(i)); ok && name == "id" && v.Field(i).Kind() == reflect.String {
			return strings.TrimSpace(v.Field(i).String())
		}
	}
	return ""
}

// capID makes an id safe to show in a path: control characters, brackets and
// parentheses (which would read as path syntax) become spaces, and it is cut at
// maxLabelID characters.
func capID(id string) string {
	var b strings.Builder
	n := 0
	for _, r := range id {
		if n == maxLabelID {
			b.WriteString("…")
			break
		}
		if unicode.IsControl(r) || strings.ContainsRune("[]()", r) || unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) {
			r = ' '
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
