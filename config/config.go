// Package config gathers sheetkeeper's settings from flags, SHEETKEEPER_* environment
// variables and an optional file, validates them once, and explains each in --help.
//
// Precedence is the usual one: a flag beats the environment, which beats the file,
// which beats the default. The Discord token is never a flag: flags show up in process
// listings and shell history, so it comes only from the environment or the file.
package config

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// Config is every setting a sheetkeeper command may use.
type Config struct {
	DB string // the bbolt database file (the store's, when the store is one)
	// Store is where the records live, from the store and db settings (store.go).
	Store        Location
	StoreSetting string // the store setting as given ("": the db file)
	EtcdPrefix   string
	EtcdCA       string
	EtcdCert     string
	EtcdKey      string
	EtcdUsername string
	EtcdPassword string
	DiscordToken string // the bot token; empty means no Discord
	DiscordAPI   string // base URL of Discord's API (tests point it at a fake)
	DiscordGuild string // a guild to register slash commands in, for fast development
	LogLevel     string // debug, info, warn or error
	ConfigFile   string // where the optional file was read from
	HTTP         string // host:port of the operator's endpoints (/healthz, /readyz, /metrics); empty: none
	LogFormat    string // text or json
	// Shard of Shards is the Discord gateway shard this process runs (shard.go), from
	// the settings ShardSetting and ShardsSetting as given. ShardsAuto ("--shards
	// auto") leaves both to run time: Discord's recommended count, divided among the
	// processes sharing the store (Shard and Shards are then 0).
	Shard, Shards               int
	ShardsAuto                  bool
	ShardSetting, ShardsSetting string
}

// Setting describes one setting: its flag name, its environment variables (the first
// is the canonical one), and what it means.
type Setting struct {
	Name    string
	Env     []string
	Help    string
	NoFlag  bool // secret: environment or file only
	Default func() string
	field   func(*Config) *string
}

// Settings lists every setting in the order --help shows them.
var Settings = append([]Setting{
	{Name: "db", Env: []string{"SHEETKEEPER_DB"}, Help: "the bbolt database file (created if missing); the console and the bot can share one; shorthand for --store bolt:PATH",
		Default: DefaultDB, field: func(c *Config) *string { return &c.DB }},
	{Name: "discord-token", Env: []string{"DISCORD_TOKEN", "SHEETKEEPER_DISCORD_TOKEN"}, NoFlag: true,
		Help:  "the Discord bot token (environment or config file only, never a flag)",
		field: func(c *Config) *string { return &c.DiscordToken }},
	{Name: "discord-api", Env: []string{"SHEETKEEPER_DISCORD_API"}, Help: "base URL of the Discord API; tests point it at a local fake",
		Default: func() string { return "https://discord.com" }, field: func(c *Config) *string { return &c.DiscordAPI }},
	{Name: "discord-guild", Env: []string{"SHEETKEEPER_DISCORD_GUILD"}, Help: "register slash commands in this guild only (instant, for development) instead of globally",
		field: func(c *Config) *string { return &c.DiscordGuild }},
	{Name: "log-level", Env: []string{"SHEETKEEPER_LOG_LEVEL"}, Help: "how much to log: debug, info, warn or error",
		Default: func() string { return "info" }, field: func(c *Config) *string { return &c.LogLevel }},
	{Name: "http", Env: []string{"SHEETKEEPER_HTTP"}, Help: "serve /healthz, /readyz and /metrics (Prometheus) on this host:port, e.g. 127.0.0.1:9464; empty serves nothing",
		field: func(c *Config) *string { return &c.HTTP }},
	{Name: "log-format", Env: []string{"SHEETKEEPER_LOG_FORMAT"}, Help: "how logs are written: text (key=value lines) or json (one object a line)",
		Default: func() string { return "text" }, field: func(c *Config) *string { return &c.LogFormat }},
}, append(storeSettings(), shardSettings()...)...)

// ErrHelp is returned when the user asked for --help; the help was already written.
var ErrHelp = flag.ErrHelp

// Load builds the configuration of one command. It registers the settings named in use
// (plus --config) on fs, parses args, and fills the rest from env and the file. It
// returns the remaining arguments. env is os.Getenv in production; tests pass a map.
func Load(fs *flag.FlagSet, use []string, args []string, env func(string) string) (*Config, []string, error) {
	c := &Config{}
	explicit := map[string]bool{}
	flagged := map[string]*string{}
	for _, s := range Settings {
		if !contains(use, s.Name) || s.NoFlag {
			continue
		}
		flagged[s.Name] = fs.String(s.Name, "", s.Help+envNote(s)+defaultNote(s))
	}
	configPath := fs.String("config", "", "read settings from this file: lines of `name = value` with the names above (env SHEETKEEPER_CONFIG)")
	fs.Usage = func() { usage(fs, use) }
	if err := fs.Parse(args); err != nil {
		return nil, nil, err
	}

	file := map[string]string{}
	if *configPath == "" {
		*configPath = env("SHEETKEEPER_CONFIG")
	}
	if *configPath != "" {
		var err error
		if file, err = readFile(*configPath); err != nil {
			return nil, nil, err
		}
		c.ConfigFile = *configPath
	}

	for _, s := range Settings {
		if !contains(use, s.Name) {
			continue
		}
		dst := s.field(c)
		explicit[s.Name] = true
		switch {
		case flagged[s.Name] != nil && *flagged[s.Name] != "":
			*dst = *flagged[s.Name]
		case firstEnv(s, env) != "":
			*dst = firstEnv(s, env)
		case file[s.Name] != "":
			*dst = file[s.Name]
		case s.Default != nil:
			*dst, explicit[s.Name] = s.Default(), false
		default:
			explicit[s.Name] = false
		}
		delete(file, s.Name)
	}
	for name := range file {
		if !known(name) {
			return nil, nil, fmt.Errorf("config file %s: unknown setting %q", *configPath, name)
		}
	}
	if err := c.validate(use); err != nil {
		return nil, nil, err
	}
	if contains(use, "store") {
		if err := c.resolveStore(explicit); err != nil {
			return nil, nil, err
		}
	}
	if contains(use, "shard") {
		if err := c.resolveShards(); err != nil {
			return nil, nil, err
		}
	}
	if contains(use, "etcd-prefix") {
		if err := c.validateEtcd(); err != nil {
			return nil, nil, err
		}
	}
	return c, fs.Args(), nil
}

func (c *Config) validate(use []string) error {
	var errs []error
	if contains(use, "db") && strings.TrimSpace(c.DB) == "" {
		errs = append(errs, errors.New("db: the database path is empty"))
	}
	if contains(use, "log-level") {
		switch c.LogLevel {
		case "debug", "info", "warn", "error":
		default:
			errs = append(errs, fmt.Errorf("log-level: %q is not one of debug, info, warn, error", c.LogLevel))
		}
	}
	if contains(use, "log-format") && c.LogFormat != "text" && c.LogFormat != "json" {
		errs = append(errs, fmt.Errorf("log-format: %q is not one of text, json", c.LogFormat))
	}
	if contains(use, "http") && c.HTTP != "" {
		if _, port, err := net.SplitHostPort(c.HTTP); err != nil || !isPort(port) {
			errs = append(errs, fmt.Errorf("http: %q is not a host:port to listen on (like 127.0.0.1:9464; a port is 0 to 65535)", c.HTTP))
		}
	}
	if contains(use, "discord-api") {
		u, err := url.Parse(c.DiscordAPI)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("discord-api: %q is not an http or https URL", c.DiscordAPI))
		}
	}
	if contains(use, "discord-guild") && c.DiscordGuild != "" && strings.Trim(c.DiscordGuild, "0123456789") != "" {
		errs = append(errs, fmt.Errorf("discord-guild: %q is not a guild id (digits)", c.DiscordGuild))
	}
	return errors.Join(errs...)
}

// isPort reports whether p is a port number to listen on: 0 (any) to 65535.
func isPort(p string) bool {
	_, err := strconv.ParseUint(p, 10, 16)
	return err == nil
}

// maxConfigFile bounds a config file: far past any real one, and refused whole beyond
// (never read in part, which would drop the settings past the cut).
const maxConfigFile = 1 << 20

// readFile reads `name = value` lines; `#` starts a comment line. Values may be quoted.
func readFile(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config file: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigFile+1))
	if err != nil {
		return nil, fmt.Errorf("config file %s: %w", path, err)
	}
	if len(data) > maxConfigFile {
		return nil, fmt.Errorf("config file %s: over %d bytes", path, maxConfigFile)
	}
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	n := 1
	for ; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("config file %s:%d: expected name = value", path, n)
		}
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if len(value) >= 2 && (value[0] == '"' || value[0] == '\'') && value[len(value)-1] == value[0] {
			value = value[1 : len(value)-1]
		}
		out[name] = value
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("config file %s:%d: a line over %d bytes", path, n, bufio.MaxScanTokenSize)
		}
		return nil, fmt.Errorf("config file %s:%d: %w", path, n, err)
	}
	return out, nil
}

// DefaultDB is sheetkeeper.db in the user's data directory.
func DefaultDB() string {
	return filepath.Join(dataDir(), "sheetkeeper", "sheetkeeper.db")
}

// dataDir follows each platform's convention for application data: XDG on Unix,
// Application Support on macOS, LocalAppData on Windows.
func dataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && runtime.GOOS != "windows" && runtime.GOOS != "darwin" {
		return d
	}
	home, err := os.UserHomeDir()
	switch runtime.GOOS {
	case "windows":
		if d := os.Getenv("LocalAppData"); d != "" {
			return d
		}
	case "darwin":
		if err == nil {
			return filepath.Join(home, "Library", "Application Support")
		}
	}
	if err != nil {
		return "."
	}
	return filepath.Join(home, ".local", "share")
}

func firstEnv(s Setting, env func(string) string) string {
	for _, name := range s.Env {
		if v := env(name); v != "" {
			return v
		}
	}
	return ""
}

func envNote(s Setting) string { return " (env " + strings.Join(s.Env, " or ") + ")" }

func defaultNote(s Setting) string {
	if s.Default == nil {
		return ""
	}
	return " (default " + s.Default() + ")"
}

func usage(fs *flag.FlagSet, use []string) {
	w := fs.Output()
	fmt.Fprintf(w, "usage: sheetkeeper %s\n\nsettings (flag, then environment, then config file, then default):\n", fs.Name())
	fs.PrintDefaults()
	names := make([]string, 0)
	for _, s := range Settings {
		if s.NoFlag && contains(use, s.Name) {
			names = append(names, fmt.Sprintf("  %s\n    \t%s%s\n", s.Name, s.Help, envNote(s)))
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprint(w, n)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func known(name string) bool {
	for _, s := range Settings {
		if s.Name == name {
			return true
		}
	}
	return false
}
