package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"sheetkeeper/refusal"
)

// Components: the buttons and select menus of a response carry all the state a click
// needs in their custom ids, so nothing is remembered between a response and the click
// on it (a restart in between loses nothing). Every custom id is written and read by the
// one codec below, and a click is routed by its id's kind to the handler its command
// file registered with router.component.
//
// The grammar of a custom id:
//
//	id   = kind *( ":" arg )
//	kind = feature ":" action          e.g. refresh:review
//
// A kind has a fixed number of arguments. Every argument but the last is free of ':';
// the last runs to the end of the id and may hold anything (a card's name). The whole id
// fits Discord's 100 characters: a builder makes room with componentKind.room. Ids made
// before the codec was written follow the same grammar, so buttons already posted still
// work.

// maxCustomID is Discord's bound on a custom id, in bytes.
const maxCustomID = 100

// errUnknownComponent answers a component id this bot did not make (or no longer
// understands): no handler has its kind.
var errUnknownComponent = errors.New("unknown component")

// errMalformedComponentID is a custom id that breaks the grammar: no action, the wrong
// number of arguments for its kind.
var errMalformedComponentID = errors.New("malformed component id")

// componentKind names one kind of custom id and says how many arguments it takes.
type componentKind struct {
	name  string // feature ":" action
	arity int
}

// encode writes an id of kind k. A wrong number of arguments, a ':' in any but the last
// or an id past maxCustomID is a bug in the builder, so it panics (a command's panic is
// answered "Internal error").
func (k componentKind) encode(args ...string) string {
	if len(args) != k.arity {
		panic(fmt.Sprintf("bot: component %s takes %d arguments, given %d", k.name, k.arity, len(args)))
	}
	for i, a := range args[:max(0, len(args)-1)] {
		if strings.Contains(a, ":") {
			panic(fmt.Sprintf("bot: component %s argument %d holds ':'", k.name, i+1))
		}
	}
	id := strings.Join(append([]string{k.name}, args...), ":")
	if len(id) > maxCustomID {
		panic(fmt.Sprintf("bot: component id of %d bytes: %q", len(id), id))
	}
	return id
}

// room is how many bytes the last argument may take after the others given.
func (k componentKind) room(leading ...string) int {
	return maxCustomID - len(k.encode(append(leading, "")...))
}

// parse reads an id of kind k back into its arguments.
func (k componentKind) parse(id string) ([]string, error) {
	rest, ok := strings.CutPrefix(id, k.name)
	if !ok {
		return nil, fmt.Errorf("%w %q: not a %s id", errMalformedComponentID, id, k.name)
	}
	if k.arity == 0 {
		if rest != "" {
			return nil, fmt.Errorf("%w %q: %s takes no arguments", errMalformedComponentID, id, k.name)
		}
		return nil, nil
	}
	rest, ok = strings.CutPrefix(rest, ":")
	if !ok {
		return nil, fmt.Errorf("%w %q: %s takes %d arguments", errMalformedComponentID, id, k.name, k.arity)
	}
	args := strings.SplitN(rest, ":", k.arity)
	if len(args) != k.arity {
		return nil, fmt.Errorf("%w %q: %s takes %d arguments, has %d", errMalformedComponentID, id, k.name, k.arity, len(args))
	}
	return args, nil
}

// kindOf is the kind an id names: its first two fields.
func kindOf(id string) (string, error) {
	feature, rest, ok := strings.Cut(id, ":")
	action, _, _ := strings.Cut(rest, ":")
	if !ok || feature == "" || action == "" {
		return "", fmt.Errorf("%w %q: no feature:action", errMalformedComponentID, id)
	}
	return feature + ":" + action, nil
}

// ComponentFunc answers a click on a component of kind; args are its id's arguments.
type ComponentFunc func(c *Core, ctx context.Context, comp Component, args []string) (Response, error)

type componentRoute struct {
	kind componentKind
	run  ComponentFunc
}

// component adds the handler of a kind of custom id. It panics on a kind added twice.
func (r *router) component(kind componentKind, run ComponentFunc) {
	if _, dup := r.components[kind.name]; dup {
		panic("bot: component " + kind.name + " registered twice")
	}
	r.components[kind.name] = componentRoute{kind: kind, run: run}
}

// OnComponent answers a click on a button or a choice in a select menu of an earlier
// response.
//
// Like a command's, a component's refusal is shown to the one who clicked in plain words
// and anything else is logged and shown as "Internal error"; a component this bot does
// not know (an id from an older version, or one that breaks the grammar) says so. A
// handler that panics is answered "Internal error", as a command's is.
func (c *Core) OnComponent(ctx context.Context, comp Component) (resp Response) {
	defer func() {
		if p := recover(); p != nil {
			resp = c.failure("component "+comp.CustomID, fmt.Errorf("panic: %v", p))
		}
	}()
	resp, kind, err := c.runComponent(ctx, comp)
	if errors.Is(err, errUnknownComponent) || errors.Is(err, errMalformedComponentID) {
		c.log.Debug("unknown component", "id", comp.CustomID, "err", err)
		return Response{Ephemeral: true, Content: "That button is no longer in use: run the command again."}
	}
	if err != nil {
		return c.failure("component "+kind, refusal.WithOp("component "+kind, err))
	}
	return resp
}

// runComponent finds the handler of comp's kind and runs it with the id's arguments.
func (c *Core) runComponent(ctx context.Context, comp Component) (Response, string, error) {
	kind, err := kindOf(comp.CustomID)
	if err != nil {
		return Response{}, "", err
	}
	route, ok := c.router.components[kind]
	if !ok {
		return Response{}, kind, fmt.Errorf("%w %q", errUnknownComponent, comp.CustomID)
	}
	args, err := route.kind.parse(comp.CustomID)
	if err != nil {
		return Response{}, kind, err
	}
	resp, err := route.run(c, ctx, comp, args)
	return resp, kind, err
}
