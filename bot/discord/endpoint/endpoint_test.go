package endpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestTransportRewritesSchemeHostAndPrefix(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.URL.RequestURI()
		io.WriteString(w, "ok")
	}))
	defer srv.Close()
	for base, want := range map[string]string{
		srv.URL:             "/api/v9/users/@me?x=1",
		srv.URL + "/proxy/": "/proxy/api/v9/users/@me?x=1",
		srv.URL + "/proxy":  "/proxy/api/v9/users/@me?x=1",
	} {
		c := &http.Client{Transport: Transport(base, nil)}
		resp, err := c.Get("https://discord.com/api/v9/users/@me?x=1")
		if err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		resp.Body.Close()
		if got != want {
			t.Errorf("%s: request went to %q, want %q", base, got, want)
		}
	}
}

func TestUnusableBaseFailsEveryRequest(t *testing.T) {
	for _, base := range []string{"discord.local", "ftp://x", "http://", "%zz"} {
		c := &http.Client{Transport: Transport(base, nil)}
		if _, err := c.Get("https://discord.com/api/v9/gateway"); err == nil || !strings.Contains(err.Error(), "base URL") {
			t.Errorf("%q: %v", base, err)
		}
		d := Dialer(base)
		if _, err := d.NetDialContext(context.Background(), "tcp", "gateway.discord.gg:443"); err == nil {
			t.Errorf("%q: the dialer dialed", base)
		}
	}
}

func TestDialerDialsTheBase(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	d := Dialer(srv.URL)
	conn, err := d.NetDialContext(context.Background(), "tcp", "gateway.discord.gg:443")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if conn.RemoteAddr().String() != strings.TrimPrefix(srv.URL, "http://") {
		t.Errorf("dialed %s", conn.RemoteAddr())
	}
	if Dialer("https://proxy.example").TLSClientConfig.ServerName != "proxy.example" {
		t.Error("TLS is checked against the base's host")
	}
}

// A failed request names the URL it was sent to once Named, not the one it was built
// with; the cause, and whether it timed out, stay readable.
func TestNamedErrorsNameTheURLDialled(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + l.Addr().String() + "/proxy"
	l.Close()
	c := &http.Client{Transport: Transport(base, nil)}
	_, err = c.Get("https://discord.com/api/v9/gateway?v=9")
	if err == nil {
		t.Fatal("a closed port answered")
	}
	if !strings.Contains(err.Error(), base+"/api/v9/gateway?v=9") {
		t.Errorf("unnamed error hides the URL dialled: %v", err)
	}
	wrapped := fmt.Errorf("connecting: %w", Named(err))
	got := wrapped.Error()
	if want := `connecting: Get "` + base + `/api/v9/gateway?v=9": dial tcp`; !strings.HasPrefix(got, want) || strings.Contains(got, "discord.com") {
		t.Errorf("Named: %s, want it to start %s", got, want)
	}
	var op *net.OpError
	if !errors.As(wrapped, &op) {
		t.Errorf("the cause is lost: %#v", err)
	}
	if plain := errors.New("plain"); Named(plain) != plain {
		t.Error("Named changed an error that is no request's")
	}
	// A timeout is still one (url.Error asks its Err directly).
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer slow.Close()
	c = &http.Client{Transport: Transport(slow.URL, nil), Timeout: 50 * time.Millisecond}
	_, err = c.Get("https://discord.com/api/v9/gateway")
	var ue *url.Error
	if !errors.As(err, &ue) || !ue.Timeout() {
		t.Errorf("timeout lost: %v", err)
	}
}
