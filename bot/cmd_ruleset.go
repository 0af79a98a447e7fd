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
	"unicode/utf8"

	"sheetkeeper/content"
	"sheetkeeper/refusal"
	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/bundle"
	"sheetkeeper/storage"
	"sheetkeeper/strictjson"
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

// What an answer shows of a list of problems: at most maxShownProblems of them in at
// most maxShownText characters, then a line counting the rest; the whole list (as the
// loader kept it, strictjson.MaxProblems and a count) comes as problems.txt beside it.
// A hostile file may hold a million mistakes; nobody reads past the first few.
const (
	maxShownText     = 1800
	maxShownProblems = 50
	problemsFile     = "problems.txt"
	fullListNote     = "\n… (the full list is in " + problemsFile + ")"
)

// readUpload reads an attachment as a ruleset: the record it would be stored as (id
// local/<id>) and the ruleset loaded from that record by the loader campaigns use. A
// problem with the upload is returned as the error (strictjson.Problems, each of a
// kind): the author's to fix, shown in full.
func readUpload(att *Attachment) (*storage.RulesetRecord, *ruleset.Loaded, error) {
	rec := &storage.RulesetRecord{}
	switch {
	case att.Folder != nil:
		// Read as a package first, as a zip is: a link leading out of the folder (which
		// its os.Root refuses to follow) is refused unsafe, naming the file.
		b, err := bundle.FromFS(att.Folder)
		if err != nil {
			return nil, nil, err
		}
		b.Close()
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
	manifest, err := readBounded(fsys, "manifest.json", bundle.MaxManifestBytes, false)
	if err != nil {
		return nil, pathError("manifest.json", err)
	}
	m, err := bundle.ParseManifest(manifest)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{"manifest.json": manifest}
	for _, f := range m.Files {
		data, err := readBounded(fsys, f.Path, f.Bytes, true)
		if err != nil {
			return nil, pathError(f.Path, err)
		}
		files[f.Path] = data
	}
	return files, nil
}

// pathError puts a file's path before an error about it; problems carry their path.
func pathError(path string, err error) error {
	var ps strictjson.Problems
	if errors.As(err, &ps) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// readBounded reads at most limit+1 bytes of name: enough to see a file is bigger than
// declared (the manifest's bytes) or allowed, never more. A bigger file is refused here
// with its true size, as its file system tells it: the loader would only see limit+1.
func readBounded(fsys fs.FS, name string, limit int64, declared bool) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("missing from the package")
		}
		return nil, err
	}
	defer f.Close()
	data, err := bundle.ReadLimited(f, limit)
	if err != nil || int64(len(data)) <= limit {
		return data, err
	}
	size := "more than " + strconv.FormatInt(limit, 10)
	if st, err := f.Stat(); err == nil && st.Size() > limit {
		size = strconv.FormatInt(st.Size(), 10)
	}
	if declared {
		return nil, strictjson.Problems{{Kind: strictjson.Integrity, Path: name, Msg: "is " + size + " bytes; the manifest declares " + strconv.FormatInt(limit, 10)}}
	}
	return nil, strictjson.Problems{{Kind: strictjson.Limit, Path: name, Msg: "is " + size + " bytes, over the " + strconv.FormatInt(limit, 10) + "-byte limit"}}
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
// than when the picker first asks. For each catalog with mistakes it shows a heading
// and its problems, at most maxShownProblems of them in all; whole is the full list and
// cut says whether shown leaves some of it out.
func catalogProblems(l *ruleset.Loaded) (shown []string, whole string, cut bool) {
	var all []string
	budget := maxShownProblems
	for i := range l.Catalogs {
		cat := &l.Catalogs[i]
		if cat.Asset == nil {
			continue
		}
		_, err := l.Entries(cat.ID)
		if err == nil {
			continue
		}
		heading := fmt.Sprintf("catalog %s (%s):\n", cat.ID, cat.AssetPath())
		all = append(all, heading+err.Error())
		text, left := headOf(err, max(budget, 1), maxShownText/2)
		budget -= problemCount(err)
		shown = append(shown, heading+text)
		cut = cut || left
	}
	return shown, strings.Join(all, "\n"), cut || budget < 0
}

// headOf is what a message shows of err's problems: as many of the first n as fit in
// room characters and a line counting the rest; cut says whether some were left out.
func headOf(err error, n, room int) (text string, cut bool) {
	var ps strictjson.Problems
	if !errors.As(err, &ps) {
		lines := strings.Split(err.Error(), "\n")
		k := fitting(len(lines), n, room, func(i int) int { return len(lines[i]) })
		if k == len(lines) {
			return err.Error(), false
		}
		return strings.Join(lines[:k], "\n") + "\n… and " + strconv.Itoa(len(lines)-k) + " more lines", true
	}
	k := fitting(len(ps), n, room, func(i int) int { return len(ps[i].String()) })
	return ps.Head(k).Error(), ps.Total() > k
}

// fitting is how many of the first n of count lines fit in room characters with a line
// counting the rest ("… and 12,345 more problems"); at least one.
func fitting(count, n, room int, length func(int) int) int {
	const countLine = 40
	k, used := 0, 0
	for k < min(count, n) {
		used += length(k) + 1
		if used > room-countLine {
			break
		}
		k++
	}
	return max(k, 1)
}

// problemCount is how many problems err stands for.
func problemCount(err error) int {
	var ps strictjson.Problems
	if errors.As(err, &ps) {
		return ps.Total()
	}
	return strings.Count(err.Error(), "\n") + 1
}

// problemsAttachment is the whole list of problems as the file beside an answer.
func problemsAttachment(text string) []File {
	return []File{{Name: problemsFile, Data: []byte(text + "\n")}}
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

// problemsResponse shows what is wrong with an upload: its problems in a message when
// they fit, else the first of them and, beside the shortened message, the whole list as
// problems.txt.
func problemsResponse(head string, err error) Response {
	shown, cut := headOf(err, maxShownProblems, maxShownText-len(head))
	return shownProblems(head, shown, err.Error(), cut)
}

// shownProblems is the private answer of head and the problems shown, with the whole
// list as a file when shown leaves some out (cut) or is too long for one message.
func shownProblems(head, shown, whole string, cut bool) Response {
	text := head + "\n" + shown
	resp := Response{Content: text, Ephemeral: true}
	if cut || len(text) > maxShownText {
		resp.Content = clipLines(text, len(head)) + fullListNote
		resp.Files = problemsAttachment(head + "\n" + whole)
	}
	return resp
}

// clipLines cuts text to maxShownText at a line break after keep bytes, else at the
// limit.
func clipLines(text string, keep int) string {
	if len(text) <= maxShownText {
		return text
	}
	cut := strings.LastIndexByte(text[:maxShownText], '\n')
	if cut < keep {
		cut = maxShownText
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
	}
	return text[:cut]
}

func (c *Core) cmdRulesetImport(ctx context.Context, cmd Command) (Response, error) {
	// Refused before the upload is read: the permission comes with the command.
	if err := mayInstall(cmd); err != nil {
		return Response{}, err
	}
	rec, l, err := readUpload(cmd.File("file"))
	if err != nil {
		return problemsResponse("That ruleset cannot be installed:", err), nil
	}
	rec.Guild = storage.RulesetHome(cmd.GuildID, rec.ID)
	warnings, allWarnings, cut := catalogProblems(l)
	var resp Response
	err = c.store.Update(ctx, func(tx storage.Tx) error {
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
		resp = importAnswer(b.String(), allWarnings, cut)
		resp.Posts = posts
		return nil
	})
	return resp, err
}

// importAnswer is an install's answer: its text, shortened to what one message holds
// when its catalogs' mistakes are many (cut: some are not in text), the whole list of
// them as a file beside it.
func importAnswer(text, warnings string, cut bool) Response {
	if !cut && len(text) <= maxShownText {
		return Response{Content: text}
	}
	return Response{Content: clipLines(text, 0) + fullListNote, Files: problemsAttachment(warnings)}
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
	if shown, whole, cut := catalogProblems(l); len(shown) > 0 {
		head := fmt.Sprintf("%s v%d reads, but its catalog files have mistakes:", rec.ID, rec.Version)
		return shownProblems(head, strings.Join(shown, "\n"), whole, cut), nil
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
