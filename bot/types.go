package bot

import (
	"io/fs"
	"time"
)

// User is whoever caused an event. For a message posted by a webhook or another bot,
// WebhookID or Bot says so; a campaign's GM list may name such authors.
type User struct {
	ID        string
	Name      string
	Roles     []string // role ids in the guild, for GM lists that name a role
	Bot       bool
	WebhookID string
	// CanManageGuild says the user may manage the server the event came from (Discord's
	// Manage Server permission, as the interaction reports it), which lets them install
	// rulesets there (see tenancy.go). The console's user always may: the console is
	// its operator's.
	CanManageGuild bool
}

// Message is a message created or edited in a channel.
type Message struct {
	ChannelID string
	GuildID   string
	ID        string
	Author    User
	Content   string
	// ReplyTo is the id of the message this one answers, if any: a command without
	// who= is for that message author's card.
	ReplyTo string
	// ReplyToAuthor is the author id of that message, when the front end knows it
	// (Discord delivers the referenced message with a reply; the console knows event N's
	// author). A GM tag without who= is for that player's card.
	ReplyToAuthor string
	// Sent is when the message was first posted, when the front end knows it (Discord
	// gives it with every create and update; zero when unknown). An edit of a message
	// never applied counts as the message itself, its create still on the way, only
	// when Sent is known, recent and no earlier than the campaign (see lateCreate).
	Sent time.Time
}

// Deletion is a message deleted from a channel.
type Deletion struct {
	ChannelID string
	ID        string
}

// Command is one slash command invocation. Name is the full path, sub-commands joined
// by spaces ("campaign create", "character row add").
type Command struct {
	Name      string
	Options   []Option
	User      User
	ChannelID string
	GuildID   string
}

// Option is one named option of a command. Attachments arrive as bytes (Discord) or
// as a file or folder (console).
type Option struct {
	Name       string
	Value      string
	Attachment *Attachment
}

// Attachment is a file given to a command: a ruleset .json, a package .zip, or (from the
// console) a package folder.
type Attachment struct {
	Name string
	Data []byte
	// Folder is a folder on disk (the console's, the CLI's), read through an os.Root's
	// FS: it refuses a path or link leading outside the folder, which an os.DirFS follows.
	Folder fs.FS
}

// Component is a click on a button or a choice in a select menu of an earlier response.
type Component struct {
	CustomID  string
	Values    []string
	User      User
	ChannelID string
	// GuildID is the server the click came from ("" in the console): a library card's
	// ruleset resolves in it, as for a command.
	GuildID   string
	MessageID string
}

// Autocomplete asks for choices for the focused option of a command being typed.
type Autocomplete struct {
	Command   string
	Options   []Option
	Focused   string
	User      User
	ChannelID string
	GuildID   string
}

// Choice is one autocomplete suggestion.
type Choice struct {
	Name  string // what the user sees (≤ 100 characters)
	Value string // what the option receives (≤ 100 characters)
}

// Response is a command's or component's answer, as data: front ends render it.
type Response struct {
	Content    string
	Embeds     []Embed
	Components []Row
	// Ephemeral responses are seen only by the user who asked.
	Ephemeral bool
	// Update, for a component, replaces the message the component was on instead of
	// answering with a new one.
	Update bool
	// Files are attachments to send with the response (an exported ruleset).
	Files []File
	Posts []Action // posts (Kind Post, ChannelID set) to send after the answer, e.g. notices in other channels
}

// File is an attachment the bot sends.
type File struct {
	Name string
	Data []byte
}

// Embed is a compact card of information.
type Embed struct {
	Title       string
	Description string
	Color       int
	Fields      []EmbedField
	Footer      string
}

// EmbedField is one named value of an embed.
type EmbedField struct {
	Name   string
	Value  string
	Inline bool
}

// Row is one row of components: buttons, or one select menu.
type Row struct {
	Buttons []Button
	Select  *Select
}

// Button is a clickable button; its CustomID comes back in a Component.
type Button struct {
	CustomID string
	Label    string
	Style    string // primary, secondary, success, danger
	Disabled bool
}

// Select is a menu of options; the chosen values come back in a Component.
type Select struct {
	CustomID    string
	Placeholder string
	Options     []SelectOption
	MinValues   int
	MaxValues   int
}

// SelectOption is one choice of a select menu.
type SelectOption struct {
	Label       string
	Value       string
	Description string
	Default     bool
}

// Action is something the bot does in a channel on its own, in answer to a message
// event (not to a command): post the outcome of a reply, edit it, delete it, or react to
// a message whose tags were not applied.
type Action struct {
	Kind      string // post, edit, delete, react
	ChannelID string
	// MessageID is, for a post, the message it answers (a reply reference), if any; for a
	// react, the message reacted to.
	MessageID string
	// Emoji is a react's reaction, a Unicode emoji.
	Emoji string
	// Posted are the messages of the bot's own post to edit or delete: all of them, as
	// the front end reported them with Core.RecordPost (a post longer than one message
	// spans several).
	Posted []string
	// Content is the whole post: a front end splits it into as many messages as its
	// limits need.
	Content string
	Embeds  []Embed
	// Outcomes are, for the post or edit of a reply, what each of its tags did, in the
	// order Content writes them back: a front end shows them (the console's --json tags)
	// as data, without reading the post's text again.
	Outcomes []Outcome
	// ReplySeq names the reply a post or an edit answers, so the front end can report the
	// posted message ids back with Core.RecordPost (an edit may need more messages).
	ReplySeq int64
	// Components are the post's buttons (a reply's Undo or Redo), on its first message.
	Components []Row
	// DM, for a post, is the user it goes to in a direct message instead of the channel
	// (ChannelID still names the campaign it is from): inventory rules' messages, when the
	// campaign says so.
	DM string
}

// Outcome is what one tag of a reply did, in the words of its write-back.
type Outcome struct {
	// Tag is the tag written back with its outcome, brackets included: one line of the
	// post's content.
	Tag string
	// Op is the tag's op (an inventory tag's action) and Who the character it names, as
	// written back; both are empty for a tag that could not be read.
	Op, Who string
	Result  string // ok or refused
	Now     string // an applied tag's outcome summary
	Reason  string // a refused tag's reason
}

// Action kinds.
const (
	Post   = "post"
	Edit   = "edit"
	Delete = "delete"
	React  = "react"
)

// CommandSpec describes a command for registration (Discord) and parsing (console).
type CommandSpec struct {
	Name        string // full path: "campaign create"
	Description string
	Options     []OptionSpec
	// GMOnly commands are refused to anyone not on the campaign's GM list.
	GMOnly bool
}

// OptionSpec describes one option of a command.
type OptionSpec struct {
	Name         string
	Description  string
	Type         string // string, integer, boolean, user, attachment
	Required     bool
	Autocomplete bool
	Choices      []Choice
}
