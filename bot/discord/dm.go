package discord

import (
	"context"
	"strings"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/bot"
	"sheetkeeper/bot/discord/endpoint"
)

// direct sends a post meant for a user's direct messages (a.DM; inventory rules'
// messages, when the campaign says so): the user's DM channel is opened, or found, and
// the post sent there. When that cannot be done — the user's DMs are closed to the bot,
// or Discord fails — the message is not lost: it goes to the campaign's channel
// instead, addressed to the user, with a note saying why it is there.
func (b *Bot) direct(ctx context.Context, a bot.Action) {
	msgs := split(a.Content, a.Embeds)
	ch, err := b.sess.UserChannelCreate(a.DM, discordgo.WithContext(ctx))
	if err == nil {
		var ids []string
		if ids, err = b.post(ctx, ch.ID, "", msgs, a.Components); len(ids) > 0 {
			if err != nil {
				b.log.Warn("discord: part of a direct message could not be sent", "user", a.DM, "err", err)
			}
			return
		}
	}
	b.log.Warn("discord: a direct message could not be sent; posting it in the channel", "user", a.DM, "channel", a.ChannelID, "err", endpoint.Named(err))
	b.postOrLog(ctx, a.ChannelID, "", split(dmFallback(a), a.Embeds), a.Components)
}

// dmFallback is a direct message's content as posted in its campaign's channel: a note
// to the user first, and the lines' links to that channel (which a DM needs to say
// which campaign it is from) dropped, as the message now is in it.
func dmFallback(a bot.Action) string {
	body := strings.ReplaceAll(a.Content, "<#"+a.ChannelID+"> ", "")
	return "<@" + a.DM + "> I could not reach you by direct message, so this is here instead:\n" + body
}
