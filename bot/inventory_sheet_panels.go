package bot

import (
	"context"
	"slices"
	"strings"
	"time"

	"sheetkeeper/inventory"
	"sheetkeeper/panel"
	"sheetkeeper/storage"
)

// A game system's panels at the table (SPEC 7, the seed's "Panels"): /inventory shows
// the inventory panels' headers and bodies under the inventory, and a GM's view of a
// character (/inventory by a GM, /gm brief) the gm-player panels' cards. A panel is
// someone else's JavaScript, so the core never runs one itself: Options.Panels does
// (panel/worker: a small pool of child processes, each under a memory cap), and whatever a
// panel does comes back as a result or an error with its kind. An error is shown where
// the panel would have been, its kind to everyone and its message to a GM, and never
// breaks the command that drew it.
//
// A panel draws; it does not play. What it asks for while drawing (PackRat.request: an
// equip, a state, a count) is not done behind the player's back from a command that
// only shows: the character's player gets a button for each request /item can play
// (panel_request.go), which plays it through the same checks as every other change;
// anyone else, and a request without one, sees it listed as not done.

// PanelRunner runs one panel job: its result, or an error whose kind panel.KindOf names
// (another error is the runner's own, a context's). (*worker.Worker).Run is one; a
// wrapped panel.Run is another, safe only for trusted panels (the built-in systems').
type PanelRunner func(ctx context.Context, j *panel.Job) (panel.Result, error)

// maxPanelEmbeds is how many panels one answer shows: a Discord message holds ten
// embeds, and the inventory itself is one.
const maxPanelEmbeds = 9

// maxPanelTime bounds all the panels one command draws together (each call has its own
// budget, panel.DefaultBudget): a brief of many characters on a system of many panels
// answers in bounded time, the panels past it shown as unavailable.
const maxPanelTime = 5 * time.Second

// panelWho is rec's character as a panel reads them beyond their inventory h: the
// system's stats read off the sheet, where it has them, the Local values the limited
// states name, and the campaign's Global values.
func (t *table) panelWho(rec *storage.CardRecord, h *inventory.Held) panel.Who {
	c := t.inv.camp
	vals := evaluate(t.rules.Ruleset, rec.Card, heldHoldings(t.inv, t.rules, t.inv.ruleset, h))
	stats := map[string]any{}
	for key := range c.System.Stats {
		if v, ok := vals.AbilityScores[key]; ok {
			stats[key] = v
		} else if v, ok := vals.Derived[key]; ok {
			stats[key] = v
		} else if v, ok := vals.Numbers[key]; ok {
			stats[key] = v
		} else if key == "prof" && vals.ProficiencyBonus != 0 {
			// Pack Rat's own systems call the proficiency bonus prof.
			stats[key] = vals.ProficiencyBonus
		}
	}
	local := map[string]float64{}
	read := t.locals(rec)
	for _, st := range c.States {
		if st.Limit == nil || st.Limit.Value == "" {
			continue
		}
		if v, ok := read(st.Limit.Value); ok {
			local[st.Limit.Value] = v
		}
	}
	// The Global values as the inventory rules read them (the system's defaults: no
	// command sets one yet). Settings stay absent ({} to the panel): a campaign stores
	// no rules settings.
	world, _ := c.World(h)
	global := make(map[string]any, len(world.Globals))
	for k, v := range world.Globals {
		global[k] = v
	}
	return panel.Who{ID: rec.OwnerID + "/" + rec.Card.Name, Name: rec.Card.Name, Stats: stats, Purse: h.Purse, Local: local, Global: global}
}

// panelResult is one panel run for one character.
type panelResult struct {
	p   inventory.Panel
	r   panel.Result
	err error
}

// panelCall is one character's panels of the slots a command wants, each a job with
// the state already built. It is built inside the store's transaction and run after it
// (runPanels): a panel is untrusted and may take its whole budget, and a bbolt read
// transaction held that long stalls every writer that must grow the file.
type panelCall struct {
	system, card string // for the log
	panels       []inventory.Panel
	jobs         []*panel.Job
}

// panelJobs is rec's panels (holdings h) of the slots wanted, in the system's order, at
// most maxPanelEmbeds; none without a runner.
func (c *Core) panelJobs(t *table, rec *storage.CardRecord, h *inventory.Held, slots ...string) panelCall {
	if c.panels == nil || t.inv == nil || h == nil {
		return panelCall{}
	}
	sys := t.inv.camp.System
	call := panelCall{system: sys.ID, card: rec.Card.Name}
	var st *panel.State
	for _, p := range sys.Panels {
		if len(call.jobs) == maxPanelEmbeds {
			break
		}
		if !slices.Contains(slots, p.Slot) {
			continue
		}
		if st == nil {
			s := panel.StateOf(t.inv.camp, t.panelWho(rec, h), h.Inv)
			st = &s
		}
		call.panels = append(call.panels, p)
		call.jobs = append(call.jobs, &panel.Job{Lib: sys.PanelLib, Panel: panel.Panel{ID: p.ID, Slot: p.Slot, Title: p.Title, HTML: p.HTML}, Glossary: sys.Glossary, State: *st})
	}
	return call
}

// runPanels runs call's jobs in order; those the context leaves no time for are its
// error.
func (c *Core) runPanels(ctx context.Context, call panelCall) []panelResult {
	var out []panelResult
	for i, j := range call.jobs {
		p := call.panels[i]
		if err := ctx.Err(); err != nil {
			out = append(out, panelResult{p: p, err: err})
			continue
		}
		r, err := c.panels(ctx, j)
		if err != nil {
			c.log.Warn("a panel could not be drawn", "system", call.system, "panel", p.ID, "card", call.card, "err", err)
		}
		out = append(out, panelResult{p: p, r: r, err: err})
	}
	return out
}

// inventoryPanelCall is what /inventory needs, read inside its transaction, to show
// rec's panels under their inventory h to viewer once it is over.
type inventoryPanelCall struct {
	camp     *inventory.Campaign
	rec      *storage.CardRecord
	h        *inventory.Held
	gm, own  bool
	purse    string
	panelRun panelCall
}

// inventoryPanelsOf is /inventory's panels for rec, ready to run: the system's
// inventory panels, and for a GM its gm-player panels too.
func (c *Core) inventoryPanelsOf(t *table, rec *storage.CardRecord, h *inventory.Held, viewer User) *inventoryPanelCall {
	ip := &inventoryPanelCall{camp: t.inv.camp, rec: rec, h: h, gm: isGM(t.camp, viewer), own: rec.OwnerID == viewer.ID,
		purse: purseWords(t.inv.camp.System.Money(), h.Purse)}
	slots := []string{panel.SlotInventory}
	if ip.gm {
		slots = append(slots, panel.SlotGMPlayer)
	}
	ip.panelRun = c.panelJobs(t, rec, h, slots...)
	return ip
}

// inventoryPanels runs ip's panels (outside any transaction) and gives the embeds
// /inventory shows under the inventory, and, for rec's player, the buttons of what the
// panels asked for.
func (c *Core) inventoryPanels(ctx context.Context, ip *inventoryPanelCall) ([]Embed, []Row) {
	ctx, cancel := context.WithTimeout(ctx, maxPanelTime)
	defer cancel()
	var out []Embed
	prs := c.runPanels(ctx, ip.panelRun)
	for _, pr := range prs {
		e := Embed{Title: panelTitle(pr.p), Color: colorOK}
		if pr.err != nil {
			e.Color, e.Description = colorPartial, panelErrorWords(pr.err, ip.gm)
			out = append(out, e)
			continue
		}
		var parts []string
		if pr.p.Slot == panel.SlotGMPlayer {
			parts = append(parts, panel.Card(pr.r))
		} else {
			parts = append(parts, panel.SummaryLine(pr.r.Summary, true, ip.purse), pr.r.Body)
		}
		parts = append(parts, requestWords(unbuttoned(ip.camp, ip.rec, ip.h, pr.r, ip.own)))
		e.Description = clipRunes(joinNonEmpty(parts, "\n"), panel.MaxBodyRunes)
		out = append(out, e)
	}
	if !ip.own {
		return out, nil
	}
	return out, requestRows(ip.camp, ip.rec, ip.h, prs)
}

// gmPlayerCards are call's gm-player panels' cards as lines of the GM brief: "Player:
// **AC** 18 · …" (an error in its place, with its kind).
func (c *Core) gmPlayerCards(ctx context.Context, call panelCall) []string {
	var out []string
	for _, pr := range c.runPanels(ctx, call) {
		var text string
		if pr.err != nil {
			text = panelErrorWords(pr.err, true)
		} else {
			text = joinNonEmpty([]string{panel.Card(pr.r), requestWords(pr.r)}, "\n")
		}
		// The brief is one code block: a panel's text must not close it.
		text = strings.ReplaceAll(text, "```", "'''")
		out = append(out, panelTitle(pr.p)+" panel: "+text)
	}
	return out
}

func panelTitle(p inventory.Panel) string {
	if p.Title != "" {
		return blockValue(p.Title)
	}
	return blockValue(p.ID)
}

// panelErrorWords says a panel could not be drawn: its kind for anyone, what stopped it
// for a GM (a player learns nothing of the system's scripts from it).
func panelErrorWords(err error, gm bool) string {
	kind := string(panel.KindOf(err))
	if kind == "" {
		kind = "unavailable"
	}
	s := "⚠️ This panel could not be drawn (" + kind + ")"
	if gm {
		s += ": " + blockValue(err.Error())
	}
	return s
}

// requestWords lists what a panel asked for while drawing, none of it done: "Not done
// (a panel only draws; /item does it): equip {"uid":"i3"}"; "" when it asked nothing.
func requestWords(r panel.Result) string {
	var asked []string
	for _, rq := range r.Requests {
		asked = append(asked, blockValue(rq.Action)+" `"+requestArgsJSON(rq)+"`")
	}
	for _, d := range r.Dropped {
		asked = append(asked, blockValue(d)+" (unreadable)")
	}
	if len(asked) == 0 {
		return ""
	}
	return "Not done (a panel only draws; /item does it): " + strings.Join(asked, ", ")
}

func joinNonEmpty(parts []string, sep string) string {
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}
