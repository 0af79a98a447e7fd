package catalog

import "sheetkeeper/sheet"

// Picked returns the markers of the catalog entries card already has, with how many of
// its rows carry each, so a picker can mark them "on your sheet".
func Picked(card *sheet.Card) map[string]int {
	out := map[string]int{}
	for _, rows := range card.Build.Lists {
		for _, r := range rows {
			if m := r.Marker(); m != "" {
				out[m]++
			}
		}
	}
	return out
}

// Has reports whether card carries a row picked from entryID of catalogID.
func Has(card *sheet.Card, catalogID, entryID string) bool {
	m := sheet.Marker(catalogID, entryID)
	for _, rows := range card.Build.Lists {
		for _, r := range rows {
			if r.Marker() == m {
				return true
			}
		}
	}
	return false
}
