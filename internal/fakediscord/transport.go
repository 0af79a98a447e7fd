package fakediscord

import (
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"

	"sheetkeeper/bot/discord/endpoint"
)

// Transport returns a RoundTripper that sends every request to baseURL: the
// scheme and host (and a path prefix, if baseURL has one) are replaced, the
// rest of the URL is kept, so "https://discord.com/api/v9/users/@me" with
// baseURL "http://127.0.0.1:8099" goes to "http://127.0.0.1:8099/api/v9/users/@me".
// It is the production adapter's own (package bot/discord/endpoint), so the
// tests exercise the code `sheetkeeper run` uses for an API base override.
func Transport(baseURL string) http.RoundTripper {
	return endpoint.Transport(baseURL, nil)
}

// Configure points a discordgo session at the fake: its REST client goes
// through Transport(s.URL()) and its websocket dialer connects to the fake
// whatever host the gateway URL names (endpoint.Dialer). discordgo finds the
// gateway with GET /gateway, which the fake answers with GatewayURL, so the
// dialer's rewrite is only a safety net.
func (s *Server) Configure(sess *discordgo.Session) {
	sess.Client = &http.Client{Transport: Transport(s.URL()), Timeout: 20 * time.Second}
	sess.Dialer = endpoint.Dialer(s.URL())
}

// Session returns a new discordgo session for the bot token "Bot "+token,
// pointed at the fake (see Configure). It is not opened; set Identify.Intents
// and handlers, then Open it.
func (s *Server) Session(token string) (*discordgo.Session, error) {
	sess, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, err
	}
	s.Configure(sess)
	return sess, nil
}
