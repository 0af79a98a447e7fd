package discord

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"sheetkeeper/bot"
)

// An answer is at most maxMessages messages: the last says it was cut, and the whole
// text goes beside the first as answer.txt, where the response has room for a file.
func TestLongAnswerIsCappedWithItsTextAttached(t *testing.T) {
	long := strings.Repeat("a line of an answer far too long to read in a channel\n", 40_000) // 2 MB
	start := time.Now()
	msgs, files := responseMessages(bot.Response{Content: long, Files: []bot.File{{Name: "problems.txt", Data: []byte("x")}}})
	if d := time.Since(start); d > time.Second {
		t.Errorf("splitting 2 MB took %v", d)
	}
	if len(msgs) != maxMessages {
		t.Fatalf("%d messages", len(msgs))
	}
	last := msgs[maxMessages-1].content
	if !strings.HasSuffix(last, "… (cut here; the whole answer is in answer.txt)") || utf8.RuneCountInString(last) > maxContent {
		t.Errorf("last message: %d characters, ending %q", utf8.RuneCountInString(last), last[max(0, len(last)-80):])
	}
	if len(files) != 2 || files[0].Name != "problems.txt" || files[1].Name != answerFile || string(files[1].Data) != long {
		t.Errorf("files: %d", len(files))
	}
	// No room for another file: the cut is said, nothing attached.
	full := make([]bot.File, maxFiles)
	msgs, files = responseMessages(bot.Response{Content: long, Files: full})
	if len(msgs) != maxMessages || len(files) != maxFiles || !strings.HasSuffix(msgs[maxMessages-1].content, "more messages are not sent)") {
		t.Errorf("%d messages, %d files, %q", len(msgs), len(files), msgs[len(msgs)-1].content)
	}
	// Cards cut with the messages are said to be: answer.txt holds only the text.
	var cards []bot.Embed
	for i := range 30 {
		cards = append(cards, bot.Embed{Title: fmt.Sprint("Card ", i), Description: strings.Repeat("d", 4000)})
	}
	msgs, _ = responseMessages(bot.Response{Content: long, Embeds: cards})
	if last := msgs[len(msgs)-1].content; !strings.Contains(last, "the whole text is in answer.txt, and") || !strings.Contains(last, "more cards are not shown") {
		t.Errorf("cut with cards: %q", last[max(0, len(last)-120):])
	}
	// Five messages or fewer are sent whole.
	msgs, files = responseMessages(bot.Response{Content: strings.Repeat("x ", 4000)})
	if len(msgs) != 5 || files != nil || strings.Contains(msgs[4].content, "cut here") {
		t.Errorf("%d messages, %d files", len(msgs), len(files))
	}
}
