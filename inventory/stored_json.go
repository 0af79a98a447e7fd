package inventory

import (
	"strconv"

	"sheetkeeper/internal/jsonappend"
)

// AppendJSON appends json.Marshal(s) to dst, written directly: a card record carries its
// holdings and is written on every command, where encoding/json's reflection over a
// few hundred entries would be most of the cost of the write (storage/record,
// TestEncodeMatches). On an error dst comes back as it was, with encoding/json's error.
func (s *Stored) AppendJSON(dst []byte) ([]byte, error) {
	if s == nil {
		return append(dst, "null"...), nil
	}
	out := append(dst, '{')
	sep := func() {
		if out[len(out)-1] != '{' {
			out = append(out, ',')
		}
	}
	var err error
	if len(s.Items) > 0 {
		out = append(out, `"items":[`...)
		for i := range s.Items {
			if i > 0 {
				out = append(out, ',')
			}
			if out, err = s.Items[i].appendJSON(out); err != nil {
				return dst, err
			}
		}
		out = append(out, ']')
	}
	if len(s.Purse) > 0 {
		sep()
		out, _ = jsonappend.Map(append(out, `"purse":`...), s.Purse, false, appendInt64)
	}
	if s.Next != 0 {
		sep()
		out = strconv.AppendInt(append(out, `"next":`...), s.Next, 10)
	}
	if s.Rules != nil {
		sep()
		if out, err = s.Rules.appendJSON(append(out, `"rules":`...)); err != nil {
			return dst, err
		}
	}
	return append(out, '}'), nil
}

func (e *StoredEntry) appendJSON(out []byte) ([]byte, error) {
	out = jsonappend.String(append(out, `{"uid":`...), e.UID)
	if e.ID != "" {
		out = jsonappend.String(append(out, `,"id":`...), e.ID)
	}
	var err error
	if len(e.Item) > 0 {
		if out, err = jsonappend.Value(append(out, `,"item":`...), e.Item); err != nil {
			return out, err
		}
	}
	out = strconv.AppendInt(append(out, `,"qty":`...), e.Qty, 10)
	if e.Equipped {
		out = append(out, `,"equipped":true`...)
	}
	if len(e.States) > 0 {
		out, _ = jsonappend.Map(append(out, `,"states":`...), e.States, false, appendBool)
	}
	if len(e.GM) > 0 {
		out, _ = jsonappend.Map(append(out, `,"gm":`...), e.GM, false, appendBool)
	}
	if e.In != "" {
		out = jsonappend.String(append(out, `,"in":`...), e.In)
	}
	if e.Charges != 0 {
		out = strconv.AppendInt(append(out, `,"charges":`...), e.Charges, 10)
	}
	if e.Fill != 0 {
		if out, err = jsonappend.Float(append(out, `,"fill":`...), e.Fill); err != nil {
			return out, err
		}
	}
	if len(e.Out) > 0 {
		out = append(out, `,"out":[`...)
		for i, n := range e.Out {
			if i > 0 {
				out = append(out, ',')
			}
			out = jsonappend.Int(out, n)
		}
		out = append(out, ']')
	}
	return append(out, '}'), nil
}

func appendInt64(dst []byte, n int64) ([]byte, error) { return strconv.AppendInt(dst, n, 10), nil }

func appendBool(dst []byte, b bool) ([]byte, error) { return strconv.AppendBool(dst, b), nil }
