package bot

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"sheetkeeper/content"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/bundle"
	"sheetkeeper/storage"
)

// /ruleset import, list, check and export (SPEC 4.2, 8.1). An imported ruleset is stored
// as local/<id> at its integer version, as the bytes it came in (one file, or a package's
// files), so it is validated again by exactly the loader every campaign uses, exported
// unchanged, and never rewritten: the same id and version with other content is refused
// ("raise version").

// rulesetCommands adds the /ruleset commands.
func rulesetCommands(r *router) {
	r.command(CommandSpec{
		Name:        "ruleset import",
		Description: "Install a ruleset: a Marinara ruleset .json or a package .zip",
		Options: []OptionSpec{
			{Name: "file", Description: "The ruleset file (.json) or package (.zip)", Type: "attachment", Required: true},
		},
	}, (*Core).cmdRulesetImport)
	r.command(CommandSpec{
		Name:        "ruleset list",
		Description: "List the rulesets a campaign can be played on, with their versions",
	}, (*Core).cmdRulesetList)
	r.command(CommandSpec{
		Name:        "ruleset check",
		Description: "Check a ruleset file or package without installing it; every mistake is listed",
		Options: []OptionSpec{
			{Name: "file", Description: "The ruleset file (.json) or package (.zip)", Type: "attachment", Required: true},
		},
	}, (*Core).cmdRulesetCheck)
	r.command(CommandSpec{
		Name:        "ruleset export",
		Description: "Download an installed ruleset as it was imported (a package as a .zip)",
		Options: []OptionSpec{
			{Name: "id", Description: "Ruleset id (low-vell, local/my-game or just my-game)", Type: "string", Required: true},
			{Name: "version", Description: "Version to export (default: the newest)", Type: "integer"},
		},
	}, (*Core).cmdRulesetExport).
		complete("id", (*Core).rulesetChoices)
}

// maxShownText bounds the problems listed in a message; the full list comes as a file
// beside it.
const maxShownText = 1800

// readUpload reads an attachment as a ruleset: the record it would be stored as (id
// local/<id>) and the ruleset loaded from that record by the loader campaigns use. A
// problem with the upload is returned as the error (strictjson.Problems, each of a
// kind): the author's to fix, shown in full.
func readUpload(att *Attachment) (*storage.RulesetRecord, *ruleset.Loaded, error) {
	rec := &storage.RulesetRecord{}
	switch {
	case att.Folder != nil:
		files, err := packageFiles(att.Folder)
		if err != nil {
			return nil, nil, err
		}
		rec.Files = files
	case bundle.IsZip(att.Name, att.Data):
		if _, err := bundle.Read(bytes.NewReader(att.Data), int64(len(att.Data))); err != nil {
			return nil, nil, err
		}
		fsys, err := bundle.ZipFS(bytes.NewReader(att.Data), int64(len(att.Data)))
		if err != nil {
			return nil, nil, err
		}
		files, err := packageFiles(fsys)
		if err != nil {
			return nil, nil, err
		}
		rec.Files = files
	default:
		rec.File = att.Data
	}
	l, err := loadRecord(rec)
	if err != nil {
		return nil, nil, err
	}
	rec.ID, rec.Version, rec.Name, rec.Digest = "local/"+l.ID, l.Version, l.Name, l.Digest
	return rec, l, nil
}

// packageFiles reads a package's manifest.json and every file it lists, each bounded by
// the size the manifest declares (the loader then checks sizes and hashes).
func packageFiles(fsys fs.FS) (map[string][]byte, error) {
	manifest, err := readBounded(fsys, "manifest.json", bundle.MaxManifestBytes)
	if err != nil {
		return nil, fmt.Errorf("manifest.json: %w", err)
	}
	m, err := bundle.ParseManifest(manifest)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{"manifest.json": manifest}
	for _, f := range m.Files {
		data, err := readBounded(fsys, f.Path, f.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		files[f.Path] = data
	}
	return files, nil
}

// readBounded reads at most limit+1 bytes of name: enough for the loader to see a file
// is bigger than declared, never more.
func readBounded(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("missing from the package")
		}
		return nil, err
	}
	defer f.Close()
	return bundle.ReadLimited(f, limit)
}

// builtinRecord is a built-in ruleset as a store record, and the ruleset loaded from it.
func builtinRecord(b content.Builtin) (*storage.RulesetRecord, *ruleset.Loaded, error) {
	rec := &storage.RulesetRecord{ID: b.ID, Name: b.Name}
	if b.IsPackage() {
		files, err := packageFiles(b.Package)
		if err != nil {
			return nil, nil, fmt.Errorf("built-in ruleset %s: %w", b.ID, err)
		}
		rec.Files = files
	} else {
		rec.File = b.File
	}
	l, err := loadRecord(rec)
	if err != nil {
		return nil, nil, fmt.Errorf("built-in ruleset %s: %w", b.ID, err)
	}
	rec.Version, rec.Digest = l.Version, l.Digest
	return rec, l, nil
}

// builtinVersion reads a built-in's version from its ruleset document alone, without
// loading the whole ruleset.
func builtinVersion(b content.Builtin) (int, error) {
	data, err := b.RulesetJSON()
	if err != nil {
		return 0, err
	}
	var head struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return 0, fmt.Errorf("built-in ruleset %s: %w", b.ID, err)
	}
	return head.Version, nil
}

// catalogProblems checks each standalone catalog file of a package ruleset now, rather
// than when the picker first asks: one line per catalog with mistakes.
func catalogProblems(l *ruleset.Loaded) []string {
	var out []string
	for i := range l.Catalogs {
		cat := &l.Catalogs[i]
		if cat.Asset == nil {
			continue
		}
		if _, err := l.Entries(cat.ID); err != nil {
			out = append(out, fmt.Sprintf("catalog %s (%s):\n%s", cat.ID, cat.AssetPath(), err))
		}
	}
	return out
}

// summary is one line saying what a ruleset holds.
func summary(l *ruleset.Loaded) string {
	var parts []string
	s := &l.Sheet
	parts = append(parts, plural(len(s.Abilities), "ability", "abilities"), plural(len(s.Skills), "skill", "skills"),
		plural(len(s.Live.Pools), "pool", "pools"))
	entries := 0
	for i := range l.Catalogs {
		if es, err := l.Entries(l.Catalogs[i].ID); err == nil {
			entries += len(es)
		}
	}
	if len(l.Catalogs) > 0 {
		parts = append(parts, fmt.Sprintf("%s (%s)", plural(len(l.Catalogs), "catalog", "catalogs"), plural(entries, "entry", "entries")))
	}
	if len(l.Layers) > 0 {
		parts = append(parts, plural(len(l.Layers), "layer", "layers"))
	}
	if l.Package != nil {
		parts = append(parts, "package, Capability API "+l.Package.CapabilityAPI.String())
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// problemsResponse shows what is wrong with an upload: every problem, in a message when
// they fit and as a problems.txt file beside a shortened message when they do not.
func problemsResponse(head string, err error) Response {
	text := head + "\n" + err.Error()
	resp := Response{Content: text, Ephemeral: true}
	if len(text) > maxShownText {
		cut := strings.LastIndexByte(text[:maxShownText], '\n')
		if cut < len(head) {
			cut = maxShownText
		}
		resp.Content = text[:cut] + "\n… (the full list is in problems.txt)"
		resp.Files = []File{{Name: "problems.txt", Data: []byte(text + "\n")}}
	}
	return resp
}

func (c *Core) cmdRulesetImport(ctx context.Context, cmd Command) (Response, error) {
	// Refused before the upload is read, and again where it is written (a GM removed
	// meanwhile cannot slip through).
	if err := c.store.View(ctx, func(tx storage.Tx) error { return mayInstall(tx, cmd) }); err != nil {
		return Response{}, err
	}
	rec, l, err := readUpload(cmd.File("file"))
	if err != nil {
		return problemsResponse("That ruleset cannot be installed:", err), nil
	}
	rec.Guild = storage.RulesetHome(cmd.GuildID, rec.ID)
	warnings := catalogProblems(l)
	var resp Response
	err = c.store.Update(ctx, func(tx storage.Tx) error {
		if err := mayInstall(tx, cmd); err != nil {
			return err
		}
		old, err := tx.Ruleset(rec.Guild, rec.ID, rec.Version)
		switch {
		case err == nil && old.Digest == rec.Digest:
			resp = Response{Content: fmt.Sprintf("%s v%d (%s) is installed already, with this same content.", rec.ID, rec.Version, rec.Name), Ephemeral: true}
			return nil
		case err == nil:
			return refusal.New(refusal.NotAllowed, "%s v%d is installed already with other content: raise version (the file's \"version\") and import it again; campaigns on v%d keep it unchanged",
				rec.ID, rec.Version, rec.Version)
		case storage.KindOf(err) != storage.NotFound:
			return err
		}
		r := *rec
		r.InstalledBy, r.InstalledAt = cmd.User.ID, c.Now()
		if err := tx.PutRuleset(&r); err != nil {
			return err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "Installed **%s** as %s v%d: %s.", rec.Name, rec.ID, rec.Version, summary(l))
		older, err := olderCampaigns(tx, rec.Guild, rec.ID, rec.Version)
		if err != nil {
			return err
		}
		if older > 0 {
			fmt.Fprintf(&b, "\nOlder versions stay in use by %s until a GM runs /campaign upgrade there.", plural(older, "campaign", "campaigns"))
		}
		b.WriteString("\nStart a game on it with `/campaign create ruleset:" + strings.TrimPrefix(rec.ID, "local/") + "`.")
		for _, w := range warnings {
			b.WriteString("\nThe picker will show mistakes instead of entries for " + w)
		}
		posts, err := c.versionNotices(tx, &r, l)
		if err != nil {
			return err
		}
		resp = Response{Content: b.String(), Posts: posts}
		return nil
	})
	return resp, err
}

// olderCampaigns counts the campaigns on an older version of ruleset id of namespace
// home: those of home's guild, for an imported id.
func olderCampaigns(tx storage.Tx, home, id string, version int) (int, error) {
	camps, err := tx.Campaigns()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, camp := range camps {
		if camp.Ruleset.ID == id && storage.RulesetHome(camp.GuildID, id) == home && camp.Ruleset.Version < version {
			n++
		}
	}
	return n, nil
}

func (c *Core) cmdRulesetCheck(ctx context.Context, cmd Command) (Response, error) {
	rec, l, err := readUpload(cmd.File("file"))
	if err != nil {
		return problemsResponse("That ruleset has mistakes:", err), nil
	}
	if ps := catalogProblems(l); len(ps) > 0 {
		return problemsResponse(fmt.Sprintf("%s v%d reads, but its catalog files have mistakes:", rec.ID, rec.Version),
			errors.New(strings.Join(ps, "\n"))), nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** v%d is valid: %s.", rec.Name, rec.Version, summary(l))
	err = c.store.View(ctx, func(tx storage.Tx) error {
		old, err := installedRuleset(tx, cmd.GuildID, rec.ID, rec.Version)
		switch {
		case err == nil && old.Digest == rec.Digest:
			fmt.Fprintf(&b, "\nIt is installed as %s v%d already.", rec.ID, rec.Version)
		case err == nil:
			fmt.Fprintf(&b, "\n%s v%d is installed with other content: raise version before importing this.", rec.ID, rec.Version)
		case storage.KindOf(err) == storage.NotFound:
			fmt.Fprintf(&b, "\n/ruleset import would install it as %s v%d.", rec.ID, rec.Version)
		default:
			return err
		}
		return nil
	})
	return Response{Content: b.String(), Ephemeral: true}, err
}

func (c *Core) cmdRulesetList(ctx context.Context, cmd Command) (Response, error) {
	builtins, err := content.Builtins()
	if err != nil {
		return Response{}, err
	}
	var lines []string
	err = c.store.View(ctx, func(tx storage.Tx) error {
		lines = lines[:0]
		stored, err := installedIDs(tx, cmd.GuildID)
		if err != nil {
			return err
		}
		seen := map[string]bool{}
		for _, b := range builtins {
			seen[b.ID] = true
			v, err := builtinVersion(b)
			if err != nil {
				return err
			}
			vs, err := versionsOf(tx, cmd.GuildID, b.ID, v)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("`%s` — %s, %s (built-in)", b.ID, b.Name, versionList(vs)))
		}
		slices.Sort(stored)
		for _, id := range stored {
			if seen[id] {
				continue
			}
			vs, err := versionsOf(tx, cmd.GuildID, id, 0)
			if err != nil {
				return err
			}
			if len(vs) == 0 {
				continue
			}
			rec, err := installedRuleset(tx, cmd.GuildID, id, vs[len(vs)-1])
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("`%s` — %s, %s", id, rec.Name, versionList(vs)))
		}
		return nil
	})
	if err != nil {
		return Response{}, err
	}
	return Response{Content: "**Rulesets**\n" + strings.Join(lines, "\n") +
		"\nStart a game with `/campaign create ruleset:<id>`; add one with `/ruleset import`.", Ephemeral: true}, nil
}

// versionsOf lists the versions of id stored as guild sees them, with extra (a
// built-in's own, 0 for none) among them, oldest first.
func versionsOf(tx storage.Tx, guild, id string, extra int) ([]int, error) {
	vs, err := installedVersions(tx, guild, id)
	if err != nil {
		return nil, err
	}
	vs = slices.Clone(vs)
	if extra > 0 && !slices.Contains(vs, extra) {
		vs = append(vs, extra)
	}
	slices.Sort(vs)
	return vs, nil
}

func versionList(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = "v" + strconv.Itoa(v)
	}
	if len(s) == 1 {
		return s[0]
	}
	return "versions " + strings.Join(s, ", ")
}

func (c *Core) cmdRulesetExport(ctx context.Context, cmd Command) (Response, error) {
	version := 0
	if v := strings.TrimSpace(cmd.Get("version")); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return Response{}, refusal.New(refusal.BadAmount, "version must be a whole number from 1")
		}
		version = n
	}
	var rec *storage.RulesetRecord
	err := c.store.View(ctx, func(tx storage.Tx) error {
		ref, err := c.newestRuleset(tx, cmd.GuildID, cmd.Get("id"))
		if err != nil {
			return err
		}
		if version > 0 {
			ref.Version = version
		}
		rec, err = exportRecord(tx, cmd.GuildID, ref.ID, ref.Version)
		return err
	})
	if err != nil {
		return Response{}, err
	}
	base := strings.TrimPrefix(rec.ID, "local/")
	if rec.Files == nil {
		return Response{Content: fmt.Sprintf("%s v%d (%s), as it was imported.", rec.ID, rec.Version, rec.Name), Ephemeral: true,
			Files: []File{{Name: fmt.Sprintf("%s-v%d.json", base, rec.Version), Data: rec.File}}}, nil
	}
	data, err := zipFiles(rec.Files)
	if err != nil {
		return Response{}, err
	}
	return Response{Content: fmt.Sprintf("%s v%d (%s), a package of %s.", rec.ID, rec.Version, rec.Name, plural(len(rec.Files), "file", "files")), Ephemeral: true,
		Files: []File{{Name: fmt.Sprintf("%s-v%d.zip", base, rec.Version), Data: data}}}, nil
}

// exportRecord finds the record of id at version: the store's as guild sees it, else
// the built-in's own.
func exportRecord(tx storage.Tx, guild, id string, version int) (*storage.RulesetRecord, error) {
	rec, err := installedRuleset(tx, guild, id, version)
	if err == nil {
		return rec, nil
	}
	if storage.KindOf(err) != storage.NotFound {
		return nil, err
	}
	if b, ok, err := content.Lookup(id); err != nil {
		return nil, err
	} else if ok {
		rec, _, err := builtinRecord(b)
		if err != nil {
			return nil, err
		}
		if rec.Version == version {
			return rec, nil
		}
	}
	return nil, refusal.New(refusal.NotAllowed, "%s v%d is not installed", id, version)
}

// zipFiles packs a package's files into a .zip, paths sorted, manifest.json first.
func zipFiles(files map[string][]byte) ([]byte, error) {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int {
		if (a == "manifest.json") != (b == "manifest.json") {
			if a == "manifest.json" {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate})
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(files[name]); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
