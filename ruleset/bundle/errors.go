package bundle

import (
	"strconv"

	"sheetkeeper/strictjson"
)

// maxProblems bounds what one refusal reports, so a hostile manifest cannot
// make a list of a million lines.
const maxProblems = 50

// problems collects problems up to maxProblems and counts the rest.
type problems struct {
	list    strictjson.Problems
	dropped int
}

func (ps *problems) add(k strictjson.Kind, path, msg string) {
	if len(ps.list) >= maxProblems {
		ps.dropped++
		return
	}
	ps.list.AddKind(k, path, msg)
}

func (ps *problems) empty() bool { return len(ps.list) == 0 }

// err returns nil when nothing was found, or the strictjson.Problems holding everything.
func (ps *problems) err() error {
	if ps.empty() {
		return nil
	}
	list := ps.list
	if ps.dropped > 0 {
		list = append(list, strictjson.Problem{Kind: ps.list[0].Kind, Msg: "and " + strconv.Itoa(ps.dropped) + " more problems"})
	}
	return list
}

// fail is a one-problem refusal.
func fail(k strictjson.Kind, path, msg string) strictjson.Problems {
	return strictjson.Problems{{Kind: k, Path: path, Msg: msg}}
}
