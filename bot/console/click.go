package console

import (
	"context"
	"fmt"
	"strings"

	"sheetkeeper/bot"
)

// click runs `!click N LABEL [values…] [by:NAME]`: a button labelled LABEL, or a select
// menu whose placeholder is LABEL (or just "menu" when the answer has one), on the answer
// of event N as it stands now. Values choose a menu's options by value or label. The
// click is by event N's author unless by:NAME says otherwise; an ephemeral answer can be
// clicked only by the one who sees it.
func (c *Console) click(ctx context.Context, ev *Event, rec *record, rest string) error {
	toks, err := tokenize(rest)
	if err != nil {
		return err
	}
	user := ""
	var words []token
	for _, t := range toks {
		if strings.EqualFold(t.key, "by") {
			user = t.value
			continue
		}
		words = append(words, t)
	}
	if len(words) < 2 {
		return fmt.Errorf("write !click N LABEL [values…]")
	}
	target, err := c.event(words[0].value)
	if err != nil {
		return err
	}
	if user == "" {
		user = target.author
	}
	ev.Author, ev.Channel, rec.channel = user, target.channel, target.channel
	sh, button, sel, values, err := findComponent(target, words[1:])
	if err != nil {
		return fmt.Errorf("event %s: %v", words[0].value, err)
	}
	if sh.resp.Ephemeral && user != sh.user {
		return fmt.Errorf("event %s's answer is seen only by %s", words[0].value, sh.user)
	}
	comp := bot.Component{User: bot.User{ID: user, Name: user}, ChannelID: target.channel, MessageID: sh.id}
	if button != nil {
		if len(values) > 0 {
			return fmt.Errorf("a button takes no values: %s", strings.Join(values, " "))
		}
		if button.Disabled {
			return fmt.Errorf("the button [%s] is disabled", button.Label)
		}
		comp.CustomID = button.CustomID
	} else {
		chosen, err := choose(sel, values)
		if err != nil {
			return err
		}
		comp.CustomID, comp.Values = sel.CustomID, chosen
	}
	resp := c.core.OnComponent(ctx, comp)
	if c.posted != nil {
		defer func() { c.actions(ctx, ev, c.posted()) }()
	}
	if resp.Update {
		// The answer that carried the component now shows resp; the click's own
		// number names it too, so the next click may say either.
		resp.Ephemeral = sh.resp.Ephemeral
		sh.resp = resp
		rec.shown = append(rec.shown, sh)
		ev.Posts = append(ev.Posts, responsePosts(KindUpdate, sh.event, ev.Channel, resp)...)
		return nil
	}
	c.respond(ev, rec, user, resp)
	return nil
}

// findComponent finds the button or menu the words name, in the newest answer of the
// event that has it; the words after the label are values.
func findComponent(target *record, words []token) (*shown, *bot.Button, *bot.Select, []string, error) {
	var labels []string
	for i := len(target.shown) - 1; i >= 0; i-- {
		sh := target.shown[i]
		var menus []*bot.Select
		for r := range sh.resp.Components {
			row := &sh.resp.Components[r]
			if row.Select != nil {
				menus = append(menus, row.Select)
			}
		}
		for n := len(words); n > 0; n-- {
			label := joinValues(words[:n])
			for r := range sh.resp.Components {
				row := &sh.resp.Components[r]
				for b := range row.Buttons {
					if strings.EqualFold(row.Buttons[b].Label, label) {
						return sh, &row.Buttons[b], nil, values(words[n:]), nil
					}
				}
				if row.Select != nil && row.Select.Placeholder != "" && strings.EqualFold(row.Select.Placeholder, label) {
					return sh, nil, row.Select, values(words[n:]), nil
				}
			}
			if n == 1 && len(menus) == 1 && (strings.EqualFold(label, "menu") || strings.EqualFold(label, "select")) {
				return sh, nil, menus[0], values(words[1:]), nil
			}
		}
		for _, row := range sh.resp.Components {
			for _, b := range row.Buttons {
				labels = append(labels, "["+b.Label+"]")
			}
			if row.Select != nil {
				labels = append(labels, "menu <"+row.Select.Placeholder+">")
			}
		}
	}
	if len(labels) == 0 {
		return nil, nil, nil, nil, fmt.Errorf("its answer has nothing to click")
	}
	return nil, nil, nil, nil, fmt.Errorf("nothing labelled %q; there is %s", joinValues(words), strings.Join(labels, ", "))
}

// choose maps the words given for a menu to its option values.
func choose(sel *bot.Select, words []string) ([]string, error) {
	var out []string
	for _, w := range words {
		found := ""
		for _, o := range sel.Options {
			if o.Value == w {
				found = o.Value
				break
			}
		}
		if found == "" {
			for _, o := range sel.Options {
				if strings.EqualFold(o.Label, w) {
					found = o.Value
					break
				}
			}
		}
		if found == "" {
			return nil, fmt.Errorf("the menu <%s> has no option %q", sel.Placeholder, w)
		}
		out = append(out, found)
	}
	lo, hi := sel.MinValues, sel.MaxValues
	if hi == 0 {
		hi = 1
	}
	if len(out) < lo || len(out) > hi {
		return nil, fmt.Errorf("the menu <%s> takes %d to %d choices, not %d", sel.Placeholder, lo, hi, len(out))
	}
	return out, nil
}

func joinValues(ts []token) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.value
	}
	return strings.Join(s, " ")
}

func values(ts []token) []string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.value
	}
	return s
}

// complete runs `!complete name: /command options…`: what autocomplete offers for the
// last option given, as Discord asks while the user types it.
func (c *Console) complete(ctx context.Context, ev *Event, rest string) error {
	m := speaker.FindStringSubmatch(rest)
	if m == nil || m[2] != "" {
		return fmt.Errorf("write !complete name: /command option:partial")
	}
	user, text := m[1], strings.TrimSpace(m[3])
	ev.Author = user
	cmd, ok := strings.CutPrefix(text, "/")
	if !ok {
		return fmt.Errorf("write !complete name: /command option:partial")
	}
	toks, err := tokenize(cmd)
	if err != nil {
		return err
	}
	spec, opts, err := readOptions(c.commands(), toks)
	if err != nil {
		return err
	}
	if len(opts) == 0 {
		return fmt.Errorf("give the option being typed last, like entry:Fi")
	}
	focused := opts[len(opts)-1].Name
	if o, _ := optionSpec(spec, focused); !o.Autocomplete {
		return fmt.Errorf("/%s %s: does not autocomplete", spec.Name, focused)
	}
	choices := c.core.OnAutocomplete(ctx, bot.Autocomplete{
		Command: spec.Name, Options: opts, Focused: focused,
		User: bot.User{ID: user, Name: user}, ChannelID: c.channel,
	})
	p := Post{Kind: KindChoices, Choices: []string{}}
	for _, ch := range choices {
		s := ch.Name
		if ch.Value != ch.Name {
			s += " → " + ch.Value
		}
		p.Choices = append(p.Choices, s)
	}
	ev.Posts = append(ev.Posts, p)
	return nil
}
