package fakediscord

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// Transport returns a RoundTripper that sends every request to baseURL: the
// scheme and host (and a path prefix, if baseURL has one) are replaced, the
// rest of the URL is kept, so "https://discord.com/api/v9/users/@me" with
// baseURL "http://127.0.0.1:8099" goes to "http://127.0.0.1:8099/api/v9/users/@me".
// It does not depend on this package's fake and suits an API base override
// in production code. An unparsable baseURL makes every request fail.
func Transport(baseURL string) http.RoundTripper {
	t := &rewriter{next: http.DefaultTransport}
	t.base, t.err = url.Parse(baseURL)
	if t.err == nil && (t.base.Scheme == "" || t.base.Host == "") {
		t.err = fmt.Errorf("discord API base URL %q needs a scheme and a host", baseURL)
	}
	return t
}

type rewriter struct {
	base *url.URL
	err  error
	next http.RoundTripper
}

func (t *rewriter) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, t.err
	}
	out := req.Clone(req.Context())
	u := *req.URL
	u.Scheme = t.base.Scheme
	u.Host = t.base.Host
	if p := strings.TrimSuffix(t.base.Path, "/"); p != "" {
		u.Path = p + u.Path
		if u.RawPath != "" {
			u.RawPath = p + u.RawPath
		}
	}
	out.URL = &u
	out.Host = ""
	return t.next.RoundTrip(out)
}

// Configure points a discordgo session at the fake: its REST client goes
// through Transport(s.URL()) and its websocket dialer connects to the fake
// whatever host the gateway URL names. discordgo finds the gateway with GET
// /gateway, which the fake answers with GatewayURL, so the dialer's rewrite
// is only a safety net.
func (s *Server) Configure(sess *discordgo.Session) {
	sess.Client = &http.Client{Transport: Transport(s.URL()), Timeout: 20 * time.Second}
	addr := strings.TrimPrefix(s.URL(), "http://")
	d := &net.Dialer{Timeout: 5 * time.Second}
	sess.Dialer = &websocket.Dialer{
		HandshakeTimeout: 5 * time.Second,
		NetDialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		},
	}
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
