package console

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
)

// RunOptions say how Run reads and prints.
type RunOptions struct {
	// JSON prints each event as one JSON line instead of the readable form.
	JSON bool
	// Prompt shows a prompt before each line (stdin is a terminal); without it the
	// readable form echoes each line under its number, so the output reads as a
	// transcript.
	Prompt bool
}

// Run reads lines from in until it ends (or ctx is done) and prints each event to out.
func (c *Console) Run(ctx context.Context, in io.Reader, out io.Writer, opts RunOptions) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	write := func(ev *Event) error {
		if opts.JSON {
			return WriteJSON(out, ev)
		}
		return WriteText(out, ev, !opts.Prompt)
	}
	if ev := c.Startup(ctx); ev != nil {
		if err := write(ev); err != nil {
			return err
		}
	}
	for {
		if opts.Prompt {
			fmt.Fprintf(out, "%s %d> ", c.channel, c.Next())
		}
		if !sc.Scan() {
			break
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		ev := c.Do(ctx, sc.Text())
		if ev == nil {
			continue
		}
		if err := write(ev); err != nil {
			return err
		}
	}
	if opts.Prompt {
		fmt.Fprintln(out)
	}
	return sc.Err()
}

// WriteJSON writes ev as one JSON line.
func WriteJSON(w io.Writer, ev *Event) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(ev)
}

// WriteText writes ev in the readable form: the line (when echo is set), then each of the
// bot's answers indented under it — content as posted, embeds as boxed text, buttons as
// [Label], menus as <Placeholder: options>.
func WriteText(w io.Writer, ev *Event, echo bool) error {
	var b bytes.Buffer
	if echo && ev.Kind != KindStartup {
		fmt.Fprintf(&b, "%d> %s\n", ev.N, ev.Line)
	}
	switch {
	case ev.Error != "":
	case ev.Kind == KindChannel:
		fmt.Fprintf(&b, "  (now in #%s)\n", ev.Channel)
	case ev.Kind == KindClock:
		fmt.Fprintf(&b, "  (the clock reads %s)\n", ev.Clock.Format(time.RFC3339))
	}
	for _, p := range ev.Posts {
		writePost(&b, p)
	}
	if ev.Error != "" {
		fmt.Fprintf(&b, "  error: %s\n", ev.Error)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func writePost(b *bytes.Buffer, p Post) {
	where := ""
	if p.Channel != "" {
		where = " in #" + p.Channel
	}
	of := ""
	switch {
	case p.Of > 0:
		of = fmt.Sprintf(" of event %d", p.Of)
	case p.Message != "":
		of = " " + p.Message
	}
	switch p.Kind {
	case KindHelp:
		indent(b, "  ", p.Content)
		return
	case KindChoices:
		if len(p.Choices) == 0 {
			b.WriteString("  (no choices)\n")
		}
		for _, c := range p.Choices {
			fmt.Fprintf(b, "  • %s\n", c)
		}
		return
	case "delete":
		fmt.Fprintf(b, "  bot deletes its post%s%s\n", of, where)
		return
	case KindReaction:
		fmt.Fprintf(b, "  bot reacts %s to the message%s%s\n", p.Content, of, where)
		return
	case "edit":
		fmt.Fprintf(b, "  bot edits its post%s%s:\n", of, where)
	case KindUpdate:
		fmt.Fprintf(b, "  bot updates its answer%s:\n", of)
	default:
		private := ""
		if p.Ephemeral {
			private = " (only you see this)"
		}
		fmt.Fprintf(b, "  bot%s%s:\n", where, private)
	}
	if p.JSON != nil {
		var pretty bytes.Buffer
		if json.Indent(&pretty, p.JSON, "", "  ") == nil {
			indent(b, "    ", pretty.String())
		}
	}
	indent(b, "    ", p.Content)
	for _, e := range p.Embeds {
		if e.Title != "" {
			fmt.Fprintf(b, "    ┌ %s\n", e.Title)
		} else {
			b.WriteString("    ┌\n")
		}
		indent(b, "    │ ", e.Description)
		for _, f := range e.Fields {
			if !strings.Contains(f.Value, "\n") {
				fmt.Fprintf(b, "    │ %s: %s\n", f.Name, f.Value)
				continue
			}
			fmt.Fprintf(b, "    │ %s:\n", f.Name)
			indent(b, "    │   ", f.Value)
		}
		if e.Footer != "" {
			indent(b, "    └ ", e.Footer)
		} else {
			b.WriteString("    └\n")
		}
	}
	if len(p.Components) > 0 {
		fmt.Fprintf(b, "    %s\n", strings.Join(p.Components, " "))
	}
	for _, f := range p.Files {
		switch {
		case f.Written:
			fmt.Fprintf(b, "    file %s (%d bytes), written\n", f.Name, f.Bytes)
		case f.NotWritten != "":
			fmt.Fprintf(b, "    file %s (%d bytes), not written: %s\n", f.Name, f.Bytes, f.NotWritten)
		default:
			fmt.Fprintf(b, "    file %s (%d bytes)\n", f.Name, f.Bytes)
		}
	}
}

// indent writes s line by line, each line after prefix; nothing for an empty s.
func indent(b *bytes.Buffer, prefix, s string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	for _, line := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(strings.TrimRight(prefix+line, " "))
		b.WriteByte('\n')
	}
}
