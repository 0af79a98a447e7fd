package discord

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/bot"
)

// The core names its commands by spaced paths ("campaign create", "character row add");
// Discord registers a command of at most three words as a top-level command with
// sub-command groups and sub-commands. A path that is both a command and the start of
// others ("refresh" beside "refresh update") cannot be both on Discord — a command with
// sub-commands cannot be run by itself — so the shorter one becomes the sub-command
// "show" of its group (/refresh show), and the set remembers the way back.

// standalone is the sub-command a path that also has sub-commands is registered as.
const standalone = "show"

// commandSet is the core's commands as Discord registers them, and the way back from an
// interaction's command path to the core's command name.
type commandSet struct {
	commands []*discordgo.ApplicationCommand
	names    map[string]string // Discord path ("refresh show") → core name ("refresh")
}

// coreName returns the core's name of the Discord command path (the path itself when it
// is not a renamed one).
func (cs *commandSet) coreName(path string) string {
	if n, ok := cs.names[path]; ok {
		return n
	}
	return path
}

// optionName is what Discord accepts as a command or option name: lowercase letters,
// digits, - and _, at most 32.
var optionName = regexp.MustCompile(`^[-_\p{Ll}\p{Lo}\p{N}]{1,32}$`)

type node struct {
	word     string
	spec     *bot.CommandSpec
	children []*node
}

func (n *node) child(word string) *node {
	for _, c := range n.children {
		if c.word == word {
			return c
		}
	}
	c := &node{word: word}
	n.children = append(n.children, c)
	return c
}

// buildCommands converts the core's command specs into Discord chat-input commands. It
// refuses what Discord would refuse (a path of more than three words, a bad name, more
// than 25 options), so a mistake shows in a unit test rather than at registration.
func buildCommands(specs []bot.CommandSpec) (*commandSet, error) {
	root := &node{}
	for i := range specs {
		words := strings.Fields(strings.ToLower(specs[i].Name))
		if len(words) == 0 || len(words) > 3 {
			return nil, fmt.Errorf("command %q: Discord takes one to three words", specs[i].Name)
		}
		n := root
		for _, w := range words {
			if !optionName.MatchString(w) {
				return nil, fmt.Errorf("command %q: %q is not a Discord command name", specs[i].Name, w)
			}
			n = n.child(w)
		}
		if n.spec != nil {
			return nil, fmt.Errorf("command %q is there twice", specs[i].Name)
		}
		n.spec = &specs[i]
	}
	cs := &commandSet{names: map[string]string{}}
	for _, top := range root.children {
		if err := cs.standalone(top, top.word, 0); err != nil {
			return nil, err
		}
		cmd := &discordgo.ApplicationCommand{Name: top.word, Type: discordgo.ChatApplicationCommand}
		if top.spec != nil {
			opts, err := optionsOf(top.spec)
			if err != nil {
				return nil, err
			}
			cmd.Description, cmd.Options = describe(top.spec), opts
		} else {
			cmd.Description = describeGroup(top)
			for _, sub := range top.children {
				o, err := subOf(sub)
				if err != nil {
					return nil, err
				}
				cmd.Options = append(cmd.Options, o)
			}
			if len(cmd.Options) > 25 {
				return nil, fmt.Errorf("command %q: more than 25 sub-commands", top.word)
			}
		}
		cs.commands = append(cs.commands, cmd)
	}
	if len(cs.commands) > 100 {
		return nil, fmt.Errorf("%d commands: Discord takes at most 100", len(cs.commands))
	}
	return cs, nil
}

// standalone moves the spec of every node that also has children into a "show" child,
// recording the renamed path.
func (cs *commandSet) standalone(n *node, path string, depth int) error {
	if n.spec != nil && len(n.children) > 0 {
		if depth >= 2 {
			return fmt.Errorf("command %q has sub-commands three words deep", n.spec.Name)
		}
		for _, c := range n.children {
			if c.word == standalone {
				return fmt.Errorf("command %q: both it and %q %s exist", n.spec.Name, n.spec.Name, standalone)
			}
		}
		n.children = append([]*node{{word: standalone, spec: n.spec}}, n.children...)
		cs.names[path+" "+standalone] = n.spec.Name
		n.spec = nil
	}
	for _, c := range n.children {
		if err := cs.standalone(c, path+" "+c.word, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// subOf is a sub-command (a leaf) or a sub-command group.
func subOf(n *node) (*discordgo.ApplicationCommandOption, error) {
	if n.spec != nil {
		opts, err := optionsOf(n.spec)
		if err != nil {
			return nil, err
		}
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommand,
			Name: n.word, Description: describe(n.spec), Options: opts}, nil
	}
	g := &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionSubCommandGroup,
		Name: n.word, Description: describeGroup(n)}
	for _, c := range n.children {
		if c.spec == nil {
			return nil, fmt.Errorf("command group %q: sub-commands more than three words deep", n.word)
		}
		o, err := subOf(c)
		if err != nil {
			return nil, err
		}
		g.Options = append(g.Options, o)
	}
	return g, nil
}

// optionsOf converts a command's options: typed, required ones first (Discord's rule),
// autocomplete where the core completes them, fixed choices where it lists them.
func optionsOf(spec *bot.CommandSpec) ([]*discordgo.ApplicationCommandOption, error) {
	if len(spec.Options) > 25 {
		return nil, fmt.Errorf("command %q: more than 25 options", spec.Name)
	}
	var out []*discordgo.ApplicationCommandOption
	for _, o := range spec.Options {
		name := strings.ToLower(o.Name)
		if !optionName.MatchString(name) {
			return nil, fmt.Errorf("command %q: option %q is not a Discord option name", spec.Name, o.Name)
		}
		d := &discordgo.ApplicationCommandOption{
			Type:        optionType(o.Type),
			Name:        name,
			Description: clip(orDefault(o.Description, "The "+strings.ReplaceAll(name, "_", " ")), 100),
			Required:    o.Required,
		}
		for _, c := range o.Choices {
			if len(d.Choices) == 25 {
				break
			}
			d.Choices = append(d.Choices, &discordgo.ApplicationCommandOptionChoice{Name: clip(c.Name, 100), Value: clip(c.Value, 100)})
		}
		d.Autocomplete = o.Autocomplete && len(d.Choices) == 0
		out = append(out, d)
	}
	slices.SortStableFunc(out, func(a, b *discordgo.ApplicationCommandOption) int {
		switch {
		case a.Required == b.Required:
			return 0
		case a.Required:
			return -1
		}
		return 1
	})
	return out, nil
}

func optionType(t string) discordgo.ApplicationCommandOptionType {
	switch t {
	case "integer":
		return discordgo.ApplicationCommandOptionInteger
	case "boolean":
		return discordgo.ApplicationCommandOptionBoolean
	case "user":
		return discordgo.ApplicationCommandOptionUser
	case "attachment":
		return discordgo.ApplicationCommandOptionAttachment
	case "number":
		return discordgo.ApplicationCommandOptionNumber
	}
	return discordgo.ApplicationCommandOptionString
}

func describe(spec *bot.CommandSpec) string {
	return clip(orDefault(spec.Description, "/"+spec.Name), 100)
}

// describeGroup describes a command that only holds sub-commands by what they are:
// "Campaign commands: create, gm add, gm remove, show, upgrade".
func describeGroup(n *node) string {
	var subs []string
	var walk func(n *node, prefix string)
	walk = func(n *node, prefix string) {
		for _, c := range n.children {
			if c.spec != nil {
				subs = append(subs, prefix+c.word)
			}
			walk(c, prefix+c.word+" ")
		}
	}
	walk(n, "")
	r, size := utf8.DecodeRuneInString(n.word)
	word := string(unicode.ToUpper(r)) + n.word[size:]
	return clip(word+" commands: "+strings.Join(subs, ", "), 100)
}

func orDefault(s, def string) string {
	if s = strings.TrimSpace(s); s != "" {
		return s
	}
	return def
}

// invocation reads the command path and the options of a command or autocomplete
// interaction: sub-command groups and sub-commands are walked down into the path.
func invocation(data discordgo.ApplicationCommandInteractionData) (string, []*discordgo.ApplicationCommandInteractionDataOption) {
	path, opts := strings.ToLower(data.Name), data.Options
	for len(opts) == 1 && opts[0] != nil && (opts[0].Type == discordgo.ApplicationCommandOptionSubCommand ||
		opts[0].Type == discordgo.ApplicationCommandOptionSubCommandGroup) {
		path += " " + strings.ToLower(opts[0].Name)
		opts = opts[0].Options
	}
	return path, opts
}

// optionValue is an option's value as the core reads it: text, an integer or number in
// decimal, true or false, a user's id. It never panics on a value of the wrong type (an
// integer being typed arrives as text in an autocomplete).
func optionValue(o *discordgo.ApplicationCommandInteractionDataOption) string {
	switch v := o.Value.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return fmt.Sprint(o.Value)
}
