// Package record holds the byte encoding of the records every command writes, shared
// by the storage backends so a card or reply is the same bytes in bbolt and in etcd
// (and a copy between them needs no re-encoding).
package record

import (
	"bytes"
	"strconv"
	"sync"

	"sheetkeeper/internal/jsonappend"
	"sheetkeeper/storage"
)

// Encoding the records every command writes.
//
// A command writes a card record and a reply record, and in the bolt backend it writes
// them under the run lock, where the commands run one after another
// (storage/bolt/commit.go): the time they take is
// every other command's wait. encoding/json walks these structs by reflection
// and checks the card's hand-written build encoding a second time, so the two writers
// below produce the same bytes directly (TestEncodeMatches: byte for byte what
// json.Marshal writes, and json.Marshal's error when it fails), with jsonappend, the
// writer the card's own encoding (sheet.Card.AppendJSON) uses too. Other records go
// through json.Marshal.

// encBufs holds scratch buffers: a record is encoded into one, then copied out at its
// exact size, because the pending writes and the database (until the commit) and a
// backend's card memo (for long after) keep the bytes.
var encBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// Encode returns the bytes appendTo (AppendCard, AppendReply) writes, in a slice of
// their own.
func Encode[T any](v T, appendTo func([]byte, T) ([]byte, error)) ([]byte, error) {
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

// AppendCard appends json.Marshal(r) to dst.
func AppendCard(dst []byte, r *storage.CardRecord) ([]byte, error) {
	if r.Card == nil {
		return jsonappend.Value(dst, r)
	}
	out := jsonappend.String(append(dst, `{"ownerId":`...), r.OwnerID)
	out, err := r.Card.AppendJSON(append(out, `,"card":`...))
	if err != nil {
		return jsonappend.Value(dst, r)
	}
	if r.Inventory != nil {
		if out, err = r.Inventory.AppendJSON(append(out, `,"inventory":`...)); err != nil {
			return jsonappend.Value(dst, r)
		}
	}
	if r.KitSystem != "" {
		out = jsonappend.String(append(out, `,"kitSystem":`...), r.KitSystem)
	}
	if r.From != "" {
		out = jsonappend.String(append(out, `,"from":`...), r.From)
	}
	if out, err = jsonappend.Time(append(out, `,"updatedAt":`...), r.UpdatedAt); err != nil {
		return jsonappend.Value(dst, r)
	}
	return append(out, '}'), nil
}

// AppendReply appends json.Marshal(r) to dst.
func AppendReply(dst []byte, r *storage.Reply) ([]byte, error) {
	out := jsonappend.String(append(dst, `{"channelId":`...), r.ChannelID)
	out = strconv.AppendInt(append(out, `,"seq":`...), r.Seq, 10)
	out = jsonappend.String(append(out, `,"messageId":`...), r.MessageID)
	out = jsonappend.String(append(out, `,"authorId":`...), r.AuthorID)
	out = jsonappend.String(append(out, `,"text":`...), r.Text)
	out = jsonappend.String(append(out, `,"status":`...), r.Status)
	var err error
	if len(r.Changes) > 0 {
		out = append(out, `,"changes":[`...)
		for i, c := range r.Changes {
			if i > 0 {
				out = append(out, ',')
			}
			out = jsonappend.String(append(out, `{"card":`...), c.Card)
			out = jsonappend.String(append(out, `,"path":`...), c.Path)
			if out, err = jsonappend.Scalar(append(out, `,"before":`...), c.Before); err != nil {
				return jsonappend.Value(dst, r)
			}
			if out, err = jsonappend.Scalar(append(out, `,"after":`...), c.After); err != nil {
				return jsonappend.Value(dst, r)
			}
			out = append(out, '}')
		}
		out = append(out, ']')
	}
	if len(r.Rolls) > 0 {
		out = appendRolls(append(out, `,"rolls":`...), r.Rolls)
	}
	if len(r.Posted) > 0 {
		out = append(out, `,"posted":[`...)
		for i, id := range r.Posted {
			if i > 0 {
				out = append(out, ',')
			}
			out = jsonappend.String(out, id)
		}
		out = append(out, ']')
	}
	if r.Source != "" {
		out = jsonappend.String(append(out, `,"source":`...), r.Source)
	}
	if r.Default != "" {
		out = jsonappend.String(append(out, `,"default":`...), r.Default)
	}
	if out, err = jsonappend.Time(append(out, `,"createdAt":`...), r.CreatedAt); err != nil {
		return jsonappend.Value(dst, r)
	}
	if out, err = jsonappend.Time(append(out, `,"updatedAt":`...), r.UpdatedAt); err != nil {
		return jsonappend.Value(dst, r)
	}
	return append(out, '}'), nil
}

// appendRolls appends json.Marshal(rolls) of a non-empty list: a nil Faces is null, as
// encoding/json writes it.
func appendRolls(out []byte, rolls []storage.Roll) []byte {
	out = append(out, '[')
	for i, r := range rolls {
		if i > 0 {
			out = append(out, ',')
		}
		out = jsonappend.String(append(out, `{"tag":`...), r.Tag)
		out = append(out, `,"faces":`...)
		if r.Faces == nil {
			out = append(out, "null"...)
		} else {
			out = append(out, '[')
			for j, f := range r.Faces {
				if j > 0 {
					out = append(out, ',')
				}
				out = jsonappend.Int(out, f)
			}
			out = append(out, ']')
		}
		out = append(out, '}')
	}
	return append(out, ']')
}

// CardEncodesTo reports whether r encodes to exactly raw (a card memo's check that the
// record it keeps is the one stored).
func CardEncodesTo(r *storage.CardRecord, raw []byte) bool {
	buf := encBufs.Get().(*[]byte)
	out, err := AppendCard((*buf)[:0], r)
	same := err == nil && bytes.Equal(out, raw)
	if cap(out) <= 64<<10 {
		*buf = out[:0]
		encBufs.Put(buf)
	}
	return same
}
