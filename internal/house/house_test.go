// Package house checks that the code is the house the README draws: every package is in
// the README's table under "The code", imports only what its row allows, the engine
// packages do no I/O, nothing is registered from init, and nothing the program runs
// imports the testing packages. The rules are read from the source, not from a list kept
// beside it, so a new package or a new import that breaks them fails here.
package house

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

const module = "sheetkeeper"

// pkg is one package of the module as its non-test files are.
type pkg struct {
	path    string   // import path
	dir     string   // folder
	name    string   // package name
	imports []string // every import of its non-test files
	files   []string // its non-test files
}

// packages reads every package of the module below root.
func packages(t *testing.T, root string) map[string]*pkg {
	t.Helper()
	out := map[string]*pkg{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		base := d.Name()
		if p != root && (base == "testdata" || strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
			return filepath.SkipDir
		}
		bp, err := build.ImportDir(p, 0)
		if err != nil {
			if _, none := err.(*build.NoGoError); none {
				return nil
			}
			return err
		}
		if len(bp.GoFiles) == 0 {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		ip := module
		if rel != "." {
			ip = module + "/" + filepath.ToSlash(rel)
		}
		files := make([]string, len(bp.GoFiles))
		for i, f := range bp.GoFiles {
			files[i] = filepath.Join(p, f)
		}
		out[ip] = &pkg{path: ip, dir: p, name: bp.Name, imports: bp.Imports, files: files}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// row is one package's line in the README's table: what it may import of the module.
type row struct {
	mayImport []string
}

var (
	rowRE  = regexp.MustCompile("^\\|\\s*`([^`]+)`\\s*\\|([^|]*)\\|([^|]*)\\|\\s*$")
	codeRE = regexp.MustCompile("`([^`]+)`")
)

// table reads the package table from the README's "The code" section: rows of
// "| `pkg` | what it owns | `a`, `b` |", with package paths relative to the module and
// "—" for a package that imports none of the module.
func table(t *testing.T, readme string) map[string]row {
	t.Helper()
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## The code\n")
	if !ok {
		t.Fatal("README has no \"## The code\" section")
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	rows := map[string]row{}
	for _, line := range strings.Split(section, "\n") {
		m := rowRE.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		var r row
		for _, c := range codeRE.FindAllStringSubmatch(m[3], -1) {
			r.mayImport = append(r.mayImport, c[1])
		}
		rows[m[1]] = r
	}
	if len(rows) == 0 {
		t.Fatal("README's \"The code\" section has no package table")
	}
	return rows
}

func short(ip string) string { return strings.TrimPrefix(strings.TrimPrefix(ip, module), "/") }

func root(t *testing.T) string {
	t.Helper()
	r, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestReadmeTable: every package has a row, every row a package, and a package imports
// exactly the module's packages its row names.
func TestReadmeTable(t *testing.T) {
	r := root(t)
	pkgs := packages(t, r)
	rows := table(t, filepath.Join(r, "README.md"))
	for ip, p := range pkgs {
		name := short(ip)
		if name == "internal/house" {
			continue
		}
		rw, ok := rows[name]
		if !ok {
			t.Errorf("package %s has no row in the README's table", name)
			continue
		}
		var own []string
		for _, imp := range p.imports {
			if imp != module && !strings.HasPrefix(imp, module+"/") {
				continue
			}
			own = append(own, short(imp))
			if !slices.Contains(rw.mayImport, short(imp)) {
				t.Errorf("%s imports %s, which its README row does not allow", name, short(imp))
			}
		}
		for _, allowed := range rw.mayImport {
			if !slices.Contains(own, allowed) {
				t.Errorf("%s's README row names %s, which it does not import: the row must say what is true", name, allowed)
			}
		}
	}
	for name := range rows {
		if _, ok := pkgs[module+"/"+name]; !ok {
			t.Errorf("the README's table names %s, which is no package", name)
		}
	}
}

// pure are the engine's packages: they take bytes and values and return values, so the
// same input gives the same answer and a test needs no disk, network or clock.
var pure = []string{"refusal", "strictjson", "parser", "ruleset", "catalog", "sheet", "check", "suggest", "inventory"}

// isPure reports whether a package is one of the engine's or below one.
func isPure(name string) bool {
	for _, p := range pure {
		if name == p || strings.HasPrefix(name, p+"/") {
			return true
		}
	}
	return false
}

// forbiddenInEngine reports whether an import gives an engine package I/O, a transport
// or the code above it.
func forbiddenInEngine(imp string) bool {
	switch {
	case imp == "os", strings.HasPrefix(imp, "os/"), imp == "net", strings.HasPrefix(imp, "net/"),
		imp == "syscall", imp == "io/ioutil", imp == "time/tzdata":
		return true
	case imp == module+"/storage", strings.HasPrefix(imp, module+"/storage/"),
		imp == module+"/bot", strings.HasPrefix(imp, module+"/bot/"),
		imp == module+"/schedule", imp == module+"/config":
		return true
	case strings.HasPrefix(imp, "github.com/bwmarrin/discordgo"), strings.HasPrefix(imp, "go.etcd.io/"):
		return true
	}
	return false
}

// TestEngineDoesNoIO: the engine packages the program runs import nothing that reaches a
// file, a socket, the store or a front end. (A package only tests import, such as a
// fixture reader under internal/, is test support, not engine.)
func TestEngineDoesNoIO(t *testing.T) {
	pkgs := packages(t, root(t))
	run := reachable(pkgs, module+"/cmd/sheetkeeper")
	for ip, p := range pkgs {
		if !isPure(short(ip)) || !run[ip] {
			continue
		}
		for _, imp := range p.imports {
			if forbiddenInEngine(imp) {
				t.Errorf("engine package %s imports %s", short(ip), imp)
			}
		}
	}
}

// TestNoInit: no package fills state from init; a table is a value built where it is
// used. (A main package may still need one; none does today.)
func TestNoInit(t *testing.T) {
	fset := token.NewFileSet()
	for ip, p := range packages(t, root(t)) {
		for _, f := range p.files {
			file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" && p.name != "main" {
					t.Errorf("%s: func init in package %s", fset.Position(fd.Pos()), short(ip))
				}
			}
		}
	}
}

// TestProgramImportsNoTesting: nothing reachable from the program's main imports the
// testing packages (test support lives in packages only tests import).
func TestProgramImportsNoTesting(t *testing.T) {
	pkgs := packages(t, root(t))
	run := reachable(pkgs, module+"/cmd/sheetkeeper")
	if len(run) < 5 {
		t.Fatalf("reached only %d packages from cmd/sheetkeeper: the walk is broken", len(run))
	}
	var bad []string
	for ip := range run {
		for _, imp := range pkgs[ip].imports {
			if imp == "testing" || strings.HasPrefix(imp, "testing/") {
				bad = append(bad, short(ip)+" imports "+imp)
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// reachable is the set of the module's packages from imports, itself included: what the
// program built from it runs.
func reachable(pkgs map[string]*pkg, from string) map[string]bool {
	seen := map[string]bool{}
	var walk func(ip string)
	walk = func(ip string) {
		p, ok := pkgs[ip]
		if !ok || seen[ip] {
			return
		}
		seen[ip] = true
		for _, imp := range p.imports {
			walk(imp)
		}
	}
	walk(from)
	return seen
}
