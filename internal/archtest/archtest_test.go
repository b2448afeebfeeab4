package archtest

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// pure are the package patterns that must not depend on Fyne or Ebiten: the core both shells
// use, the shared helpers and the drawing code that the CLI-only build links.
var pure = []string{
	"pcgwb/problems/...", "pcgwb/games/...", "pcgwb/llm/...", "pcgwb/stats/...",
	"pcgwb/internal/...", "pcgwb/assets/...", "pcgwb/canvas", "pcgwb/canvas/birdsview",
}

// ebitenImporters are the only packages allowed to import Ebiten themselves: each runs in a
// child process of its own (Fyne and Ebiten each want the main thread).
var ebitenImporters = map[string]bool{
	"pcgwb/canvas/playwindow":       true,
	"pcgwb/canvas/birdsview/window": true,
}

func isGUI(path string) bool {
	return strings.HasPrefix(path, "fyne.io/") || isEbiten(path)
}

func isEbiten(path string) bool {
	return strings.HasPrefix(path, "github.com/hajimehoshi/ebiten")
}

// goList runs `go list` with the template over the patterns and returns one line per package:
// its import path followed by the listed paths.
func goList(t *testing.T, args ...string) map[string][]string {
	t.Helper()
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(gobin); err != nil {
		gobin = "go"
	}
	cmd := exec.Command(gobin, append([]string{"list"}, args...)...)
	cmd.Dir = "../.." // the module root
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, msg)
	}
	pkgs := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		pkgs[f[0]] = append(pkgs[f[0]], f[1:]...)
	}
	return pkgs
}

// TestCoreImportsNoGUI: no core package depends on Fyne or Ebiten, with its tests (go list
// -test lists the test variants too, so a test helper that opens a window is caught).
func TestCoreImportsNoGUI(t *testing.T) {
	pkgs := goList(t, append([]string{"-test", "-f", `{{.ImportPath}} {{join .Deps " "}}`}, pure...)...)
	if len(pkgs) < 40 {
		t.Fatalf("go list found only %d core packages: the patterns are wrong", len(pkgs))
	}
	for pkg, deps := range pkgs {
		for _, d := range deps {
			if isGUI(d) {
				t.Errorf("%s depends on %s: the core must build without Fyne and Ebiten", pkg, d)
				break
			}
		}
	}
}

// TestEbitenOnlyInChildWindows: Ebiten is imported only by the two window packages under canvas/,
// and the Fyne shell never links it (the play and physics windows are child processes).
func TestEbitenOnlyInChildWindows(t *testing.T) {
	for pkg, imports := range goList(t, "-f", `{{.ImportPath}} {{join .Imports " "}}`, "pcgwb/...") {
		for _, imp := range imports {
			if isEbiten(imp) && !ebitenImporters[pkg] {
				t.Errorf("%s imports %s: only %v may", pkg, imp, keys(ebitenImporters))
			}
		}
	}
	for pkg, deps := range goList(t, "-f", `{{.ImportPath}} {{join .Deps " "}}`, "pcgwb/app/...") {
		for _, d := range deps {
			if isEbiten(d) {
				t.Errorf("%s depends on %s: the GUI starts the play windows as child processes instead", pkg, d)
				break
			}
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// maxShellLines bounds a source file of the shells (app/, cmd/): past it, a file holds more than
// one concern and is split (tests are exempt).
const maxShellLines = 400

// TestShellFilesAreSmall: no non-test Go file under app/ or cmd/ is longer than maxShellLines.
func TestShellFilesAreSmall(t *testing.T) {
	n := 0
	for _, dir := range []string{"app", "cmd"} {
		err := filepath.WalkDir(filepath.Join("..", "..", dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			n++
			if lines := bytes.Count(data, []byte("\n")); lines > maxShellLines {
				t.Errorf("%s has %d lines: split it (at most %d in app/ and cmd/)", filepath.ToSlash(path[len("../../"):]), lines, maxShellLines)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 50 {
		t.Fatalf("found only %d shell files: wrong folder", n)
	}
}

// widgetsMayNotImport are the prefixes of what pcgwb/app/widgets (the shared widgets) must not
// import: the domain packages and the workbench window itself. A widget is given what it needs
// at construction.
var widgetsMayNotImport = []string{"pcgwb/problems", "pcgwb/games", "pcgwb/llm", "pcgwb/stats", "pcgwb/app"}

// TestWidgetsKnowNoDomain: app/widgets imports (its tests included) no problems/, games/, llm/
// or stats/ package and nothing of app/ but itself.
func TestWidgetsKnowNoDomain(t *testing.T) {
	pkgs := goList(t, "-test", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "pcgwb/app/widgets")
	if len(pkgs) == 0 {
		t.Fatal("go list found no pcgwb/app/widgets")
	}
	for pkg, imports := range pkgs {
		for _, imp := range imports {
			if imp == "pcgwb/app/widgets" {
				continue
			}
			for _, bad := range widgetsMayNotImport {
				if imp == bad || strings.HasPrefix(imp, bad+"/") {
					t.Errorf("%s imports %s: a shared widget knows no domain and no window", pkg, imp)
				}
			}
		}
	}
}

// TestEveryPackageHasADocComment: go doc has something to say about every package.
func TestEveryPackageHasADocComment(t *testing.T) {
	for pkg, doc := range goList(t, "-f", `{{.ImportPath}} {{.Doc}}`, "pcgwb/...") {
		if len(doc) == 0 {
			t.Errorf("%s has no package doc comment", pkg)
		}
	}
}
