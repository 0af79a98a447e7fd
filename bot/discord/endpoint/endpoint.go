// Package endpoint points a discordgo session at a Discord API other than
// discord.com: a proxy, or the fake Discord of the end-to-end tests.
//
// discordgo's endpoints are package variables computed at start-up, so changing its
// base URL does nothing; instead every request goes through an http.RoundTripper that
// rewrites its scheme and host (Transport), and every gateway connection through a
// websocket dialer that dials the override's host (Dialer). discordgo finds the gateway
// with GET /api/v9/gateway, which then goes to the override too, so the override decides
// where the gateway is; the dialer only makes sure nothing leaks to discord.com. A failed
// request's error names the URL really dialled (Named), not the discord.com one
// discordgo built it with.
//
// The package is tiny and depends on nothing of sheetkeeper's, so the production adapter
// (bot/discord) and the test fake (internal/fakediscord) share this one implementation
// without the fake importing the adapter or production code importing the fake.
package endpoint

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/websocket"
)

// Transport returns a RoundTripper that sends every request to baseURL: the scheme and
// host (and a path prefix, if baseURL has one) are replaced, the rest of the URL is kept,
// so "https://discord.com/api/v9/users/@me" with baseURL "http://127.0.0.1:8099" goes to
// "http://127.0.0.1:8099/api/v9/users/@me". next carries the rewritten request
// (http.DefaultTransport when nil). An unusable baseURL makes every request fail with
// the reason.
func Transport(baseURL string, next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	t := &rewriter{next: next}
	t.base, t.err = parse(baseURL)
	return t
}

func parse(baseURL string) (*url.URL, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("discord API base URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("discord API base URL %q needs an http or https scheme and a host", baseURL)
	}
	return u, nil
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
	resp, err := t.next.RoundTrip(out)
	if err != nil {
		return nil, &sentError{url: u.Redacted(), err: err}
	}
	return resp, nil
}

// sentError is a failed request's error, naming the URL the request was really sent to:
// the http.Client that reports the failure names the one it was handed (Named).
type sentError struct {
	url string
	err error
}

func (e *sentError) Error() string { return "sent to " + e.url + ": " + e.err.Error() }
func (e *sentError) Unwrap() error { return e.err }

// Timeout is the wrapped error's: url.Error asks its Err directly, not through Unwrap.
func (e *sentError) Timeout() bool {
	var t interface{ Timeout() bool }
	return errors.As(e.err, &t) && t.Timeout()
}

// Named returns err with a failed request's URL set to the one Transport sent it to.
// http.Client wraps every failure in a *url.Error naming the URL it was handed, and
// discordgo builds every request on discord.com, so without this an error from a proxy
// or the fake Discord names a host the bot never dialled. It edits the *url.Error in err,
// which http.Client made for this one failure; any other error comes back as it is. Call
// it before wrapping err: fmt.Errorf keeps the text the error had when it wrapped it.
func Named(err error) error {
	var ue *url.Error
	var sent *sentError
	if errors.As(err, &ue) && errors.As(ue.Err, &sent) {
		ue.URL, ue.Err = sent.url, sent.err
	}
	return err
}

// Dialer returns a websocket dialer that connects to baseURL's host whatever host the
// gateway URL names (TLS, for a wss:// gateway, is checked against baseURL's host). An
// unusable baseURL makes every dial fail with the reason.
func Dialer(baseURL string) *websocket.Dialer {
	base, err := parse(baseURL)
	addr := ""
	if err == nil {
		addr = base.Host
		if base.Port() == "" {
			port := "80"
			if base.Scheme == "https" {
				port = "443"
			}
			addr = net.JoinHostPort(base.Hostname(), port)
		}
	}
	d := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	ws := &websocket.Dialer{
		HandshakeTimeout: 10 * time.Second,
		NetDialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			if err != nil {
				return nil, err
			}
			return d.DialContext(ctx, network, addr)
		},
	}
	if err == nil {
		ws.TLSClientConfig = &tls.Config{ServerName: base.Hostname(), MinVersion: tls.VersionTLS12}
	}
	return ws
}
