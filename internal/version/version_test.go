package version

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.25.0", Main: debug.Module{Path: "pcgwb", Version: "v0.0.0-20261127211400-2eac0e9a1b2c+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "2eac0e9a1b2c3d4e5f60718293a4b5c6d7e8f901"},
			{Key: "vcs.time", Value: "2026-11-27T21:14:00Z"},
			{Key: "vcs.modified", Value: "true"},
			{Key: "CGO_ENABLED", Value: "0"},
			{Key: "GOOS", Value: "windows"}, {Key: "GOARCH", Value: "arm64"},
		}}
	in := fromBuildInfo(bi, Info{Version: "(devel)"})
	got := in.String()
	want := "PCG Workbench v0.0.0-20261127211400-2eac0e9a1b2c+dirty (revision 2eac0e9a1b2c with local changes, 2026-11-27T21:14:00Z, go1.25.0 windows/arm64, CLI only), MIT licence"
	if got != want {
		t.Errorf("String() = %q\nwant       %q", got, want)
	}
	in.CGO, in.Modified = true, false
	if s := in.String(); strings.Contains(s, "CLI only") || strings.Contains(s, "local changes") {
		t.Errorf("a cgo build from a clean tree: %q", s)
	}
}

func TestStringNamesLicence(t *testing.T) {
	s := String()
	if !strings.HasPrefix(s, Name+" ") || !strings.HasSuffix(s, License+" licence") {
		t.Errorf("String() = %q", s)
	}
}
