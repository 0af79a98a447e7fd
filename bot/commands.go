package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"sheetkeeper/refusal"
	"sheetkeeper/storage"
)

// The command router (SPEC 8.1).
//
// Every slash command is a route: its CommandSpec (how Discord registers it and the
// console parses it) and a CommandFunc that answers it. Each command file registers its
// own routes from an init function, so adding a command never touches this file:
//
//	func init() {
//		register(CommandSpec{Name: "pick", Description: "…", Options: []OptionSpec{…}}, (*Core).cmdPick)
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

type route struct {
	spec CommandSpec
	run  CommandFunc
}

// routes is the router's table, filled by register from init functions only and read-only
// afterwards.
var routes = map[string]route{}

// register adds a command to the router. It panics on a duplicate name: two files
// claiming one command is a programming error caught by any test.
func register(spec CommandSpec, run CommandFunc) {
	name := normalCommand(spec.Name)
	if _, dup := routes[name]; dup {
		panic("bot: command " + name + " registered twice")
	}
	spec.Name = name
	routes[name] = route{spec: spec, run: run}
}

// normalCommand is a command path as the router keys it: lowercased, single spaces.
func normalCommand(name string) string {
	return strings.ToLower(strings.Join(strings.Fields(name), " "))
}

// Commands returns every command the bot answers, sorted by name, for registration
// with Discord and for the console's parser.
func (c *Core) Commands() []CommandSpec {
	out := make([]CommandSpec, 0, len(routes))
	for _, r := range routes {
		out = append(out, r.spec)
	}
	slices.SortFunc(out, func(a, b CommandSpec) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// OnCommand answers one slash command. A handler that panics is answered "Internal
// error" (the panic is logged): one bad command never takes the bot down.
func (c *Core) OnCommand(ctx context.Context, cmd Command) (resp Response) {
	defer func() {
		if p := recover(); p != nil {
			resp = c.failure("/"+normalCommand(cmd.Name), fmt.Errorf("panic: %v", p))
		}
	}()
	r, ok := routes[normalCommand(cmd.Name)]
	if !ok {
		return Response{Content: fmt.Sprintf("There is no command /%s.", strings.TrimSpace(cmd.Name)), Ephemeral: true}
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
			return c.failure("/"+normalCommand(cmd.Name), err)
		}
	}
	resp, err := r.run(c, ctx, cmd)
	if err != nil {
		return c.failure("/"+normalCommand(cmd.Name), err)
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
		if strings.TrimSpace(cmd.Get(o.Name)) == "" {
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
