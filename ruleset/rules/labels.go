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
	w := idWalk{on: onPaths(ps), labels: map[string]string{}}
	w.walk(reflect.ValueOf(root), "", capID(strings.TrimSpace(scope)))
	labels := w.labels
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

// onPaths is every path a problem's path goes through (each prefix that ends before a
// '.' or '[', or after a ']'), so the walk visits only what some problem names: a refused
// document of a million elements with one problem costs that problem's depth, not the
// document.
func onPaths(ps strictjson.Problems) map[string]bool {
	on := map[string]bool{"": true}
	for _, p := range ps {
		for k := 0; k < len(p.Path); k++ {
			switch p.Path[k] {
			case '.', '[':
				on[p.Path[:k]] = true
			case ']':
				on[p.Path[:k+1]] = true
			}
		}
		on[p.Path] = true
	}
	return on
}

// idWalk records the label of each list element with an id under its path, along the
// paths in on.
type idWalk struct {
	on     map[string]bool
	labels map[string]string
}

// walk labels what lies under v at path; holder is the id of the nearest element above v
// that has one.
func (w *idWalk) walk(v reflect.Value, path, holder string) {
	if !w.on[path] {
		return
	}
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
				w.walk(v.Field(i), strictjson.Join(path, name), holder)
			}
		}
	case reflect.Slice, reflect.Array:
		if !holdsStructs(v.Type().Elem()) {
			return
		}
		for i := 0; i < v.Len(); i++ {
			el, p, inner := v.Index(i), strictjson.Join(path, i), holder
			if !w.on[p] {
				continue
			}
			if id := idOf(el); id != "" {
				inner = capID(id)
				w.labels[p] = inner
				if _, scoped := el.Interface().(Scoped); scoped && holder != "" {
					w.labels[p] = holder + "/" + inner
				}
			}
			w.walk(el, p, inner)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String || !holdsStructs(v.Type().Elem()) {
			return
		}
		for it := v.MapRange(); it.Next(); {
			w.walk(it.Value(), strictjson.Join(path, it.Key().String()), holder)
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
