package bolt

import (
	"reflect"
	"testing"

	"sheetkeeper/storage"
)

// TestCloneCampaignIsDeep guards cloneCampaign: every field of storage.Campaign (and of
// the structs in it) that shares memory when copied must be one cloneCampaign copies.
func TestCloneCampaignIsDeep(t *testing.T) {
	copied := map[string]bool{"Layers": true, "GMs": true, "Told": true}
	ct := reflect.TypeFor[storage.Campaign]()
	for i := range ct.NumField() {
		f := ct.Field(i)
		switch f.Type.Kind() {
		case reflect.Slice, reflect.Map, reflect.Pointer, reflect.Interface:
			if !copied[f.Name] {
				t.Errorf("Campaign.%s (%s) is not copied by cloneCampaign", f.Name, f.Type)
			}
			if f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct {
				et := f.Type.Elem()
				for j := range et.NumField() {
					if k := et.Field(j).Type.Kind(); k != reflect.String && k != reflect.Int {
						t.Errorf("Campaign.%s's %s.%s (%s) may share memory", f.Name, et.Name(), et.Field(j).Name, et.Field(j).Type)
					}
				}
			}
		case reflect.Struct:
			if f.Type.PkgPath() != "time" && f.Type.NumField() > 0 {
				for j := range f.Type.NumField() {
					if k := f.Type.Field(j).Type.Kind(); k != reflect.String && k != reflect.Int {
						t.Errorf("Campaign.%s.%s (%s) may share memory", f.Name, f.Type.Field(j).Name, f.Type.Field(j).Type)
					}
				}
			}
		}
	}
	// And cloneCampaign does copy them: every slice filled, none shared by the clone.
	var c storage.Campaign
	cv := reflect.ValueOf(&c).Elem()
	for i := range ct.NumField() {
		if f := cv.Field(i); f.Kind() == reflect.Slice {
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		}
	}
	dv := reflect.ValueOf(cloneCampaign(&c)).Elem()
	for i := range ct.NumField() {
		if f := cv.Field(i); f.Kind() == reflect.Slice && f.Pointer() == dv.Field(i).Pointer() {
			t.Errorf("cloneCampaign shares Campaign.%s", ct.Field(i).Name)
		}
	}
}

// TestCampaignMemoHandsOutCopies: changing a campaign read through the memo changes
// neither the memo nor the next read, and other bytes miss.
func TestCampaignMemoHandsOutCopies(t *testing.T) {
	var m campaignMemo
	raw := []byte(`{"channelId":"c1"}`)
	m.add("c1", raw, &storage.Campaign{ChannelID: "c1", GMs: []storage.GM{{Kind: "user", ID: "u1"}}, Told: []string{"p"}})
	raw[0] = 'x' // the memo keeps its own bytes
	got := m.lookup("c1", []byte(`{"channelId":"c1"}`))
	if got == nil || got.GMs[0].ID != "u1" {
		t.Fatalf("lookup = %+v", got)
	}
	got.GMs[0].ID, got.Told[0] = "changed", "changed"
	again := m.lookup("c1", []byte(`{"channelId":"c1"}`))
	if again.GMs[0].ID != "u1" || again.Told[0] != "p" {
		t.Fatalf("a caller's change reached the memo: %+v", again)
	}
	if m.lookup("c1", []byte(`{"channelId":"c2"}`)) != nil || m.lookup("c2", []byte(`{"channelId":"c1"}`)) != nil {
		t.Fatal("a lookup with other bytes or key hit")
	}
}
