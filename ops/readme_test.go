package ops

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// TestReadmeMetricsTable: the README's "Operating it" table names every metric of
// NewMetrics, with its labels (in any order) and type, and no other.
func TestReadmeMetricsTable(t *testing.T) {
	raw, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `(sheetkeeper_[a-z_]+)(?:\\{([a-z_, ]+)\\})?` \\| ([a-z]+) \\|")
	documented := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(raw), -1) {
		labels := strings.Split(strings.ReplaceAll(m[2], " ", ""), ",")
		slices.Sort(labels)
		documented[m[1]] = m[3] + " " + strings.Join(labels, ",")
	}

	reg := prometheus.NewRegistry()
	m, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	// A vector shows only once it has a child.
	m.TagApplied("ok", "")
	m.CommandTook("demo", time.Millisecond)
	m.AutocompleteTook("demo", time.Millisecond)
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	registered := map[string]string{}
	for _, f := range families {
		var labels []string // Gather sorts them by name
		for _, l := range f.GetMetric()[0].GetLabel() {
			labels = append(labels, l.GetName())
		}
		registered[f.GetName()] = strings.ToLower(dto.MetricType_name[int32(f.GetType())]) + " " + strings.Join(labels, ",")
	}
	for _, name := range slices.Sorted(maps.Keys(registered)) {
		if documented[name] != registered[name] {
			t.Errorf("%s: the README says %q, NewMetrics makes %q", name, documented[name], registered[name])
		}
	}
	for name := range documented {
		if _, ok := registered[name]; !ok {
			t.Errorf("the README lists %s, which NewMetrics does not make", name)
		}
	}
}
