package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// render prints the lines as one aligned table. tabwriter counts runes, so "µ", "≤" and
// "×" line up.
func render(w io.Writer, lines []line) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "what\tfigure\tyardstick\tratio\tgoal\tmet?")
	for _, l := range lines {
		ratio := ""
		if l.Ratio != 0 {
			ratio = fmt.Sprintf("%.2f×", l.Ratio)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.What, l.Figure, dash(l.Yardstick), dash(ratio), dash(l.Goal), dash(l.Met))
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// renderJSON writes the lines as one indented JSON array.
func renderJSON(w io.Writer, lines []line) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(lines)
}
