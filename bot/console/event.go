package console

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"sheetkeeper/bot"
)

// Event is one line's event and everything the bot answered, in the shape --json prints
// (SPEC 8.2): {"n","kind","author","tags","posts","error"}.
type Event struct {
	N      int    `json:"n"`
	Kind   string `json:"kind"`
	Author string `json:"author"`
	// Tags are the write-back tags of the bot's posts for a message event, as a GM model
	// reads them next turn: each with its outcome, as the core gave it (bot.Outcome).
	Tags  []Tag  `json:"tags"`
	Posts []Post `json:"posts"`
	// Error is why the line said no event (a parse error), or an internal failure.
	Error string `json:"error"`

	Line    string    `json:"-"` // the line as typed
	Channel string    `json:"-"` // the channel the event happened in
	Clock   time.Time `json:"-"` // the time a !clock set
}

// Tag is one written-back tag of a bot post.
type Tag struct {
	Tag    string `json:"tag"` // the whole tag, brackets included
	Op     string `json:"op"`  // the op (an inventory tag's action)
	Who    string `json:"who"`
	Result string `json:"result"`
	Now    string `json:"now"`
	Reason string `json:"reason"`
}

// Post is one thing the bot did in answer to an event.
type Post struct {
	// Kind is post, edit or delete (the bot's own post in the channel, for a message
	// event); reaction (the bot's reaction, Content, on a message whose tags it did not
	// apply); response (a command's or a click's answer); update (a click's answer that
	// replaced the message it was on); choices (autocomplete); help.
	Kind string `json:"kind"`
	// Of is the event whose message an edit, delete, update or reaction changes; Message
	// is the changed message's id when it was posted before this session.
	Of      int    `json:"of,omitempty"`
	Message string `json:"message,omitempty"`
	// Channel is set when the post went to another channel than the event's.
	Channel   string `json:"channel,omitempty"`
	Ephemeral bool   `json:"ephemeral,omitempty"`
	Content   string `json:"content,omitempty"`
	// JSON holds content that is one JSON object (/sheet format:json), as an object.
	JSON       json.RawMessage `json:"json,omitempty"`
	Embeds     []Embed         `json:"embeds,omitempty"`
	Components []string        `json:"components,omitempty"`
	Files      []File          `json:"files,omitempty"`
	Choices    []string        `json:"choices,omitempty"`
}

// Embed is an embed as the console shows it (colours are left out).
type Embed struct {
	Title       string  `json:"title,omitempty"`
	Description string  `json:"description,omitempty"`
	Fields      []Field `json:"fields,omitempty"`
	Footer      string  `json:"footer,omitempty"`
}

// Field is one field of an embed.
type Field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// File is a file the bot sent: its name and size, and whether the console wrote it to
// its Out folder (Written), or why it did not (NotWritten).
type File struct {
	Name       string `json:"name"`
	Bytes      int    `json:"bytes"`
	Written    bool   `json:"written,omitempty"`
	NotWritten string `json:"notWritten,omitempty"`
}

// Post kinds besides bot.Post, bot.Edit and bot.Delete.
const (
	KindResponse = "response"
	KindUpdate   = "update"
	KindChoices  = "choices"
	KindReaction = "reaction"
)

func embeds(in []bot.Embed) []Embed {
	var out []Embed
	for _, e := range in {
		x := Embed{Title: e.Title, Description: e.Description, Footer: e.Footer}
		for _, f := range e.Fields {
			x.Fields = append(x.Fields, Field{Name: f.Name, Value: f.Value})
		}
		out = append(out, x)
	}
	return out
}

// responsePosts is a command's or a click's answer as posts: one, whole (the console has
// no message limit), then the posts the core sent with it (r.Posts: notices in other
// channels), each naming its channel when it is not channel, the event's.
func responsePosts(kind string, of int, channel string, r bot.Response) []Post {
	p := Post{Kind: kind, Of: of, Ephemeral: r.Ephemeral, Content: r.Content, Embeds: embeds(r.Embeds), Components: components(r.Components)}
	if obj := jsonObject(r.Content); obj != nil {
		p.JSON, p.Content = obj, ""
	}
	for _, f := range r.Files {
		p.Files = append(p.Files, File{Name: f.Name, Bytes: len(f.Data)})
	}
	posts := []Post{p}
	for _, a := range r.Posts {
		extra := Post{Kind: a.Kind, Content: a.Content, Embeds: embeds(a.Embeds)}
		if a.ChannelID != channel {
			extra.Channel = a.ChannelID
		}
		posts = append(posts, extra)
	}
	return posts
}

// jsonObject returns content that is a single JSON object (bare, or in a ```json fence),
// compacted; else nil.
func jsonObject(content string) json.RawMessage {
	s := strings.TrimSpace(content)
	if rest, ok := strings.CutPrefix(s, "```json"); ok {
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "```"))
	}
	if !strings.HasPrefix(s, "{") || !json.Valid([]byte(s)) {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return nil
	}
	return b.Bytes()
}

// components renders components as the console shows them: a button as [Label], a select
// menu as <Placeholder: Option | Option (value)>, one string per button or menu.
func components(rows []bot.Row) []string {
	var out []string
	for _, row := range rows {
		for _, b := range row.Buttons {
			s := "[" + b.Label + "]"
			if b.Disabled {
				s = "[" + b.Label + " (disabled)]"
			}
			out = append(out, s)
		}
		if sel := row.Select; sel != nil {
			var opts []string
			for _, o := range sel.Options {
				s := o.Label
				if o.Value != o.Label {
					s += " (" + o.Value + ")"
				}
				if o.Default {
					s += " ✓"
				}
				opts = append(opts, s)
			}
			out = append(out, "<"+sel.Placeholder+": "+strings.Join(opts, " | ")+">")
		}
	}
	return out
}

// tagsOf is the outcomes the core gave with a post or an edit, as --json shows them.
func tagsOf(outs []bot.Outcome) []Tag {
	var out []Tag
	for _, o := range outs {
		out = append(out, Tag{Tag: o.Tag, Op: o.Op, Who: o.Who, Result: o.Result, Now: o.Now, Reason: o.Reason})
	}
	return out
}
