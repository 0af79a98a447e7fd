package discord

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/bot"
	"sheetkeeper/parser"
)

// Discord's limits on what one message may carry. Lengths are in characters.
const (
	maxContent      = 2000
	maxEmbeds       = 10
	maxEmbedTotal   = 6000 // every title, description, field, footer of a message together
	maxTitle        = 256
	maxDescription  = 4096
	maxFields       = 25
	maxFieldName    = 256
	maxFieldValue   = 1024
	maxFooter       = 2048
	maxRows         = 5
	maxButtons      = 5
	maxButtonLabel  = 80
	maxCustomID     = 100
	maxSelectOpts   = 25
	maxOptionText   = 100
	maxPlaceholder  = 150
	maxFiles        = 10
	continuedSuffix = " (continued)"
)

// maxMessages bounds the messages one answer is sent as. Each is a request Discord
// rate-limits, and an interaction's token lasts 15 minutes: an answer of a thousand
// messages would be cut off by Discord, not by us, and flood the channel first.
const maxMessages = 5

// answerFile is the name of the file holding the whole text of an answer cut to
// maxMessages.
const answerFile = "answer.txt"

// capMessages keeps at most maxMessages of msgs. When it cuts, the last message kept
// says so and, when the answer has text and room for one more file, the whole text
// goes beside the first message as answer.txt; files are the response's files then.
func capMessages(msgs []message, content string, files []bot.File) ([]message, []bot.File) {
	if len(msgs) <= maxMessages {
		return msgs, files
	}
	note := fmt.Sprintf("… (cut here: %d more messages are not sent)", len(msgs)-maxMessages)
	if strings.TrimSpace(content) != "" && len(files) < maxFiles {
		files = append(slices.Clip(files), bot.File{Name: answerFile, Data: []byte(content)})
		// The file holds the text only: cards cut with the messages are said to be.
		cards := 0
		for _, m := range msgs[maxMessages:] {
			cards += len(m.embeds)
		}
		if cards > 0 {
			note = fmt.Sprintf("… (cut here; the whole text is in %s, and %d more cards are not shown)", answerFile, cards)
		} else {
			note = "… (cut here; the whole answer is in " + answerFile + ")"
		}
	}
	msgs = slices.Clone(msgs[:maxMessages])
	last := &msgs[maxMessages-1]
	if utf8.RuneCountInString(last.content)+1+len(note) <= maxContent {
		last.content = strings.TrimSpace(last.content + "\n" + note)
	} else {
		last.content = note // its text is in answer.txt, or said to be cut
	}
	return msgs, files
}

// Colour is the colour of every embed the core leaves uncoloured: one colour for
// sheetkeeper's cards, so its posts look alike wherever they appear.
const Colour = 0x4F7A5A

// message is one Discord message's worth of a post or response: content within 2,000
// characters and embeds within the per-message limits.
type message struct {
	content string
	embeds  []*discordgo.MessageEmbed
}

// split renders content and embeds as the messages needed to carry them within Discord's
// limits, in reading order: the content cut where it reads well and never inside a tag (a
// line break, else between tags, else a space), then the embeds, each within its own
// limits, packed ten and 6,000 characters to a message — the first of them with the last
// piece of content. Nothing is dropped: an over-long description or field value continues
// in the next embed or field. Empty input gives no messages.
func split(content string, embeds []bot.Embed) []message {
	var out []message
	for _, c := range splitText(content, maxContent) {
		out = append(out, message{content: c})
	}
	var all []*discordgo.MessageEmbed
	for _, e := range embeds {
		all = append(all, embedsOf(e)...)
	}
	if len(all) == 0 {
		return out
	}
	if len(out) == 0 {
		out = append(out, message{})
	}
	cur := &out[len(out)-1]
	total := 0
	for _, e := range all {
		size := embedSize(e)
		if len(cur.embeds) == maxEmbeds || (len(cur.embeds) > 0 && total+size > maxEmbedTotal) {
			out = append(out, message{})
			cur, total = &out[len(out)-1], 0
		}
		cur.embeds = append(cur.embeds, e)
		total += size
	}
	return out
}

// splitText cuts s into pieces of at most n characters, preferring a line break, then the
// end of a tag ("] "), then a space, in the second half of each window, and never cutting
// inside a tag while the window has a cut outside one (cutPoint). A piece that ends
// inside a ``` code block closes it and the next piece opens it again with the same fence
// line ("```text"), so formatting survives the cut.
//
// It reads s once: the tags are found once for the whole text, each window is walked a
// bounded number of times and nothing is copied but the pieces themselves, so a 40 MB
// text costs what reading it costs (an earlier version prepended the reopened fence to
// the whole rest at every cut: quadratic).
func splitText(s string, n int) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	tags, whole := tagsOf(s), len(s)
	var out []string
	reopen := "" // the fence line the next piece opens with, "" outside a block
	for s != "" {
		room := n - utf8.RuneCountInString(reopen)
		if reopen != "" {
			room-- // the line break after the reopened fence
		}
		if end := byteIndexOfRune(s, room); end == len(s) {
			out = append(out, joinReopened(reopen, s))
			break
		}
		// Leave room to close a code block.
		cut := byteIndexOfRune(s, room-len("\n"+fence))
		at := cutPoint(s[:cut], tags, whole-len(s))
		if at == 0 { // a window too small for one character: cut after one anyway
			_, at = utf8.DecodeRuneInString(s)
		}
		piece := strings.TrimRight(s[:at], " \n")
		s = strings.TrimLeft(s[at:], " \n")
		next := openFence(reopen, piece)
		if piece != "" {
			piece = joinReopened(reopen, piece)
			if next != "" {
				piece += "\n" + fence
			}
			out = append(out, piece)
		}
		reopen = next
	}
	return out
}

const fence = "```"

// separators are where a piece may end, the best first: a line break (left out of both
// pieces), the end of a tag, a space.
var separators = []string{"\n", "] ", " "}

// cutAfter is where a piece ends that is cut at the separator sep found at i.
func cutAfter(i int, sep string) int {
	if sep == "\n" {
		return i
	}
	return i + len(sep)
}

// cutPoint is where to end a piece cut from window, which starts at byte off of the text
// whose tags are tags: after the last line break, tag end or space in its second half,
// else at its end — but never inside a tag while there is a cut outside one. A reply is
// its tags written back one a line, which the AI GM reads in the channel next turn, and a
// tag cut in two is two broken tags to it; so a window ending inside a tag ends before
// that tag instead, at its best cut there. Only a tag that starts the window and runs
// past its end is cut inside, as before: the parser reads no body over MaxBody (1,500
// characters), so no tag is that long for a message's 2,000.
func cutPoint(window string, tags tagSpans, off int) int {
	for _, sep := range separators {
		if i := lastOutside(window, sep, tags, off); i >= len(window)/2 {
			return cutAfter(i, sep)
		}
	}
	start, inside := tags.around(off + len(window))
	switch {
	case !inside:
		return len(window)
	case start > off: // the tag the window ends in starts in it: end before the tag
		return cutPoint(window[:start-off], tags, off)
	}
	return cutPoint(window, nil, 0) // the tag fills the window: cut as if it were not there
}

// lastOutside is the byte offset of the last sep in window (at byte off of its text)
// whose cut falls outside every tag, or -1. It walks window back once: a sep inside a tag
// sends the search on before that tag.
func lastOutside(window, sep string, tags tagSpans, off int) int {
	for w := window; ; {
		i := strings.LastIndex(w, sep)
		if i < 0 {
			return -1
		}
		start, inside := tags.around(off + cutAfter(i, sep))
		if !inside {
			return i
		}
		w = w[:max(start-off, 0)]
	}
}

// tagSpans are the byte ranges [start, end) of a text's tags, in order and apart.
type tagSpans [][2]int

// tagsOf finds the tags of s as the parser reads them, the way the AI GM reading the
// channel does (tags in code and quotes are quoted, not read, and left out).
func tagsOf(s string) tagSpans {
	var out tagSpans
	for _, t := range parser.Read(s).Tags {
		if n := len(out); n > 0 && out[n-1][0] == t.Start {
			continue // another item of the same inventory tag
		}
		out = append(out, [2]int{t.Start, t.End})
	}
	return out
}

// around reports whether a cut at byte p falls inside a tag, after its '[' and before the
// end of its ']', and where that tag starts.
func (ts tagSpans) around(p int) (start int, inside bool) {
	i := sort.Search(len(ts), func(i int) bool { return ts[i][1] > p })
	if i < len(ts) && ts[i][0] < p {
		return ts[i][0], true
	}
	return 0, false
}

func joinReopened(reopen, piece string) string {
	if reopen == "" {
		return piece
	}
	return reopen + "\n" + piece
}

// openFence follows the code blocks through piece, which starts inside the block opened
// by the fence line reopen ("" outside any), and returns the fence line of the block
// still open at its end, or "" when none is. A fence line is kept as written up to 20
// bytes ("```text"); a longer one reopens as a bare fence.
func openFence(reopen, piece string) string {
	open := reopen
	for {
		i := strings.Index(piece, fence)
		if i < 0 {
			return open
		}
		if open != "" {
			open = ""
			piece = piece[i+len(fence):]
			continue
		}
		line := piece[i:]
		if nl := strings.IndexByte(line, '\n'); nl >= 0 {
			line = line[:nl]
		}
		if len(line) > 20 || strings.Contains(line[len(fence):], fence) {
			line = fence
		}
		open = line
		piece = piece[i+len(fence):]
	}
}

// byteIndexOfRune returns the byte offset of the n-th rune of s (len(s) if s is shorter).
func byteIndexOfRune(s string, n int) int {
	count := 0
	for i := range s {
		if count == n {
			return i
		}
		count++
	}
	return len(s)
}

// clip cuts s to at most n characters, marking a cut with "…".
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return s[:byteIndexOfRune(s, n-1)] + "…"
}

// embedsOf renders one embed of the core as one or more Discord embeds, each within every
// limit Discord has, the 6,000 characters of the whole included: a description over
// 4,096 characters continues in a second embed, a field value over 1,024 continues in a
// second field, more than 25 fields (or 6,000 characters) continue in a second embed
// titled "… (continued)", and the footer goes on the last embed, cut to the room it
// leaves (fitTotal). An embed with nothing in it gives none.
func embedsOf(e bot.Embed) []*discordgo.MessageEmbed {
	colour := e.Color
	if colour == 0 {
		colour = Colour
	}
	title := clip(strings.TrimSpace(e.Title), maxTitle)
	footer := clip(strings.TrimSpace(e.Footer), maxFooter)
	var out []*discordgo.MessageEmbed
	next := func() *discordgo.MessageEmbed {
		t := title
		if len(out) > 0 && t != "" {
			t = clip(title, maxTitle-len(continuedSuffix)) + continuedSuffix
		}
		m := &discordgo.MessageEmbed{Title: t, Color: colour}
		out = append(out, m)
		return m
	}
	cur := next()
	for i, d := range splitText(e.Description, maxDescription) {
		if i > 0 {
			cur = next()
		}
		cur.Description = d
	}
	for _, f := range fieldsOf(e.Fields) {
		size := utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
		if len(cur.Fields) == maxFields || embedSize(cur)+size+utf8.RuneCountInString(footer) > maxEmbedTotal {
			cur = next()
		}
		cur.Fields = append(cur.Fields, f)
	}
	if footer != "" {
		out[len(out)-1].Footer = &discordgo.MessageEmbedFooter{Text: footer}
	}
	if len(out) == 1 && cur.Title == "" && cur.Description == "" && len(cur.Fields) == 0 && cur.Footer == nil {
		return nil
	}
	for _, m := range out {
		fitTotal(m)
	}
	return out
}

// fitTotal keeps m within the 6,000 characters Discord counts for one embed, the one
// limit that spans an embed's parts: each part is cut to its own limit first, and then
// the footer gives way, cut (marked "…") to the room the rest of m leaves. The footer is
// the card's small print — the filters a listing ran with, a hint — and cutting it keeps
// the body whole and the card one embed: moving the description on instead would break a
// listing into "(continued)" cards for the sake of its footer's tail. Nothing else need
// give way: a title and a description piece take at most 4,352 characters, which leaves
// the footer 1,648 of its 2,048, and fields are laid out counting the footer whole.
func fitTotal(m *discordgo.MessageEmbed) {
	if m.Footer == nil {
		return
	}
	if over := embedSize(m) - maxEmbedTotal; over > 0 {
		m.Footer.Text = clip(m.Footer.Text, utf8.RuneCountInString(m.Footer.Text)-over)
	}
}

// fieldsOf renders fields within their limits: a long name is cut, a long value
// continues in further fields of the same name.
func fieldsOf(fields []bot.EmbedField) []*discordgo.MessageEmbedField {
	var out []*discordgo.MessageEmbedField
	for _, f := range fields {
		name := clip(strings.TrimSpace(f.Name), maxFieldName)
		if name == "" {
			name = "\u200b" // Discord refuses an empty name; a zero-width space shows none.
		}
		values := splitText(f.Value, maxFieldValue)
		if len(values) == 0 {
			values = []string{"\u200b"}
		}
		for i, v := range values {
			n := name
			if i > 0 {
				n = clip(name, maxFieldName-len(continuedSuffix)) + continuedSuffix
			}
			out = append(out, &discordgo.MessageEmbedField{Name: n, Value: v, Inline: f.Inline})
		}
	}
	return out
}

// embedSize is what an embed counts toward a message's 6,000 characters.
func embedSize(e *discordgo.MessageEmbed) int {
	n := utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
	for _, f := range e.Fields {
		n += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
	}
	if e.Footer != nil {
		n += utf8.RuneCountInString(e.Footer.Text)
	}
	if e.Author != nil {
		n += utf8.RuneCountInString(e.Author.Name)
	}
	return n
}

// componentsOf renders rows of buttons and select menus within Discord's limits (five
// rows, five buttons a row, 25 options a menu); what does not fit is left out and
// logged by the caller as a core mistake would be. It never returns nil, so an update
// clears the components a message had.
func componentsOf(rows []bot.Row) []discordgo.MessageComponent {
	out := []discordgo.MessageComponent{}
	for _, r := range rows {
		if len(out) == maxRows {
			break
		}
		switch {
		case r.Select != nil:
			out = append(out, discordgo.ActionsRow{Components: []discordgo.MessageComponent{selectOf(r.Select)}})
		case len(r.Buttons) > 0:
			var bs []discordgo.MessageComponent
			for _, b := range r.Buttons {
				if len(bs) == maxButtons {
					break
				}
				bs = append(bs, discordgo.Button{
					Label:    clip(b.Label, maxButtonLabel),
					Style:    buttonStyle(b.Style),
					CustomID: b.CustomID,
					Disabled: b.Disabled,
				})
			}
			out = append(out, discordgo.ActionsRow{Components: bs})
		}
	}
	return out
}

func selectOf(s *bot.Select) discordgo.SelectMenu {
	m := discordgo.SelectMenu{
		MenuType:    discordgo.StringSelectMenu,
		CustomID:    s.CustomID,
		Placeholder: clip(s.Placeholder, maxPlaceholder),
	}
	for _, o := range s.Options {
		if len(m.Options) == maxSelectOpts {
			break
		}
		m.Options = append(m.Options, discordgo.SelectMenuOption{
			Label:       clip(o.Label, maxOptionText),
			Value:       clip(o.Value, maxOptionText),
			Description: clip(o.Description, maxOptionText),
			Default:     o.Default,
		})
	}
	lo, hi := s.MinValues, s.MaxValues
	if hi <= 0 || hi > len(m.Options) {
		hi = max(1, len(m.Options))
	}
	lo = min(max(lo, 0), hi)
	m.MinValues = &lo
	m.MaxValues = hi
	return m
}

func buttonStyle(s string) discordgo.ButtonStyle {
	switch s {
	case "secondary":
		return discordgo.SecondaryButton
	case "success":
		return discordgo.SuccessButton
	case "danger":
		return discordgo.DangerButton
	}
	return discordgo.PrimaryButton
}

// filesOf renders the files a response sends.
func filesOf(files []bot.File) []*discordgo.File {
	var out []*discordgo.File
	for _, f := range files {
		out = append(out, &discordgo.File{Name: f.Name, ContentType: contentType(f.Name), Reader: bytes.NewReader(f.Data)})
	}
	return out
}

func contentType(name string) string {
	switch {
	case strings.HasSuffix(strings.ToLower(name), ".json"):
		return "application/json"
	case strings.HasSuffix(strings.ToLower(name), ".zip"):
		return "application/zip"
	}
	return "application/octet-stream"
}

// noMentions keeps the bot's posts from pinging anyone: a GM's narration quoted back
// with @everyone in it stays quiet.
func noMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}
}
