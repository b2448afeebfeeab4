package app

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"pcgwb/games/play"
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

// "Get the data…" refuses a corrupted archive and installs a good one, after which the problem
// is usable: the verified case goes on as the --get-data / --play scripting does (GetData,
// then PlaySampled on the first sample drawn with the data), with the play window replaced.
func TestGetTheDataMakesADisabledProblemUsable(t *testing.T) {
	for _, tc := range []struct {
		name, corrupt string
		scripted      bool // pressed through GetData, then a level played through PlaySampled
		wantStatus    string
		usable        bool
	}{
		{"corrupted", "smb/slices.txt", false, "SHA-256", false}, // first: a success is final in this process
		{"verified", "", true, "✓", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withoutData(t)
			archive := datatest.Archive(t, tc.corrupt)
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(archive) }))
			defer srv.Close()
			var reported []string
			var sets []*SampleSet
			var outcomes []*play.Outcome
			wb := newTestWorkbench(t, Options{Problem: fakeName, Samples: 2, DataSource: srv.URL + "/ref.tar.gz",
				OnData:    func(problem string, rep *data.Report, err error) { reported = append(reported, problem) },
				OnSampled: func(set *SampleSet, err error) { sets = append(sets, set) },
				PlayArgs:  []string{"--script", "rr"},
				OnPlayed:  func(o *play.Outcome, err error) { outcomes = append(outcomes, o) }})
			const name = "smb-v0"
			if wb.GetData() {
				t.Fatal("GetData pressed a button while the selected problem has its data")
			}
			if err := wb.selectProblem(name); err == nil {
				t.Fatal("smb-v0 made without its data")
			}
			o := wb.dataOffer
			if o == nil {
				t.Fatal("no data offer for a problem missing its data")
			}
			if !strings.Contains(o.message.Text, "smb/slices.txt") || !strings.Contains(o.license.Text, "MIT License") {
				t.Fatalf("offer text %q", o.message.Text)
			}
			if tc.scripted {
				if !wb.GetData() {
					t.Fatal("GetData did not press Get the data…")
				}
			} else {
				test.Tap(o.getButton)
			}
			eventually(t, "the download", func() bool { return !o.Running() })
			await(t, jobsOf(wb))
			settleUI(t)
			if !strings.Contains(o.status.Text, tc.wantStatus) {
				t.Fatalf("status %q, want %q", o.status.Text, tc.wantStatus)
			}
			if len(reported) != 1 || reported[0] != name {
				t.Errorf("OnData called for %q, want once for %s", reported, name)
			}
			if got := problems.Unavailable(name) == nil; got != tc.usable {
				t.Fatalf("usable %v, want %v", got, tc.usable)
			}
			if wb.picker.missing[name] != !tc.usable {
				t.Errorf("the picker still marks %s: %v", name, wb.picker.missing[name])
			}
			if !tc.usable {
				return
			}
			if cur, _, err := wb.currentProblem(); cur != name || err != nil {
				t.Fatalf("current problem %q (%v), want %s made with its data", cur, err, name)
			}
			await(t, wb.WaitIdle)
			last := sets[len(sets)-1]
			if last == nil || last.problem != name || len(last.Levels) != 2 {
				t.Fatalf("no sample of %s drawn once its data was installed", name)
			}
			launched := fakeLaunch(t, &play.Outcome{Problem: name, Result: play.ResultQuit, Moves: 2})
			var extra []string
			inner := launchPlay
			launchPlay = func(ctx context.Context, n string, item problems.Item, replay bool, more ...string) (*play.Outcome, error) {
				extra = more
				return inner(ctx, n, item, replay, more...)
			}
			if err := wb.PlaySampled(last, 1); err != nil {
				t.Fatal(err)
			}
			await(t, jobsOf(wb))
			settleUI(t)
			if len(*launched) != 1 || !reflect.DeepEqual((*launched)[0].Content, last.Levels[1].Content) {
				t.Fatalf("played %d levels, want level 2 of the sample", len(*launched))
			}
			if !reflect.DeepEqual(extra, []string{"--script", "rr"}) {
				t.Errorf("play window arguments %q, want the session's PlayArgs", extra)
			}
			if len(outcomes) != 1 || outcomes[0] == nil || outcomes[0].Result != play.ResultQuit {
				t.Errorf("OnPlayed got %v", outcomes)
			}
			if wb.detail == nil || !strings.Contains(wb.detail.outcome.Text, "quit") {
				t.Errorf("the level dialog does not show the outcome")
			}
			if err := wb.PlaySampled(last, 2); err == nil {
				t.Error("PlaySampled accepted a level the sample does not have")
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
