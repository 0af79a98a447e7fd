package config

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

var all = append(append(append([]string{"discord-token", "discord-api", "discord-guild", "log-level"}, opsSettings...), StoreSettings...), ShardSettings...)

// opsSettings are the operator's settings (SPEC 12).
var opsSettings = []string{"http", "log-format"}

func load(t *testing.T, args []string, env map[string]string) (*Config, []string, error) {
	t.Helper()
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	return Load(fs, all, args, envOf(env))
}

func TestPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sk.conf")
	os.WriteFile(file, []byte("# comment\ndb = \"/from/file.db\"\nlog-level = warn\ndiscord-token = filetoken\ndiscord-guild=42\n"), 0o600)

	c, rest, err := load(t, []string{"--config", file, "--db", "/from/flag.db", "extra"},
		map[string]string{"SHEETKEEPER_LOG_LEVEL": "debug", "SHEETKEEPER_DISCORD_TOKEN": "envtoken"})
	if err != nil {
		t.Fatal(err)
	}
	if c.DB != "/from/flag.db" || c.LogLevel != "debug" || c.DiscordToken != "envtoken" || c.DiscordGuild != "42" {
		t.Fatalf("got %+v", c)
	}
	if c.DiscordAPI != "https://discord.com" {
		t.Fatalf("default api: %q", c.DiscordAPI)
	}
	if len(rest) != 1 || rest[0] != "extra" {
		t.Fatalf("rest %v", rest)
	}

	// DISCORD_TOKEN is read before SHEETKEEPER_DISCORD_TOKEN; the file fills in otherwise.
	c, _, _ = load(t, []string{"--config", file}, map[string]string{"DISCORD_TOKEN": "a", "SHEETKEEPER_DISCORD_TOKEN": "b"})
	if c.DiscordToken != "a" || c.DB != "/from/file.db" {
		t.Fatalf("got %+v", c)
	}
	c, _, _ = load(t, nil, map[string]string{"SHEETKEEPER_CONFIG": file})
	if c.DiscordToken != "filetoken" || c.ConfigFile != file {
		t.Fatalf("SHEETKEEPER_CONFIG not read: %+v", c)
	}
}

func TestTokenIsNeverAFlag(t *testing.T) {
	if _, _, err := load(t, []string{"--discord-token", "x"}, nil); err == nil {
		t.Fatal("a token flag was accepted")
	}
}

func TestValidation(t *testing.T) {
	cases := map[string]struct {
		args []string
		want string
	}{
		"level":      {[]string{"--log-level", "loud"}, `log-level: "loud" is not one of debug, info, warn, error`},
		"api":        {[]string{"--discord-api", "ftp://x"}, `discord-api: "ftp://x" is not an http or https URL`},
		"guild":      {[]string{"--discord-guild", "abc"}, `discord-guild: "abc" is not a guild id (digits)`},
		"db":         {[]string{"--db", " "}, `db: the database path is empty`},
		"log-format": {[]string{"--log-format", "xml"}, `log-format: "xml" is not one of text, json`},
		"http":       {[]string{"--http", "9464"}, `http: "9464" is not a host:port to listen on (like 127.0.0.1:9464; a port is 0 to 65535)`},
		"http port":  {[]string{"--http", "127.0.0.1:99999"}, `http: "127.0.0.1:99999" is not a host:port to listen on (like 127.0.0.1:9464; a port is 0 to 65535)`},
		"http -1":    {[]string{"--http", "127.0.0.1:-1"}, `http: "127.0.0.1:-1" is not a host:port to listen on (like 127.0.0.1:9464; a port is 0 to 65535)`},
		"http name":  {[]string{"--http", "127.0.0.1:http-ish"}, `http: "127.0.0.1:http-ish" is not a host:port to listen on (like 127.0.0.1:9464; a port is 0 to 65535)`},
	}
	for name, tc := range cases {
		_, _, err := load(t, tc.args, nil)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.conf")
	os.WriteFile(bad, []byte("colour = blue\n"), 0o600)
	if _, _, err := load(t, []string{"--config", bad}, nil); err == nil || !strings.Contains(err.Error(), `unknown setting "colour"`) {
		t.Fatalf("unknown setting: %v", err)
	}
	os.WriteFile(bad, []byte("just words\n"), 0o600)
	if _, _, err := load(t, []string{"--config", bad}, nil); err == nil || !strings.Contains(err.Error(), "bad.conf:1: expected name = value") {
		t.Fatalf("bad line: %v", err)
	}
	// A line too long to read, and a file too big to read whole, say which file (and
	// line): never bufio's words alone, never the settings before the cut.
	os.WriteFile(bad, []byte("log-level = warn\n# "+strings.Repeat("x", 70_000)+"\ndb = /x.db\n"), 0o600)
	if _, _, err := load(t, []string{"--config", bad}, nil); err == nil || !strings.Contains(err.Error(), bad+":2: a line over") {
		t.Fatalf("a long line: %v", err)
	}
	os.WriteFile(bad, []byte(strings.Repeat("# a comment line of some length\n", 40_000)+"db = /x.db\n"), 0o600)
	if _, _, err := load(t, []string{"--config", bad}, nil); err == nil || !strings.Contains(err.Error(), bad+": over") {
		t.Fatalf("a file over the bound: %v", err)
	}
}

func TestHelpExplainsEverySetting(t *testing.T) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	var out bytes.Buffer
	fs.SetOutput(&out)
	_, _, err := Load(fs, all, []string{"--help"}, envOf(nil))
	if err != ErrHelp {
		t.Fatalf("err %v", err)
	}
	for _, s := range Settings {
		if !strings.Contains(out.String(), s.Name) || !strings.Contains(out.String(), s.Help) {
			t.Errorf("help lacks %s:\n%s", s.Name, out.String())
		}
	}
}

// The operator's settings default to no HTTP endpoints and text logs, and take
// SHEETKEEPER_HTTP and SHEETKEEPER_LOG_FORMAT.
func TestOpsSettings(t *testing.T) {
	c, _, err := load(t, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTP != "" || c.LogFormat != "text" {
		t.Fatalf("defaults: http %q, log-format %q", c.HTTP, c.LogFormat)
	}
	c, _, err = load(t, nil, map[string]string{"SHEETKEEPER_HTTP": "127.0.0.1:0", "SHEETKEEPER_LOG_FORMAT": "json"})
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTP != "127.0.0.1:0" || c.LogFormat != "json" {
		t.Fatalf("from env: http %q, log-format %q", c.HTTP, c.LogFormat)
	}
}

func TestDefaultDBIsInTheDataDir(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data")
	if got := DefaultDB(); got != filepath.Join("/data", "sheetkeeper", "sheetkeeper.db") && !strings.HasSuffix(got, filepath.Join("sheetkeeper", "sheetkeeper.db")) {
		t.Fatalf("DefaultDB = %q", got)
	}
}
