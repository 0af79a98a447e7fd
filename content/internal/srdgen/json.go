package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// obj is a JSON object whose keys keep the order they were written in, so the
// generated files read in a sensible order and never depend on map iteration.
type obj []kv

type kv struct {
	k string
	v any
}

// o builds an obj from alternating keys and values. A nil value (or a nil obj,
// slice or pointer) leaves its key out, so optional keys can be written inline.
func o(pairs ...any) obj {
	if len(pairs)%2 != 0 {
		panic("o: odd number of arguments")
	}
	out := make(obj, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		k := pairs[i].(string)
		v := pairs[i+1]
		if isAbsent(v) {
			continue
		}
		out = append(out, kv{k, v})
	}
	return out
}

func isAbsent(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case obj:
		return x == nil
	case []any:
		return x == nil
	case []obj:
		return x == nil
	case []string:
		return x == nil
	case *int:
		return x == nil
	case *bool:
		return x == nil
	}
	return false
}

// set adds or replaces a key.
func (m *obj) set(k string, v any) {
	for i := range *m {
		if (*m)[i].k == k {
			(*m)[i].v = v
			return
		}
	}
	*m = append(*m, kv{k, v})
}

// MarshalJSON writes the object in key order.
func (m obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := marshal(p.k)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := marshal(p.v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p.k, err)
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes v compactly without HTML escaping.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// indented encodes v with two-space indentation and a final newline.
func indented(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// catalogFile encodes a standalone catalog file with one entry per line: small,
// and a regenerated file diffs entry by entry.
func catalogFile(comment, id string, entries []obj) ([]byte, error) {
	var b bytes.Buffer
	head, err := marshal(comment)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "{\n  \"schemaVersion\": 1,\n  \"$comment\": %s,\n  \"catalog\": %q,\n  \"entries\": [\n", head, id)
	for i, e := range entries {
		line, err := marshal(e)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		b.WriteString("    ")
		b.Write(line)
		if i < len(entries)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes(), nil
}
