package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pcgwb/problems/data/datatest"
)

func TestDataDownloadCommand(t *testing.T) {
	for _, tc := range []struct {
		name     string
		corrupt  string
		args     []string
		wantCode int
		wantOut  string
	}{
		{"verified", "", []string{"--yes"}, 0, "ok       smb/slices.txt"},
		{"corrupted", "elimination/count.txt", []string{"--yes"}, 1, "invalid  elimination/count.txt"},
		{"not accepted", "", nil, 2, "MIT License"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := noData(t)
			archive := datatest.Archive(t, tc.corrupt)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(archive) }))
			defer srv.Close()
			args := append([]string{"data", "download", "--from", srv.URL + "/a.tar.gz"}, tc.args...)
			code, out, errs := runCLI(t, args...)
			if code != tc.wantCode || !strings.Contains(out, tc.wantOut) || !strings.Contains(out, "MIT License") {
				t.Fatalf("exit %d (want %d), stdout:\n%s\nstderr: %s", code, tc.wantCode, out, errs)
			}
			installed := filepath.Join(home, ".config", "pcg-workbench", "data")
			if tc.corrupt != "" {
				if _, err := os.Stat(filepath.Join(installed, filepath.FromSlash(tc.corrupt))); err == nil {
					t.Error("the corrupted file was installed")
				}
			}
			if tc.wantCode == 0 {
				code, out, _ := runCLI(t, "problems")
				if code != 0 || strings.Contains(out, "needs data") {
					t.Errorf("still missing data after the download:\n%s", out)
				}
				if !strings.Contains(errs, "download:") {
					t.Errorf("no progress on stderr: %q", errs)
				}
			}
		})
	}
	noData(t)
	if code, _, _ := runCLI(t, "data", "download", "--from", filepath.Join(t.TempDir(), "nope.tar.gz"), "--yes"); code != 2 {
		t.Errorf("missing archive: exit %d, want 2", code)
	}
}

func TestDataImportRefusesLinksWithoutQuoting(t *testing.T) {
	noData(t)
	src := t.TempDir()
	secret := filepath.Join(t.TempDir(), "shadow")
	os.WriteFile(secret, []byte("root:SECRET-HASH:19000::::::\n"), 0o600)
	os.MkdirAll(filepath.Join(src, "elimination"), 0o755)
	if err := os.Symlink(secret, filepath.Join(src, "elimination", "dictionary.txt")); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "data", "import", src)
	if code != 2 || strings.Contains(out+errs, "SECRET") || !strings.Contains(out, "symbolic link") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
}

func TestSampleIsCapped(t *testing.T) {
	if code, out, errs := runCLI(t, "sample", "zelda-v0", "-n", "100000000"); code != 2 || out != "" || !strings.Contains(errs, "-n must be") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestRenderRefusesUnsafeOrCollidingIDs(t *testing.T) {
	_, sample, _ := runCLI(t, "sample", "binary-v0", "-n", "2")
	var f struct {
		Items []map[string]any `json:"items"`
	}
	if err := json.Unmarshal([]byte(sample), &f); err != nil {
		t.Fatal(err)
	}
	for _, ids := range [][2]string{{"a/b", "c"}, {"a?b", "c"}, {"..", "c"}, {".hidden", "c"}, {"same", "SAME"}, {"000", "x"}} {
		t.Run(ids[0]+","+ids[1], func(t *testing.T) {
			dir := t.TempDir()
			if ids[0] == "000" {
				delete(f.Items[0], "id")
				f.Items[1]["id"] = "000"
			} else {
				f.Items[0]["id"], f.Items[1]["id"] = ids[0], ids[1]
			}
			b, _ := json.Marshal(f)
			in := filepath.Join(dir, "in.json")
			os.WriteFile(in, b, 0o644)
			out := filepath.Join(dir, "png")
			code, _, errs := runCLI(t, "render", "binary-v0", in, "--out", out)
			if code != 2 {
				t.Fatalf("exit %d, want 2: %s", code, errs)
			}
			if entries, _ := os.ReadDir(out); len(entries) != 0 {
				t.Errorf("files written before refusing: %v", entries)
			}
		})
	}
}

func TestEvalAcceptsBOMRefusesFractionsAndHugeFiles(t *testing.T) {
	dir := t.TempDir()
	_, sample, _ := runCLI(t, "sample", "binary-v0", "-n", "2")
	bom := filepath.Join(dir, "bom.json")
	os.WriteFile(bom, append([]byte("\xef\xbb\xbf"), sample...), 0o644)
	if code, _, errs := runCLI(t, "eval", "binary-v0", bom); code != 0 {
		t.Errorf("BOM: exit %d: %s", code, errs)
	}
	// The first tile of the first item becomes 1.5, whatever the sample's layout.
	var doc struct {
		Problem string `json:"problem"`
		Items   []struct {
			Content [][]any `json:"content"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(sample), &doc); err != nil || len(doc.Items) != 2 || len(doc.Items[0].Content) == 0 {
		t.Fatalf("sample: %v: %.200s", err, sample)
	}
	doc.Items[0].Content[0][0] = 1.5
	fracJSON, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	frac := filepath.Join(dir, "frac.json")
	if err := os.WriteFile(frac, fracJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI(t, "eval", "binary-v0", frac); code != 2 || !strings.Contains(errs, "1.5 is not an integer") {
		t.Errorf("fraction: exit %d: %s", code, errs)
	}
	big := filepath.Join(dir, "big.json")
	fh, _ := os.Create(big)
	fh.Truncate(maxItemFileBytes + 1)
	fh.Close()
	if code, _, errs := runCLI(t, "eval", "binary-v0", big); code != 2 || !strings.Contains(errs, "too large") || len(errs) > 400 {
		t.Errorf("huge file: exit %d: %q", code, errs)
	}
}

func TestEvalOfALargeSetShowsProgress(t *testing.T) {
	dir := t.TempDir()
	_, sample, _ := runCLI(t, "sample", "zelda-v0", "-n", "1500", "--seed", "3")
	in := filepath.Join(dir, "in.json")
	os.WriteFile(in, []byte(sample), 0o644)
	code, out, errs := runCLI(t, "eval", "zelda-v0", in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "eval: infos: 1500/1500 items") || !strings.Contains(errs, "eval: diversity: 1500/1500 rows (2250000 of 2250000 pairs)") {
		t.Errorf("progress on stderr: %q", errs)
	}
	var res struct {
		Details struct {
			Diversity []float64 `json:"diversity"`
		} `json:"details"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Details.Diversity) != 1500 {
		t.Fatalf("output: %v", err)
	}
}

func TestLLMPromptAndTestBadInputExit2(t *testing.T) {
	for _, args := range [][]string{
		{"llm", "prompt", "--problem", "zelda-v0", "--template", "no-such-template"},
		{"llm", "prompt", "--problem", "zelda-v0", "--examples-from", filepath.Join(t.TempDir(), "missing")},
		{"llm", "prompt", "--problem", "zelda-larg-v0"},
		{"llm", "test", "--model", "m", "--base-url", "http://example.test/v1"},
		{"llm", "test", "--model", "m", "--base-url", "http://127.0.0.1:1/v1", "--max-reply-bytes", "0"},
	} {
		if code, _, errs := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errs)
		}
	}
}
