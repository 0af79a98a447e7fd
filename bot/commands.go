package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/storage"
	"sheetkeeper/suggest"
)

// The command router (SPEC 8.1).
//
// Every slash command is a route: its CommandSpec (how Discord registers it and the
// console parses it), a CommandFunc that answers it, and a completer for each option that
// autocompletes. Clicks on the buttons and menus of earlier answers are routed the same
// way, by the kind of their custom id (components.go). New builds one router per Core
// from a function in each command file, so adding a command touches its own file and,
// for a new file, one line of newRouter:
//
//	func pickCommands(r *router) {
//		r.command(CommandSpec{Name: "pick", Description: "…", Options: []OptionSpec{…}}, (*Core).cmdPick).
//			complete("entry", (*Core).pickEntryChoices)
//	}
//
//	func (c *Core) cmdPick(ctx context.Context, cmd Command) (Response, error) {
//		var resp Response
//		err := c.store.Update(ctx, func(tx storage.Tx) error { … resp = …; return nil })
//		return resp, err
//	}
//
// A CommandFunc returns what the user sees, or an error. A refusal (a *refusal.Error, or
// anything refusal.Of reads a reason from) is shown to the invoker alone, in plain words;
// any other error is logged and shown as "Internal error". A command touches the store in
// ONE Update (all or nothing), whose function decides only from what it reads in tx and
// may run more than once, so it must set its results afresh on every run.
//
// A spec with GMOnly is refused before its function runs to anyone not on the channel's
// campaign GM list (no-campaign when the channel has none). That early check reads in its
// own transaction; a function that writes on the strength of being GM checks again inside
// its Update with c.gmCampaign, so a GM removed meanwhile cannot slip through.
//
// Options are read with cmd.Get(name) (the string value, "" when absent) and
// cmd.File(name) (an attachment, or nil).

// CommandFunc answers one command; it is usually a method expression, (*Core).cmdX.
type CommandFunc func(c *Core, ctx context.Context, cmd Command) (Response, error)

// completer offers the choices for one option being typed (autocomplete.go); it only
// reads, in the request's one View.
type completer func(c *Core, tx storage.Tx, q *acQuery) ([]Choice, error)

// route is one command: its spec, its function and its options' completers by
// lowercased option name.
type route struct {
	spec      CommandSpec
	run       CommandFunc
	completes map[string]completer
}

// router holds a Core's commands by normalCommand name and its component handlers by
// kind. It is built by newRouter and only read afterwards, so it needs no lock.
type router struct {
	routes     map[string]*route
	components map[string]componentRoute
}

// newRouter builds the router of every command file.
func newRouter() *router {
	r := &router{routes: map[string]*route{}, components: map[string]componentRoute{}}
	for _, add := range []func(*router){
		campaignCommands, upgradeCommands, characterCommands, checkCommands, demoCommands, gmCommands,
		pickCommands, playCommands, refreshCommands, rulesetCommands, scheduleCommands,
		sheetCommands, inventoryCommands, itemCommands, systemCommands, replyComponents, panelRequestComponents,
		shopCommands, coinsCommands, tradeCommands, kitCommands,
	} {
		add(r)
	}
	return r
}

// command adds a command. It panics on a duplicate name: two files claiming one command
// is a programming error caught by any test. Options are copied, so specs may share them.
func (r *router) command(spec CommandSpec, run CommandFunc) *route {
	name := normalCommand(spec.Name)
	if _, dup := r.routes[name]; dup {
		panic("bot: command " + name + " registered twice")
	}
	spec.Name = name
	spec.Options = slices.Clone(spec.Options)
	for _, o := range spec.Options {
		if o.Autocomplete {
			panic("bot: /" + name + " " + o.Name + ": give its completer with complete, not Autocomplete")
		}
	}
	rt := &route{spec: spec, run: run, completes: map[string]completer{}}
	r.routes[name] = rt
	return rt
}

// complete attaches the completer of the route's option named option and marks that
// option as autocompleted. It panics when the command has no such option.
func (rt *route) complete(option string, fn completer) *route {
	for i := range rt.spec.Options {
		if o := &rt.spec.Options[i]; strings.EqualFold(o.Name, option) {
			o.Autocomplete = true
			rt.completes[strings.ToLower(o.Name)] = fn
			return rt
		}
	}
	panic("bot: /" + rt.spec.Name + " has no option " + option + " to complete")
}

// normalCommand is a command path as the router keys it: lowercased, single spaces.
func normalCommand(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), " "))
}

// Commands returns every command the bot answers, sorted by name, for registration
// with Discord and for the console's parser.
func (c *Core) Commands() []CommandSpec {
	out := make([]CommandSpec, 0, len(c.router.routes))
	for _, r := range c.router.routes {
		out = append(out, r.spec)
	}
	slices.SortFunc(out, func(a, b CommandSpec) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// noCommand is the answer to a command the router does not have: "There is no command
// /pik — did you mean /pick?", naming the closest commands (suggest.DidYouMean), or
// ending in a full stop when none is close.
func (r *router) noCommand(name string) string {
	names := make([]string, 0, len(r.routes))
	for key := range r.routes {
		names = append(names, "/"+key)
	}
	slices.Sort(names)
	typed := "/" + strings.TrimSpace(name)
	if near := suggest.DidYouMean(typed, names); near != "" {
		return "There is no command " + typed + near
	}
	return "There is no command " + typed + "."
}

// OnCommand answers one slash command. A handler that panics is answered "Internal
// error" (the panic is logged): one bad command never takes the bot down. A refusal
// names the command as the op refused ("/pick"; refusal.WithOp).
func (c *Core) OnCommand(ctx context.Context, cmd Command) (resp Response) {
	op := "/" + normalCommand(cmd.Name)
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			resp = c.failure(op, fmt.Errorf("panic: %v", p))
		}
		c.observe.CommandTook(c.commandLabel(cmd.Name), time.Since(start))
	}()
	r, ok := c.router.routes[normalCommand(cmd.Name)]
	if !ok {
		return Response{Content: c.router.noCommand(cmd.Name), Ephemeral: true}
	}
	if missing := missingOptions(r.spec, cmd); len(missing) > 0 {
		return Response{Content: fmt.Sprintf("/%s needs %s.", r.spec.Name, strings.Join(missing, ", ")), Ephemeral: true}
	}
	if r.spec.GMOnly {
		err := c.store.View(ctx, func(tx storage.Tx) error {
			_, err := c.gmCampaign(tx, cmd)
			return err
		})
		if err != nil {
			return c.failure(op, refusal.WithOp(op, err))
		}
	}
	resp, err := r.run(c, ctx, cmd)
	if err != nil {
		return c.failure(op, refusal.WithOp(op, err))
	}
	return resp
}

// missingOptions names the required options cmd leaves out ("name:", "file:").
func missingOptions(spec CommandSpec, cmd Command) []string {
	var out []string
	for _, o := range spec.Options {
		if !o.Required {
			continue
		}
		if o.Type == "attachment" {
			if cmd.File(o.Name) == nil {
				out = append(out, o.Name+":")
			}
			continue
		}
		if ruleset.FoldName(cmd.Get(o.Name)) == "" { // blank as names are read: spaces, a byte-order mark
			out = append(out, o.Name+":")
		}
	}
	return out
}

// gmCampaign loads the campaign of cmd's channel and refuses not-gm when the invoker is
// not on its GM list (no-campaign when the channel has none). Call it inside the
// command's own transaction.
func (c *Core) gmCampaign(tx storage.Tx, cmd Command) (*storage.Campaign, error) {
	camp, err := c.campaign(tx, cmd.ChannelID)
	if err != nil {
		return nil, err
	}
	if !isGM(camp, cmd.User) {
		return nil, refusal.New(refusal.NotGM, "/%s is for the campaign's GMs", normalCommand(cmd.Name))
	}
	return camp, nil
}

// channelTable opens the table of channelID's campaign (no-campaign when it has none).
// Call it inside the command's own transaction.
func (c *Core) channelTable(tx storage.Tx, channelID string) (*table, error) {
	camp, err := c.campaign(tx, channelID)
	if err != nil {
		return nil, err
	}
	return c.openTable(tx, camp)
}

// inventoryTable is channelTable for a command that needs the campaign's inventories:
// one without them is refused (noInventory, saying what is missing).
func (c *Core) inventoryTable(tx storage.Tx, channelID, missing string) (*table, error) {
	t, err := c.channelTable(tx, channelID)
	if err != nil {
		return nil, err
	}
	if t.inv == nil {
		return nil, t.noInventory(missing)
	}
	return t, nil
}

// noInventory refuses a command that needs the campaign's inventories where it has
// none, saying what is missing and why (t.invWhy), in the one wording every such
// command and a panel's button use (an inventory tag, in the story, says it in its own:
// notEnabledInventory).
func (t *table) noInventory(missing string) error {
	return refusal.New(refusal.NotEnabled, "this campaign has no inventories, so %s: %s", missing, orDefault(t.invWhy, "it names no game system and its ruleset has no items"))
}

// gmTable opens the table of this channel's campaign for a command only its GMs may use.
func (c *Core) gmTable(tx storage.Tx, cmd Command) (*table, error) {
	camp, err := c.gmCampaign(tx, cmd)
	if err != nil {
		return nil, err
	}
	return c.openTable(tx, camp)
}

// Get returns the value of the option named name ("" when it is absent). Names match
// ignoring case.
func (cmd Command) Get(name string) string {
	for _, o := range cmd.Options {
		if strings.EqualFold(o.Name, name) {
			return o.Value
		}
	}
	return ""
}

// File returns the attachment given as the option named name, or nil.
func (cmd Command) File(name string) *Attachment {
	for _, o := range cmd.Options {
		if strings.EqualFold(o.Name, name) && o.Attachment != nil {
			return o.Attachment
		}
	}
	return nil
}
