package endpoint

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
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
