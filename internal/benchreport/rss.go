package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"sheetkeeper/bot"
	"sheetkeeper/storage/bolt"
)

// The idle RSS is measured in a child process: this same binary started again with
// -rss-child, so the figure is a process holding the bot and the 5e package, not this
// report's buffers or a test binary's. The child opens a bbolt store in a temp folder,
// starts the core, and runs /demo with the built-in dnd5e-srd: the campaign's first use
// loads the package the way a live bot does (content, manifest and hashes,
// ruleset.LoadFS, the core's cache of loaded rulesets). A /catalog search in each of its
// three catalogs then reads and checks their files and builds their search index, so
// the whole package is in memory. Then it collects garbage and gives the freed pages
// back to the OS (debug.FreeOSMemory; the runtime's background scavenger does the same
// to an idle process, only slower), and prints VmRSS from /proc/self/status in the
// benchmark line format the parser reads.

// rssChild is the child's whole work; it writes its result line to w.
func rssChild(w io.Writer) error {
	dir, err := os.MkdirTemp("", "benchreport-rss-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	store, err := bolt.Open(filepath.Join(dir, "rss.db"), bolt.Options{Timeout: time.Second})
	if err != nil {
		return err
	}
	defer store.Close()
	core := bot.New(store, bot.Options{})
	defer core.Close()
	gm := bot.User{ID: "1000", Name: "gm"}
	ctx := context.Background()
	r := core.OnCommand(ctx, bot.Command{Name: "demo", Options: []bot.Option{{Name: "ruleset", Value: "dnd5e-srd"}},
		User: gm, ChannelID: "2000", GuildID: "3000"})
	if !strings.Contains(r.Content, "Mira") {
		return fmt.Errorf("/demo ruleset:dnd5e-srd answered %q", r.Content)
	}
	for _, cat := range []string{"spells", "features", "creatures"} {
		r := core.OnCommand(ctx, bot.Command{Name: "catalog search", Options: []bot.Option{{Name: "catalog", Value: cat}, {Name: "query", Value: "a"}},
			User: gm, ChannelID: "2000", GuildID: "3000"})
		if len(r.Embeds) == 0 || !strings.Contains(r.Embeds[0].Title, "entries") {
			return fmt.Errorf("/catalog search catalog:%s answered %q", cat, r.Content)
		}
	}
	debug.FreeOSMemory() // a forced collection that also returns the freed pages
	rss, err := vmRSS()
	if err != nil {
		return err
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintln(w, "pkg: sheetkeeper/internal/benchreport")
	fmt.Fprintf(w, "BenchmarkIdleRSS5e 1 %.1f rss-MB %.1f heap-MB\n", float64(rss)/(1<<20), float64(ms.HeapInuse)/(1<<20))
	runtime.KeepAlive(core)
	return nil
}

// vmRSS reads the process's resident set size, in bytes, from /proc/self/status.
func vmRSS() (int64, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("idle RSS needs Linux's /proc: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("/proc/self/status VmRSS %q: %w", v, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("/proc/self/status has no VmRSS line")
}
