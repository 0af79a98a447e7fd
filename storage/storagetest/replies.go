package storagetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"sheetkeeper/sheet"
	"sheetkeeper/storage"
)

// testReplies: a channel's replies in order, then stored under an explicit seq, out of
// order, and without a message. The steps build on each other's records.
func testReplies(t *testing.T, s storage.Store) {
	testRepliesInOrder(t, s)
	testReplyExplicitSeq(t, s)
	testRepliesOutOfOrder(t, s)
	testScheduleReply(t, s)
	testReplyDefault(t, s)
}

// testRepliesInOrder stores five replies in channel "ch" (and one in "chx") and reads
// them back every way.
func testRepliesInOrder(t *testing.T, s storage.Store) {
	var want []*storage.Reply
	update(t, s, func(tx storage.Tx) error {
		_, err := tx.LastReply("ch")
		notFound(t, "last reply of an empty channel", err)
		for i := 1; i <= 5; i++ {
			seq, err := tx.NextReplySeq("ch")
			must(err)
			if seq != int64(i) {
				t.Fatalf("seq %d, want %d", seq, i)
			}
			r := reply("ch", seq, fmt.Sprint("m", i), sheet.Change{Card: "Mira", Path: "pools.hp", Before: float64(10), After: float64(10 - i)})
			must(tx.PutReply(r))
			want = append(want, r)
		}
		// A channel whose id extends another's shares nothing with it.
		seq, err := tx.NextReplySeq("chx")
		must(err)
		if seq != 1 {
			t.Fatalf("chx starts at %d", seq)
		}
		return tx.PutReply(reply("chx", 1, "m1"))
	})
	view(t, s, func(tx storage.Tx) error {
		for _, w := range want {
			got, err := tx.Reply("ch", w.Seq)
			must(err)
			sameJSON(t, "reply", got, w)
		}
		_, err := tx.Reply("ch", 6)
		notFound(t, "reply 6", err)
		_, err = tx.Reply("nope", 1)
		notFound(t, "reply in another channel", err)
		all, err := tx.Replies("ch", 0, 0)
		must(err)
		sameJSON(t, "all replies", all, want)
		some, err := tx.Replies("ch", 2, 2)
		must(err)
		sameJSON(t, "replies after 2, at most 2", some, want[2:4])
		none, err := tx.Replies("ch", 5, 0)
		must(err)
		if len(none) != 0 {
			t.Fatalf("replies after the last: %d", len(none))
		}
		last, err := tx.LastReply("ch")
		must(err)
		sameJSON(t, "last reply", last, want[4])
		last, err = tx.LastReply("chx")
		must(err)
		if last.ChannelID != "chx" || last.Seq != 1 {
			t.Fatalf("last of chx: %+v", last)
		}
		return nil
	})
}

// A reply stored under an explicit seq moves the counter past it; an update in place
// (status, posted id) does not move it back.
func testReplyExplicitSeq(t *testing.T, s storage.Store) {
	update(t, s, func(tx storage.Tx) error {
		must(tx.PutReply(reply("ch", 9, "m9")))
		seq, err := tx.NextReplySeq("ch")
		must(err)
		if seq != 10 {
			t.Fatalf("after an explicit 9: %d", seq)
		}
		r, err := tx.Reply("ch", 2)
		must(err)
		r.Status = storage.ReplyReverted
		r.Posted = storage.PostIDs{"post2", "post2b"}
		must(tx.PutReply(r))
		seq, err = tx.NextReplySeq("ch")
		must(err)
		if seq != 11 {
			t.Fatalf("after updating reply 2: %d", seq)
		}
		got, err := tx.Reply("ch", 2)
		must(err)
		if got.Status != storage.ReplyReverted || !slices.Equal(got.Posted, []string{"post2", "post2b"}) {
			t.Fatalf("updated reply: %+v", got)
		}
		wantKind(t, "a reply of seq 0", tx.PutReply(&storage.Reply{ChannelID: "ch", Seq: 0, Status: storage.ReplyLive}), storage.Invalid)
		wantKind(t, "a reply without a channel", tx.PutReply(&storage.Reply{ChannelID: "", Seq: 1, Status: storage.ReplyLive}), storage.Invalid)
		return nil
	})
}

// Replies stored out of seq order still read in seq order: before the first, between
// two, after the last.
func testRepliesOutOfOrder(t *testing.T, s storage.Store) {
	update(t, s, func(tx storage.Tx) error {
		for _, seq := range []int64{5, 2, 9, 1, 7} {
			must(tx.PutReply(reply("order", seq, fmt.Sprint("o", seq))))
		}
		all, err := tx.Replies("order", 0, 0)
		must(err)
		var seqs []int64
		for _, r := range all {
			seqs = append(seqs, r.Seq)
		}
		if fmt.Sprint(seqs) != "[1 2 5 7 9]" {
			t.Fatalf("replies stored out of order read as %v", seqs)
		}

		some, err := tx.Replies("order", 2, 2)
		must(err)
		if len(some) != 2 || some[0].Seq != 5 || some[1].Seq != 7 {
			t.Fatalf("after 2, at most 2: %+v", some)
		}
		for _, seq := range []int64{1, 2, 5, 7, 9} {
			r, err := tx.Reply("order", seq)
			must(err)
			if r.MessageID != fmt.Sprint("o", seq) {
				t.Fatalf("reply %d: %+v", seq, r)
			}
			if r, err = tx.ReplyByMessage("order", fmt.Sprint("o", seq)); err != nil || r.Seq != seq {
				t.Fatalf("by message o%d: %+v, %v", seq, r, err)
			}
		}
		for _, seq := range []int64{3, 8, 10} {
			_, err := tx.Reply("order", seq)
			notFound(t, fmt.Sprint("reply ", seq), err)
		}
		// Read back from the newest one by one, as undoing a delete does, with a reply
		// put into the gap half way.
		for seq := int64(10); seq >= 1; seq-- {
			if seq == 4 {
				must(tx.PutReply(reply("order", 3, "o3")))
			}
			r, err := tx.Reply("order", seq)
			if seq == 3 || seq == 1 || seq == 2 || seq == 5 || seq == 7 || seq == 9 {
				if err != nil || r.Seq != seq {
					t.Fatalf("reading back, reply %d: %+v, %v", seq, r, err)
				}
			} else {
				notFound(t, fmt.Sprint("reading back, reply ", seq), err)
			}
		}
		if all, err := tx.Replies("order", 0, 0); err != nil || len(all) != 6 || all[2].Seq != 3 {
			t.Fatalf("after putting 3: %d replies, %v", len(all), err)
		}
		last, err := tx.LastReply("order")
		must(err)
		if last.Seq != 9 {
			t.Fatalf("last of out-of-order replies: %d", last.Seq)
		}
		seq, err := tx.NextReplySeq("order")
		must(err)
		if seq != 10 {
			t.Fatalf("next after out-of-order replies: %d", seq)
		}
		return nil
	})
}

// A reply recorded by a fired schedule has no message id.
func testScheduleReply(t *testing.T, s storage.Store) {
	update(t, s, func(tx storage.Tx) error {
		seq, err := tx.NextReplySeq("ch")
		must(err)
		r := reply("ch", seq, "")
		r.Source = "schedule:s1"
		must(tx.PutReply(r))
		last, err := tx.LastReply("ch")
		must(err)
		sameJSON(t, "schedule reply", last, r)
		_, err = tx.ReplyByMessage("ch", "")
		notFound(t, "reply by an empty message id", err)
		return nil
	})
}

// testReplyDefault: the card a reply's tags without who= were for is kept, for Redo.
func testReplyDefault(t *testing.T, s storage.Store) {
	update(t, s, func(tx storage.Tx) error {
		seq, err := tx.NextReplySeq("ch")
		must(err)
		r := reply("ch", seq, "m-default")
		r.Default = "Mira"
		must(tx.PutReply(r))
		got, err := tx.Reply("ch", seq)
		must(err)
		if got.Default != "Mira" {
			t.Fatalf("reply's default card %q, want Mira", got.Default)
		}
		sameJSON(t, "reply with a default card", got, r)
		return nil
	})
}

func testReplyMessageIndex(t *testing.T, s storage.Store) {
	update(t, s, func(tx storage.Tx) error {
		for _, m := range []string{"100", "200"} {
			seq, err := tx.NextReplySeq("ch")
			must(err)
			must(tx.PutReply(reply("ch", seq, m)))
		}
		return nil
	})
	view(t, s, func(tx storage.Tx) error {
		r, err := tx.ReplyByMessage("ch", "200")
		must(err)
		if r.Seq != 2 || r.MessageID != "200" {
			t.Fatalf("by message 200: %+v", r)
		}
		_, err = tx.ReplyByMessage("ch", "300")
		notFound(t, "unknown message", err)
		_, err = tx.ReplyByMessage("other", "200")
		notFound(t, "message in another channel", err)
		return nil
	})
	// A message id is applied once: another reply cannot claim it.
	err := s.Update(context.Background(), func(tx storage.Tx) error {
		seq, err := tx.NextReplySeq("ch")
		must(err)
		return tx.PutReply(reply("ch", seq, "100"))
	})
	wantKind(t, "a second reply taking message 100", err, storage.Conflict)
	view(t, s, func(tx storage.Tx) error {
		r, err := tx.ReplyByMessage("ch", "100")
		must(err)
		if r.Seq != 1 {
			t.Fatalf("message 100 now reply %d", r.Seq)
		}
		last, err := tx.LastReply("ch")
		must(err)
		if last.Seq != 2 {
			t.Fatalf("the refused reply left reply %d", last.Seq)
		}
		return nil
	})
	// A refused PutReply changes nothing, even when the function goes on and commits:
	// not a new reply, not a reply moved to a taken message id.
	update(t, s, func(tx storage.Tx) error {
		for _, r := range []*storage.Reply{reply("ch", 9, "200"), reply("ch", 1, "200"), reply("ch", 2, "100")} {
			if tx.PutReply(r) == nil {
				t.Fatalf("reply %d took message %s", r.Seq, r.MessageID)
			}
		}
		return nil
	})
	view(t, s, func(tx storage.Tx) error {
		all, err := tx.Replies("ch", 0, 0)
		must(err)
		if len(all) != 2 || all[0].MessageID != "100" || all[1].MessageID != "200" {
			t.Fatalf("after refused puts: %+v", all)
		}
		for m, seq := range map[string]int64{"100": 1, "200": 2} {
			if r, err := tx.ReplyByMessage("ch", m); err != nil || r.Seq != seq {
				t.Fatalf("message %s after refused puts: %+v, %v", m, r, err)
			}
		}
		return nil
	})
	// Re-putting a reply under a new message id moves the index.
	update(t, s, func(tx storage.Tx) error {
		r, err := tx.Reply("ch", 1)
		must(err)
		r.MessageID = "101"
		return tx.PutReply(r)
	})
	view(t, s, func(tx storage.Tx) error {
		_, err := tx.ReplyByMessage("ch", "100")
		notFound(t, "old message id", err)
		r, err := tx.ReplyByMessage("ch", "101")
		must(err)
		if r.Seq != 1 {
			t.Fatalf("message 101: reply %d", r.Seq)
		}
		return nil
	})
}
