package main

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The scripting flags are parsed into options, and combinations that cannot be done are
// refused as usage errors before any window opens.
func TestGUIScriptFlags(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		wantErr  string
		source   string
		getData  bool
		play     int
		playArgs []string
	}{
		{"none", nil, "", "", false, 0, nil},
		{"all", []string{"--data-url", "http://127.0.0.1:1/a.tar.gz", "--get-data", "--play", "2", "--play-script", "rr,esc"}, "",
			"http://127.0.0.1:1/a.tar.gz", true, 2, []string{"--script", "rr,esc"}},
		{"local archive", []string{"--data-url", "/media/usb/pcg.tar.gz"}, "", "/media/usb/pcg.tar.gz", false, 0, nil},
		{"negative level", []string{"--play", "-1"}, "--play must be", "", false, 0, nil},
		{"past the sample", []string{"-n", "2", "--play", "3"}, "the sample has 2 levels", "", false, 0, nil},
		{"with a screenshot", []string{"--play", "1", "--screenshot", "x.png"}, "cannot be combined", "", false, 0, nil},
		{"with a run", []string{"--play", "1", "--run", "ga"}, "cannot be combined", "", false, 0, nil},
		{"bad keys", []string{"--play-script", "rr,jump"}, "--play-script", "", false, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := parseGUIFlags(tc.args)
			if tc.wantErr != "" {
				var u usageError
				if err == nil || !errors.As(err, &u) || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want a usage error with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if g.opts.DataSource != tc.source || g.script.getData != tc.getData || g.script.play != tc.play ||
				!reflect.DeepEqual(g.opts.PlayArgs, tc.playArgs) {
				t.Errorf("source %q get-data %v play %d args %q", g.opts.DataSource, g.script.getData, g.script.play, g.opts.PlayArgs)
			}
		})
	}
}
