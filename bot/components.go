package bot

import (
	"context"
	"errors"
	"strings"
)

// OnComponent answers a click on a button or a choice in a select menu of an earlier
// response. Custom ids are "<feature>:<what>:…" and carry all the state a click needs,
// so nothing is remembered between a response and the click on it (a restart in between
// loses nothing). The refresh review's ids are described in cmd_refresh.go.
//
// Like a command's, a component's refusal is shown to the one who clicked in plain words
// and anything else is logged and shown as "Internal error"; a component this bot does
// not know (an id from an older version) says so.
func (c *Core) OnComponent(ctx context.Context, comp Component) Response {
	feature, rest, _ := strings.Cut(comp.CustomID, ":")
	var (
		resp Response
		err  error
	)
	switch feature {
	case "refresh":
		resp, err = c.refreshComponent(ctx, comp, rest)
	default:
		err = errUnknownComponent
	}
	if errors.Is(err, errUnknownComponent) {
		c.log.Debug("unknown component", "id", comp.CustomID)
		return Response{Ephemeral: true, Content: "That button is no longer in use: run the command again."}
	}
	if err != nil {
		return c.failure("component "+feature, err)
	}
	return resp
}
