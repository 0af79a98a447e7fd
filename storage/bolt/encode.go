package bolt

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"sheetkeeper/storage"
)

// Encoding the records every command writes.
//
// A command writes a card record and a reply record, and it writes them under the run
// lock, where the commands run one after another (commit.go): the time they take is
// every other command's wait. encoding/json walks these structs by reflection
// and checks the card's hand-written build encoding a second time, so the two writers
// below produce the same bytes directly (TestEncodeMatches: byte for byte what
// json.Marshal writes, and json.Marshal's error when it fails). Other records go through
// json.Marshal.

// encBufs holds scratch buffers: a record is encoded into one, then copied out at its
// exact size, because the pending writes and bbolt (until the commit) and the card memo
// (for long after) keep the bytes.
var encBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// encode returns the bytes appendTo writes, in a slice of their own.
func encode[T any](v T, appendTo func([]byte, T) ([]byte, error)) ([]byte, error) {
	buf := encBufs.Get().(*[]byte)
	out, err := appendTo((*buf)[:0], v)
	var data []byte
	if err == nil {
		data = make([]byte, len(out))
		copy(data, out)
	}
	if cap(out) <= 64<<10 {
		*buf = out[:0]
		encBufs.Put(buf)
	}
	return data, err
}

// appendCardRecord appends json.Marshal(r) to dst.
func appendCardRecord(dst []byte, r *storage.CardRecord) ([]byte, error) {
	if r.Card == nil {
		return marshalInto(dst, r)
	}
	out := appendString(append(dst, `{"ownerId":`...), r.OwnerID)
	out, err := r.Card.AppendJSON(append(out, `,"card":`...))
	if err != nil {
		return marshalInto(dst, r)
	}
	if r.From != "" {
		out = appendString(append(out, `,"from":`...), r.From)
	}
	if out, err = appendTime(append(out, `,"updatedAt":`...), r.UpdatedAt); err != nil {
		return marshalInto(dst, r)
	}
	return append(out, '}'), nil
}

// appendReply appends json.Marshal(r) to dst.
func appendReply(dst []byte, r *storage.Reply) ([]byte, error) {
	out := appendString(append(dst, `{"channelId":`...), r.ChannelID)
	out = strconv.AppendInt(append(out, `,"seq":`...), r.Seq, 10)
	out = appendString(append(out, `,"messageId":`...), r.MessageID)
	out = appendString(append(out, `,"authorId":`...), r.AuthorID)
	out = appendString(append(out, `,"text":`...), r.Text)
	out = appendString(append(out, `,"status":`...), r.Status)
	var err error
	if len(r.Changes) > 0 {
		out = append(out, `,"changes":[`...)
		for i, c := range r.Changes {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendString(append(out, `{"card":`...), c.Card)
			out = appendString(append(out, `,"path":`...), c.Path)
			if out, err = appendValue(append(out, `,"before":`...), c.Before); err != nil {
				return marshalInto(dst, r)
			}
			if out, err = appendValue(append(out, `,"after":`...), c.After); err != nil {
				return marshalInto(dst, r)
			}
			out = append(out, '}')
		}
		out = append(out, ']')
	}
	if len(r.Posted) > 0 {
		out = append(out, `,"posted":[`...)
		for i, id := range r.Posted {
			if i > 0 {
				out = append(out, ',')
			}
			out = appendString(out, id)
		}
		out = append(out, ']')
	}
	if r.Source != "" {
		out = appendString(append(out, `,"source":`...), r.Source)
	}
	if out, err = appendTime(append(out, `,"createdAt":`...), r.CreatedAt); err != nil {
		return marshalInto(dst, r)
	}
	if out, err = appendTime(append(out, `,"updatedAt":`...), r.UpdatedAt); err != nil {
		return marshalInto(dst, r)
	}
	return append(out, '}'), nil
}

// marshalInto appends json.Marshal(v) to dst: the way for what the writers above do
// not handle, and for json.Marshal's exact error.
func marshalInto(dst []byte, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return dst, err
	}
	return append(dst, data...), nil
}

// appendTime writes t as time.Time's MarshalJSON does.
func appendTime(dst []byte, t time.Time) ([]byte, error) {
	out, err := t.AppendText(append(dst, '"'))
	if err != nil {
		return dst, err
	}
	return append(out, '"'), nil
}

// appendValue writes a change's value: the usual float64, string, bool and nil
// directly, anything else with encoding/json.
func appendValue(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return dst, errors.New("unsupported value") // the caller falls back to json.Marshal
		}
		return appendFloat(dst, x), nil
	case string:
		return appendString(dst, x), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	}
	return marshalInto(dst, v)
}

// appendFloat writes a finite f as encoding/json does (ES6 number formatting).
func appendFloat(dst []byte, f float64) []byte {
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
	return dst
}

const hexDigits = "0123456789abcdef"

// appendString writes s quoted and escaped exactly as encoding/json does: HTML
// characters, control bytes, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
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
