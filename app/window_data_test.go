package app

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"pcgwb/problems"
	"pcgwb/problems/data"
	"pcgwb/problems/data/datatest"
)

// withoutData points every data lookup at empty folders for the test.
func withoutData(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	t.Setenv(data.EnvVar, "")
	t.Setenv("VIRTUAL_ENV", "")
	t.Setenv("CONDA_PREFIX", "")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
}

func TestGetTheDataMakesADisabledProblemUsable(t *testing.T) {
	for _, tc := range []struct {
		name, corrupt string
		wantStatus    string
		usable        bool
	}{
		{"corrupted", "smb/slices.txt", "SHA-256", false}, // first: a success is final in this process
		{"verified", "", "✓", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withoutData(t)
			archive := datatest.Archive(t, tc.corrupt)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(archive) }))
			defer srv.Close()
			old := dataArchiveSource
			dataArchiveSource = srv.URL + "/ref.tar.gz"
			defer func() { dataArchiveSource = old }()

			wb := newTestWorkbench(t)
			const name = "smb-v0"
			_, err := problems.Make(name)
			if err == nil {
				t.Fatal("smb-v0 made without its data")
			}
			o := wb.offerData(name, err)
			if o == nil {
				t.Fatal("no data offer for a problem missing its data")
			}
			if !strings.Contains(o.Message.Text, "smb/slices.txt") || !strings.Contains(o.License.Text, "MIT License") {
				t.Fatalf("offer text %q", o.Message.Text)
			}
			test.Tap(o.GetButton)
			deadline := time.Now().Add(30 * time.Second)
			for o.Running() && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			await(t, func(d time.Duration) error { return waitJobs(d) })
			settleUI(t)
			if !strings.Contains(o.Status.Text, tc.wantStatus) {
				t.Fatalf("status %q, want %q", o.Status.Text, tc.wantStatus)
			}
			if got := problems.Unavailable(name) == nil; got != tc.usable {
				t.Fatalf("usable %v, want %v", got, tc.usable)
			}
			if wb.picker.missing[name] != !tc.usable {
				t.Errorf("the picker still marks %s: %v", name, wb.picker.missing[name])
			}
			if tc.usable {
				if cur, _, err := wb.CurrentProblem(); cur != name || err != nil {
					t.Errorf("current problem %q (%v), want %s made with its data", cur, err, name)
				}
			}
		})
	}
}

// settleUI lets the callbacks queued with fyne.Do run.
func settleUI(t *testing.T) {
	t.Helper()
	done := make(chan struct{})
	go func() { fyne.Do(func() { close(done) }) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the UI did not settle")
	}
}
