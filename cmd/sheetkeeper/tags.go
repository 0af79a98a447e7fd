package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"sheetkeeper/parser"
)

const tagsUsage = `usage: sheetkeeper tags < message.txt

Reads one message on standard input and prints, one JSON object per line and in order,
every [sheet: …] and [inventory: …] tag the bot would read in it:

  {"kind":"sheet","op":"spend","who":"Mira","attrs":{"pool":"hp","amount":"1"},
   "malformed":false,"reason":"","canonical":"[sheet: who=\"Mira\" op=\"spend\" …]"}

op is the canonical op (heal is restore, cast is use) or, for an inventory tag, the
action; attrs are the attributes the op reads, under canonical keys, in write-back order;
reason is "malformed" for a body that says no command and "too-many" past the 40th sheet
command; canonical is the request as the bot would write it back, without a result.
Tags inside code spans or blocks are not read, and result=, reason= and now= are ignored.
An inventory tag naming several items prints one line per item.
`

// cmdTags is `sheetkeeper tags`: what the bot would read in a message, without applying
// anything, so a GM (or a prompt author) can check what their tags say.
func cmdTags(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tags", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, tagsUsage) }
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(stdout, tagsUsage)
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sheetkeeper tags: the message is read from standard input, not %q\n", fs.Arg(0))
		return 2
	}
	text, err := io.ReadAll(stdin)
	if err != nil {
		fmt.Fprintf(stderr, "sheetkeeper tags: reading standard input: %v\n", err)
		return 1
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	for _, t := range parser.Read(string(text)).Tags {
		line := tagLine{
			Kind:      string(t.Kind),
			Op:        t.Op,
			Who:       t.Who,
			Attrs:     orderedAttrs(t.Attrs),
			Malformed: t.Malformed,
			Reason:    string(t.Reason),
			Canonical: t.Canonical(),
		}
		if err := enc.Encode(line); err != nil {
			fmt.Fprintf(stderr, "sheetkeeper tags: %v\n", err)
			return 1
		}
	}
	return 0
}

// tagLine is one line of `sheetkeeper tags` output; the field order is the output's.
type tagLine struct {
	Kind      string       `json:"kind"`
	Op        string       `json:"op"`
	Who       string       `json:"who"`
	Attrs     orderedAttrs `json:"attrs"`
	Malformed bool         `json:"malformed"`
	Reason    string       `json:"reason"`
	Canonical string       `json:"canonical"`
}

// orderedAttrs is a JSON object that keeps the attributes in write-back order, so the
// output reads like the tag it describes (a Go map would sort the keys).
type orderedAttrs []parser.Attr

func (a orderedAttrs) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	out := []byte{'{'}
	for i, kv := range a {
		if i > 0 {
			out = append(out, ',')
		}
		for j, s := range [2]string{kv.Key, kv.Value} {
			b.Reset()
			if err := enc.Encode(s); err != nil {
				return nil, err
			}
			out = append(out, bytes.TrimSuffix(b.Bytes(), []byte{'\n'})...)
			if j == 0 {
				out = append(out, ':')
			}
		}
	}
	return append(out, '}'), nil
}
