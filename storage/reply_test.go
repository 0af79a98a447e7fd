package storage

import (
	"encoding/json"
	"testing"
)

// TestReplyDecodesOlderRecords: a reply stored before Default was kept decodes with no
// default card (Redo then works one out), and one with it round-trips.
func TestReplyDecodesOlderRecords(t *testing.T) {
	var r Reply
	old := `{"channelId":"ch","seq":3,"messageId":"m3","authorId":"gm","text":"x","status":"reverted","posted":"p3","createdAt":"2026-04-02T18:00:00Z","updatedAt":"2026-04-02T18:00:00Z"}`
	if err := json.Unmarshal([]byte(old), &r); err != nil {
		t.Fatal(err)
	}
	if r.Default != "" || r.Seq != 3 || r.Status != ReplyReverted || len(r.Posted) != 1 {
		t.Errorf("older reply decoded as %+v", r)
	}
	r.Default = "Mira"
	data, err := json.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	var back Reply
	if err := json.Unmarshal(data, &back); err != nil || back.Default != "Mira" {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}
