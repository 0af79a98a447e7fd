package catalog

import (
	"slices"

	"sheetkeeper/ruleset"
)

// Layers returns the campaign's layers (ids) the ruleset declares, in the ruleset's
// order. Of two layers that conflict, the one declared later is dropped, so the same
// choice always gives the same rules.
func Layers(rs *ruleset.Ruleset, ids []string) []*ruleset.Layer {
	var out []*ruleset.Layer
	for i := range rs.Layers {
		l := &rs.Layers[i]
		if !slices.Contains(ids, l.ID) {
			continue
		}
		clash := slices.ContainsFunc(out, func(o *ruleset.Layer) bool {
			return slices.Contains(o.Conflicts, l.ID) || slices.Contains(l.Conflicts, o.ID)
		})
		if !clash {
			out = append(out, l)
		}
	}
	return out
}

// Hides are the rules the active layers set to hide entries of one catalog.
type Hides []layerHide

// layerHide is one active layer's rule hiding entries of a catalog, resolved to the
// filter's position in the header.
type layerHide struct {
	layer  string
	filter int
	rule   *ruleset.LayerHide
}

// Hides lists the hide rules the layers (Layers' answer) set on c.
func (c *Catalog) Hides(layers []*ruleset.Layer) Hides {
	cat := c.Def
	var out Hides
	for _, l := range layers {
		for i := range l.Catalogs {
			lc := &l.Catalogs[i]
			if lc.ID != cat.ID {
				continue
			}
			for j := range cat.Filters {
				if cat.Filters[j].ID == lc.Hide.Filter {
					out = append(out, layerHide{layer: l.Label, filter: j, rule: &lc.Hide})
				}
			}
		}
	}
	return out
}

// hiddenBy names the layer that hides e, or "". An entry that does not set the filter a
// rule reads is never hidden by it.
func (e *Entry) hiddenBy(hides Hides) string {
	for _, h := range hides {
		v := e.values[h.filter]
		switch {
		case !v.set:
		case v.isNum && h.rule.HidesNumber(v.num):
			return h.layer
		case !v.isNum && h.rule.HidesWords(v.words):
			return h.layer
		}
	}
	return ""
}
