package inventory

import "strings"

// Gloss returns the glossary's tooltip for a property tag: the entry whose key the tag
// starts with, ignoring case ("Versatile" for "Versatile (1d10)"), the longest such key.
func (s *System) Gloss(property string) (string, bool) {
	best, text := -1, ""
	for k, v := range s.Glossary {
		if len(k) > best && len(k) <= len(property) && strings.EqualFold(property[:len(k)], k) {
			best, text = len(k), v
		}
	}
	return text, best >= 0
}

// Hue is the colour a template shows: the nearest hue of it and those it is under, else
// 0. (Parse gives a file whose templates have no hue at all one per top template.)
func (s *System) Hue(t *Template) float64 {
	for tp := range s.lineage(t) {
		if tp.Hue != nil {
			return *tp.Hue
		}
	}
	return 0
}

// giveHues gives each top template a hue of its own, spread round the wheel, when no
// template has one, as Pack Rat does on import.
func (s *System) giveHues() {
	for _, t := range s.Templates {
		if t.Hue != nil {
			return
		}
	}
	for i := range s.Templates {
		if s.Templates[i].Parent == "" {
			h := float64((210 + i*47) % 360)
			s.Templates[i].Hue = &h
		}
	}
}
