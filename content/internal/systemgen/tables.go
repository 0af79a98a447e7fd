package main

import (
	"fmt"
	"strconv"
	"strings"

	"sheetkeeper/inventory"
)

// tables are the SRD's roll tables that pick one of a magic item's variants (which
// horn of Valhalla, which feather token): a table in the parent item's data whose first
// column is a die and whose every row names exactly one variant. The parent's other
// tables (the creatures a bag of tricks pulls out, an iron flask's contents) name no
// catalog item and are left out. One entry is written per face, so a d100 row of 01-40
// is forty entries.
func (d *srd) tables() ([]inventory.Table, error) {
	names := map[string]string{}
	for _, m := range d.magic {
		names[m.Index] = m.Name
	}
	var out []inventory.Table
	for _, m := range d.magic {
		if len(m.Variants) == 0 {
			continue
		}
		die, rows := dieTable(m.Desc)
		if die == "" {
			continue
		}
		t := inventory.Table{ID: m.Index, Name: m.Name, Die: die, Book: "SRD 5.1"}
		ok := true
		for _, r := range rows {
			id := variantNamed(m.Variants, names, r.name)
			if id == "" {
				ok = false
				break
			}
			for roll := r.lo; roll <= r.hi; roll++ {
				t.Entries = append(t.Entries, inventory.TableEntry{Roll: roll, ID: id})
			}
		}
		if !ok {
			continue
		}
		if _, sides, _ := strings.Cut(die, "d"); strconv.Itoa(len(t.Entries)) != sides {
			return nil, fmt.Errorf("table %s: %d faces of a %s", m.Index, len(t.Entries), die)
		}
		out = append(out, t)
	}
	return out, nil
}

type row struct {
	lo, hi int
	name   string
}

// dieTable reads the first markdown table of an item's data whose header's first cell
// is a die (| d100 | Horn Type | …): the die and each row's face range and second cell.
// A row it cannot read ends the table with none.
func dieTable(desc []string) (string, []row) {
	die := ""
	var rows []row
	for _, line := range desc {
		cells := strings.Split(strings.Trim(line, "| "), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		switch {
		case !strings.HasPrefix(line, "|") || len(cells) < 2:
			if die != "" {
				return die, rows
			}
		case die == "" && strings.HasPrefix(cells[0], "d"):
			if _, err := strconv.Atoi(cells[0][1:]); err == nil {
				die = cells[0]
			}
		case die != "" && strings.HasPrefix(cells[0], "---"):
		case die != "":
			lo, hi, ok := faces(cells[0])
			if !ok {
				return "", nil
			}
			rows = append(rows, row{lo, hi, cells[1]})
		}
	}
	return die, rows
}

// faces reads "01-40", "91-00" (00 is 100) or "65".
func faces(s string) (lo, hi int, ok bool) {
	a, b, isRange := strings.Cut(s, "-")
	if !isRange {
		b = a
	}
	n := func(x string) (int, bool) {
		if x == "00" {
			return 100, true
		}
		v, err := strconv.Atoi(x)
		return v, err == nil && v > 0
	}
	lo, ok1 := n(a)
	hi, ok2 := n(b)
	return lo, hi, ok1 && ok2 && lo <= hi
}

// variantNamed returns the one variant whose name contains name, or "".
func variantNamed(variants []ref, names map[string]string, name string) string {
	found := ""
	for _, v := range variants {
		if strings.Contains(strings.ToLower(names[v.Index]), strings.ToLower(name)) {
			if found != "" {
				return ""
			}
			found = v.Index
		}
	}
	return found
}
