package sheet

import (
	"maps"
	"strings"

	"sheetkeeper/parser"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
)

// Options are what the bot knows about one request beyond the tag.
type Options struct {
	// Default names the card a command without who= is for: the author's card of the
	// message the reply answers, else the campaign's only player card. "" refuses such a
	// command who-required.
	Default string
	// Party are the cards who="party" applies to, each on its own; nil means every card
	// passed to Apply.
	Party []*Card
	// Catalogs is where use and advance find the catalog entries a card's rows came from
	// (engine 2); nil finds none.
	Catalogs Entries
}

// CardResult is what one request did to one card.
type CardResult struct {
	Card    string
	Outcome Outcome
	Changes []Change
}

// Result is what one request did: its outcome for the tag's write-back (for who="party"
// every member's summary joined by "; ") and, per card it reached, the card's own
// outcome and changes.
type Result struct {
	Outcome Outcome
	Cards   []CardResult
}

// Changes returns every change the request made, card by card.
func (r Result) Changes() []Change {
	var out []Change
	for _, c := range r.Cards {
		out = append(out, c.Changes...)
	}
	return out
}

// Op is one operation running on one card: the working copy it may change freely (it
// replaces the card only when the handler succeeds), the sheet evaluated on it before the
// operation, and the request.
type Op struct {
	Rules *ruleset.Ruleset
	// Card is the working copy. Name is the real card's.
	Card *Card
	// Values is Card evaluated before the operation; Live is its live state. A live-only
	// op (opKind liveOnly) reads only Live, so its Values are the build's numbers without the
	// skill and save maps (see evaluateLive).
	Values *Values
	Req    parser.Tag
	Opts   *Options
	// Outcome may be filled beyond Now by a handler (Level, Targets for use).
	Outcome Outcome
	// BuildChanged must be set by a handler that changes the build, so the build is
	// diffed too.
	BuildChanged bool

	ix *index
}

// Handler applies one op to op.Card and returns its `now`, or a refusal (a
// *refusal.Error). A refused handler may leave op.Card in any state: it is discarded.
type Handler func(op *Op) (now string, err error)

// opSpec is one sheet op in the dispatch table: its handler, what it reads and changes
// (opKind), and whether its now is kept whole.
type opSpec struct {
	handler Handler
	kind    opKind
	// wholeNow keeps the op's now as its handler says it (the write-back still caps it at
	// parser.MaxNow). Every other op is one Marinara's applyRulesetSheetOp applies, whose
	// done() cuts its now to maxOpNow; use is planned by planRulesetUse instead and its now
	// written from the pools paid, and advance is the seed's own op.
	wholeNow bool
}

// maxOpNow is where Marinara's done() cuts an op's now (MAX_NOW_LENGTH, in UTF-16 code
// units), before the tag writer's own cap.
const maxOpNow = 120

// opKind is what an op reads and changes, which decides what its working copy and its
// Values cost: a reply's tags are mostly live-only, and copying a build or working out
// its skills for an op that reads neither was most of such a tag's cost.
type opKind int

const (
	// liveOnly: the op reads and changes only the live state. Its working copy shares
	// the build with the card, read-only, and its Values are evaluateLive's.
	liveOnly opKind = iota
	// readsSheet: the op may read any number of the sheet but changes only the live
	// state (use and cast, whose level may read a skill). Its working copy shares the
	// build, and its Values are Evaluate's with the skill and save maps left to be worked
	// out when first asked for (Ref, Modifier): the build they read cannot change under
	// them.
	readsSheet
	// changesBuild: the op may change the build (setting Op.BuildChanged). It gets a full
	// copy of the card, and Values worked out whole before it changes anything.
	changesBuild
)

// ops is every sheet op by name, one static table.
var ops = map[string]opSpec{
	"spend":     {handler: opSpend, kind: liveOnly},
	"restore":   {handler: opRestore, kind: liveOnly},
	"heal":      {handler: opRestore, kind: liveOnly},
	"damage":    {handler: opDamage, kind: liveOnly},
	"temp":      {handler: opTemp, kind: liveOnly},
	"track":     {handler: opTrack, kind: liveOnly},
	"condition": {handler: opCondition, kind: liveOnly},
	"note":      {handler: opNote, kind: liveOnly},
	"state":     {handler: opState, kind: liveOnly},
	"rest":      {handler: opRest, kind: liveOnly},
	"use":       {handler: opUse, kind: readsSheet, wholeNow: true},
	"cast":      {handler: opUse, kind: readsSheet, wholeNow: true},
	"advance":   {handler: opAdvance, kind: changesBuild, wholeNow: true},
}

// Apply applies one sheet request to the card(s) it names among cards, each all or
// nothing on its own: a card the op succeeds on is replaced by its changed copy, a
// refused one is left exactly as it was. who="party" applies to every party card on its
// own and reports partial outcomes ("Mira 1450; Bram 1200; Ash refused (not-allowed)").
// Every refusal it returns names the request's op as the one that refused (Outcome.Op).
func Apply(rs *ruleset.Ruleset, cards []*Card, req parser.Tag, opts Options) Result {
	return NewApplier(rs).Apply(cards, req, opts)
}

// Applier applies a message's requests one after another on one ruleset, each exactly
// as Apply would, but works out once what a card's build yields — the ruleset's index,
// the build's numbers, and which pools, tracks and states the sheet shows with their
// maximums — instead of once per request: a reply's tags mostly move live values and
// leave builds alone, and that evaluation was most of a tag's cost. A card is known by
// its pointer; an op that changes its build (Op.BuildChanged) drops what was worked out
// for it. Anything else that changes a card between two calls must call Forget first.
// An Applier is not safe for concurrent use.
type Applier struct {
	ix    *index
	known map[*Card]*cardEval
	// builds, when set, keeps what was worked out beyond this Applier (Builds.Applier).
	builds *Builds
	// run is the last op's run, made again in place for the next: nothing an op
	// returns points into it, and its live state's slices keep their room, so a
	// message's later tags resolve the live state without allocating it again.
	run *opRun
}

// NewApplier returns an Applier for cards on rs.
func NewApplier(rs *ruleset.Ruleset) *Applier {
	return &Applier{ix: newIndex(rs), known: map[*Card]*cardEval{}}
}

// Forget drops everything worked out for the cards: call it after changing a card by
// other means than this Applier.
func (a *Applier) Forget() { clear(a.known) }

// LiveOf is card's live state as it stands: the package's LiveOf, from what a has
// worked out for card.
func (a *Applier) LiveOf(card *Card) *Resolved {
	return a.evalOf(card).frame.resolve(a.ix, &card.Live)
}

// Pool is card's pool keyed key as it stands, LiveOf(card).Pool(key), without reading
// the rest of the live state: a reply's summary reads only the pools its tags moved.
func (a *Applier) Pool(card *Card, key string) *Pool {
	return a.evalOf(card).frame.pool(key, &card.Live)
}

// Apply is the package's Apply on the Applier's ruleset.
func (a *Applier) Apply(cards []*Card, req parser.Tag, opts Options) Result {
	res := a.apply(cards, req, opts)
	op := strings.ToLower(req.Op)
	res.Outcome.refusedBy(op)
	for i := range res.Cards {
		res.Cards[i].Outcome.refusedBy(op)
	}
	return res
}

// refusedBy names op as the op that refused o, when o is a refusal naming none.
func (o *Outcome) refusedBy(op string) {
	if !o.OK() && o.Op == "" {
		o.Op = op
	}
}

// apply is Apply before its refusals are marked with the op.
func (a *Applier) apply(cards []*Card, req parser.Tag, opts Options) Result {
	if err := req.Err(); err != nil {
		return Result{Outcome: Refused(err)}
	}
	if req.Malformed {
		return Result{Outcome: Refused(refuse(refusal.Malformed, "%s", req.Detail))}
	}
	h, ok := ops[strings.ToLower(req.Op)]
	if !ok {
		return Result{Outcome: Refused(refuse(refusal.Malformed, "op %q is not a sheet op", req.Op))}
	}
	if IsParty(req.Who) {
		party := opts.Party
		if party == nil {
			party = cards
		}
		if len(party) == 0 {
			return Result{Outcome: Refused(refuse(refusal.UnknownCharacter, "the party has no characters"))}
		}
		res := Result{Cards: make([]CardResult, 0, len(party))}
		parts := make([]string, 0, len(party))
		var firstRefusal *Outcome
		anyOK := false
		for _, c := range party {
			cr := a.applyOne(c, req, h, &opts)
			res.Cards = append(res.Cards, cr)
			if cr.Outcome.OK() {
				anyOK = true
				parts = append(parts, c.Name+" "+cr.Outcome.Now)
			} else {
				parts = append(parts, c.Name+" refused ("+string(cr.Outcome.Reason)+")")
				if firstRefusal == nil {
					firstRefusal = &res.Cards[len(res.Cards)-1].Outcome
				}
			}
		}
		if anyOK {
			res.Outcome = Applied(strings.Join(parts, "; "))
		} else {
			res.Outcome = *firstRefusal
		}
		return res
	}
	var card *Card
	var err error
	switch {
	case strings.TrimSpace(req.Who) != "":
		card, err = FindCard(cards, req.Who)
	case opts.Default != "":
		card, err = FindCard(cards, opts.Default)
	default:
		err = refuse(refusal.WhoRequired, "say which character the command is for")
	}
	if err != nil {
		return Result{Outcome: Refused(err)}
	}
	cr := a.applyOne(card, req, h, &opts)
	return Result{Outcome: cr.Outcome, Cards: []CardResult{cr}}
}

// opRun is what one op runs on, made at once: the op, its working copy of the card,
// the values it reads and their live state, and its options — one allocation a tag
// rather than five.
type opRun struct {
	op     Op
	work   Card
	values Values
	live   Resolved
	opts   Options
}

// applyOne runs one handler on a working copy of card and keeps the copy only when it
// succeeds.
func (a *Applier) applyOne(card *Card, req parser.Tag, h opSpec, opts *Options) CardResult {
	run := a.nextRun(opts)
	run.work = Card{Name: card.Name, Ruleset: card.Ruleset, SheetVersion: card.SheetVersion, Build: card.Build, Live: card.Live.clone()}
	if h.kind == changesBuild {
		run.work.Build = card.Build.clone()
	}
	op := &run.op
	*op = Op{Rules: a.ix.rs, Card: &run.work, Req: req, Opts: &run.opts, ix: a.ix}
	op.Values = a.evalOf(card).values(a.ix, op.Card, h.kind, run)
	now, err := h.handler(op)
	if err != nil {
		return CardResult{Card: card.Name, Outcome: Refused(err)}
	}
	if !h.wholeNow {
		now = parser.CapUTF16(now, maxOpNow)
	}
	out := op.Outcome
	out.Result, out.Now, out.Reason, out.Bounds = parser.ResultOK, now, "", ""
	changes := diffLive(nil, card.Name, &card.Live, &op.Card.Live)
	if op.BuildChanged {
		changes = diffBuild(changes, card.Name, &card.Build, &op.Card.Build)
		delete(a.known, card)
	}
	*card = *op.Card
	return CardResult{Card: card.Name, Outcome: out, Changes: changes}
}

// nextRun is the run for the Applier's next op, with opts. It is not cleared: applyOne
// sets the op and the working copy whole, values the values and (resolveInto) every
// slice of the live state, before anything reads them.
func (a *Applier) nextRun(opts *Options) *opRun {
	if a.run == nil {
		a.run = &opRun{}
	}
	a.run.opts = *opts
	return a.run
}

// cardEval is what a card's build yields, worked out once by an Applier: the build's
// numbers as evaluateLive leaves them before the live state is read in (every live read
// 0; Live nil), and the build's live frame.
type cardEval struct {
	base  Values
	frame liveFrame
}

// evalOf is what a has worked out for card, working it out the first time.
func (a *Applier) evalOf(card *Card) *cardEval {
	if e, ok := a.known[card]; ok {
		return e
	}
	if a.builds != nil {
		if e := a.builds.lookup(card); e != nil {
			a.known[card] = e
			return e
		}
	}
	base := evaluateNumbers(a.ix, &card.Build, nil, nil, nil)
	e := &cardEval{frame: frameOf(a.ix, &card.Build, base)}
	e.base = *base
	a.known[card] = e
	if a.builds != nil {
		a.builds.keep(card, e)
	}
	return e
}

// values is the evaluation an op of kind runs on, for work (a working copy of the card e
// was worked out for, its build the same), made in run: evaluateLive's for a live-only
// op, else evaluateCard's with no items — its skill and save maps filled at once only
// for an op that changes the build, which must read them as they were. Each op gets its
// own copy: what Values works out lazily (skills, saves, caps) reads the op's live state.
func (e *cardEval) values(ix *index, work *Card, kind opKind, run *opRun) *Values {
	v := &run.values
	*v = e.base
	v.build, v.Caps = &work.Build, maps.Clone(e.base.Caps)
	if kind == changesBuild {
		v.evaluateTrained() // before Live is set, as evaluateCard's first pass
	}
	live := e.frame.resolveInto(ix, &work.Live, &run.live)
	if kind != liveOnly && ix.readsLive {
		// The second, live pass keeps the build's proficiency bonus, read before Live is
		// set as evaluateCard's first pass reads it.
		v.proficiency()
		return evaluate(ix, &work.Build, live, nil, &v.ProficiencyBonus)
	}
	v.Live = live
	return v
}
