package console

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"sheetkeeper/bot"
	"sheetkeeper/suggest"
)

// token is one word of a console line: a bare word, a quoted string, or key:value.
type token struct {
	key    string // the option name of a key:value token, as written
	value  string // the word, or the value after key:, unquoted
	raw    string // the token as written
	quoted bool   // the value was quoted
}

// closing maps each opening quote to its closing one: straight quotes, and the
// typographic ones a phone or a word processor puts in.
var closing = map[rune]rune{'"': '"', '\'': '\'', '“': '”', '‘': '’'}

// tokenize splits s into tokens at white space, keeping quoted strings whole. A double-
// quoted string reads \" and \\ as escapes; other quotes read everything up to the close.
func tokenize(s string) ([]token, error) {
	var out []token
	i := 0
	for {
		for i < len(s) {
			r, n := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsSpace(r) {
				break
			}
			i += n
		}
		if i >= len(s) {
			return out, nil
		}
		start := i
		var t token
		if r, _ := utf8.DecodeRuneInString(s[i:]); closing[r] != 0 {
			v, next, err := quoted(s, i)
			if err != nil {
				return nil, err
			}
			t.value, t.quoted, i = v, true, next
		} else {
			j := i
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if unicode.IsSpace(r) {
					break
				}
				if r == ':' && t.key == "" && isKey(s[i:j]) {
					t.key = s[i:j]
					j += n
					if q, _ := utf8.DecodeRuneInString(s[j:]); j < len(s) && closing[q] != 0 {
						v, next, err := quoted(s, j)
						if err != nil {
							return nil, err
						}
						t.value, t.quoted = v, true
						j = next
						break
					}
					i = j
					continue
				}
				j += n
			}
			if !t.quoted {
				t.value = s[i:j]
			}
			i = j
			if i < len(s) {
				if r, _ := utf8.DecodeRuneInString(s[i:]); !unicode.IsSpace(r) {
					return nil, fmt.Errorf("put a space after the quoted value in %q", s[start:])
				}
			}
		}
		t.raw = s[start:i]
		out = append(out, t)
	}
}

// quoted reads the quoted string opening at s[i] and returns its value and the offset
// after its closing quote.
func quoted(s string, i int) (string, int, error) {
	open, n := utf8.DecodeRuneInString(s[i:])
	end := closing[open]
	var b strings.Builder
	for j := i + n; j < len(s); {
		r, m := utf8.DecodeRuneInString(s[j:])
		switch {
		case r == end:
			return b.String(), j + m, nil
		case open == '"' && r == '\\' && j+1 < len(s) && (s[j+1] == '"' || s[j+1] == '\\'):
			b.WriteByte(s[j+1])
			j += 2
			continue
		}
		b.WriteRune(r)
		j += m
	}
	return "", 0, fmt.Errorf("the quote opened at %q is never closed", excerpt(s[i:]))
}

// isKey reports whether s can be an option name: a letter, then letters, digits, - or _.
func isKey(s string) bool {
	if s == "" {
		return false
	}
	for k, r := range s {
		switch {
		case r < utf8.RuneSelf && unicode.IsLetter(r):
		case k > 0 && (r == '-' || r == '_' || (r >= '0' && r <= '9')):
		default:
			return false
		}
	}
	return true
}

func excerpt(s string) string {
	if utf8.RuneCountInString(s) <= 24 {
		return s
	}
	return string([]rune(s)[:24]) + "…"
}

// parseCommand reads a slash command (text after the slash) against the bot's command
// specs, the way Discord's client would send it: the longest run of leading words that
// names a command, then its options as key:value. A value runs until the next option,
// so `name:Mira Ashdown catalog:knacks` needs no quotes; a value holding a word with a
// colon is quoted. Options are checked as Discord checks them before the bot sees the
// command: known names, required ones present, integers, booleans, choices; an
// attachment option takes a file or folder path, relative to dir.
func parseCommand(specs []bot.CommandSpec, text, dir string) (bot.CommandSpec, []bot.Option, error) {
	toks, err := tokenize(text)
	if err != nil {
		return bot.CommandSpec{}, nil, err
	}
	spec, opts, err := readOptions(specs, toks)
	if err != nil {
		return spec, nil, err
	}
	given := map[string]bool{}
	for i := range opts {
		given[opts[i].Name] = true
		o, _ := optionSpec(spec, opts[i].Name)
		if err := checkOption(spec, o, &opts[i], dir); err != nil {
			return spec, nil, err
		}
	}
	var missing []string
	for _, o := range spec.Options {
		if o.Required && !given[o.Name] {
			missing = append(missing, o.Name+":")
		}
	}
	if len(missing) > 0 {
		return spec, nil, fmt.Errorf("/%s needs %s", spec.Name, strings.Join(missing, " "))
	}
	return spec, opts, nil
}

// readOptions finds the command the tokens name and collects its options, unchecked.
func readOptions(specs []bot.CommandSpec, toks []token) (bot.CommandSpec, []bot.Option, error) {
	spec, rest, err := findSpec(specs, toks)
	if err != nil {
		return spec, nil, err
	}
	var opts []bot.Option
	byName := map[string]bool{}
	for _, t := range rest {
		if t.key != "" {
			o, ok := optionSpec(spec, t.key)
			if !ok {
				return spec, nil, fmt.Errorf("/%s has no option %s:; %s", spec.Name, t.key, optionList(spec))
			}
			if byName[o.Name] {
				return spec, nil, fmt.Errorf("/%s: option %s: is given twice", spec.Name, o.Name)
			}
			byName[o.Name] = true
			opts = append(opts, bot.Option{Name: o.Name, Value: t.value})
			continue
		}
		if len(opts) == 0 {
			return spec, nil, fmt.Errorf("/%s: %q is not an option: write name:value (%s)", spec.Name, t.raw, optionList(spec))
		}
		opts[len(opts)-1].Value += " " + t.value
	}
	return spec, opts, nil
}

// findSpec finds the command the leading bare words name, longest first.
func findSpec(specs []bot.CommandSpec, toks []token) (bot.CommandSpec, []token, error) {
	var words []string
	for _, t := range toks {
		if t.key != "" || t.quoted {
			break
		}
		words = append(words, strings.ToLower(t.value))
	}
	if len(words) == 0 {
		return bot.CommandSpec{}, nil, fmt.Errorf("a slash command starts with its name, like /sheet")
	}
	for n := len(words); n > 0; n-- {
		name := strings.Join(words[:n], " ")
		for _, s := range specs {
			if strings.EqualFold(s.Name, name) {
				return s, toks[n:], nil
			}
		}
	}
	// Say what the first word could go on with, or that it names nothing.
	var subs []string
	for _, s := range specs {
		if rest, ok := strings.CutPrefix(strings.ToLower(s.Name), words[0]+" "); ok {
			subs = append(subs, rest)
		}
	}
	if len(subs) > 0 {
		return bot.CommandSpec{}, nil, fmt.Errorf("/%s goes on with one of: %s", words[0], strings.Join(subs, ", "))
	}
	var names []string
	for _, s := range specs {
		if top, _, _ := strings.Cut(s.Name, " "); len(names) == 0 || names[len(names)-1] != "/"+top {
			names = append(names, "/"+top)
		}
	}
	// A typo is answered with the closest commands; anything else with all of them.
	if near := suggest.DidYouMean("/"+words[0], names); near != "" {
		return bot.CommandSpec{}, nil, fmt.Errorf("there is no command /%s%s", words[0], near)
	}
	return bot.CommandSpec{}, nil, fmt.Errorf("there is no command /%s; the commands are %s", words[0], strings.Join(names, ", "))
}

func optionSpec(spec bot.CommandSpec, name string) (bot.OptionSpec, bool) {
	for _, o := range spec.Options {
		if strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return bot.OptionSpec{}, false
}

func optionList(spec bot.CommandSpec) string {
	if len(spec.Options) == 0 {
		return "it takes no options"
	}
	names := make([]string, len(spec.Options))
	for i, o := range spec.Options {
		names[i] = o.Name + ":"
	}
	return "its options are " + strings.Join(names, " ")
}

// checkOption checks one option's value by its type and fills an attachment's bytes.
func checkOption(spec bot.CommandSpec, o bot.OptionSpec, opt *bot.Option, dir string) error {
	v := strings.TrimSpace(opt.Value)
	bad := func(format string, args ...any) error {
		return fmt.Errorf("/%s %s: %s", spec.Name, o.Name, fmt.Sprintf(format, args...))
	}
	switch o.Type {
	case "integer":
		if _, err := strconv.Atoi(v); err != nil {
			return bad("%q is not a whole number", v)
		}
	case "boolean":
		switch strings.ToLower(v) {
		case "true", "yes", "on":
			v = "true"
		case "false", "no", "off":
			v = "false"
		default:
			return bad("%q is not true or false", v)
		}
	case "user":
		// A user's name is their id; a pasted mention <@id> is read too.
		v = strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(v, "<@"), ">"), "!")
		v = strings.TrimPrefix(v, "@")
	case "attachment":
		a, err := attach(v, dir)
		if err != nil {
			return bad("%v", err)
		}
		opt.Attachment = a
	}
	if len(o.Choices) > 0 {
		found := false
		for _, c := range o.Choices {
			if c.Value == v || strings.EqualFold(c.Value, v) || strings.EqualFold(c.Name, v) {
				v, found = c.Value, true
				break
			}
		}
		if !found {
			names := make([]string, len(o.Choices))
			for i, c := range o.Choices {
				names[i] = c.Value
			}
			return bad("%q is not one of %s", v, strings.Join(names, ", "))
		}
	}
	opt.Value = v
	return nil
}

// maxAttachment is the largest file the console attaches: Discord's own upload limit.
const maxAttachment = 25 << 20

// attach reads a file, or opens a folder, for an attachment option. A relative path is
// relative to dir (a script's folder, or the working directory).
func attach(path, dir string) (*bot.Attachment, error) {
	if path == "" {
		return nil, fmt.Errorf("give a file or folder path")
	}
	given := path
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("no file or folder %s", given)
	}
	return Attach(path)
}

// Attach reads path as an upload's attachment, for the console and the CLI's ruleset
// import alike: a folder as a file system, read through an os.Root (an os.DirFS would
// follow links out of it; the root's finalizer closes it once the command is done with
// the attachment), a file as its bytes, at most Discord's upload limit.
func Attach(path string) (*bot.Attachment, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	name := filepath.Base(path)
	if info.IsDir() {
		root, err := os.OpenRoot(path)
		if err != nil {
			return nil, err
		}
		return &bot.Attachment{Name: name, Folder: root.FS()}, nil
	}
	if info.Size() > maxAttachment {
		return nil, fmt.Errorf("%s is %d bytes, over Discord's 25 MB upload limit", path, info.Size())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &bot.Attachment{Name: name, Data: data}, nil
}
