// Package version names the build: the module version and VCS revision the Go toolchain
// stamps into the binary (runtime/debug build info), and the licence the workbench is under.
// The CLI's `workbench version` and the window's About show the same String.
package version

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Name is the program's name as shown to people.
const Name = "PCG Workbench"

// License is the SPDX name of the workbench's licence (the LICENSE file at the repository root).
const License = "MIT"

// Info is what the build info says about this binary.
type Info struct {
	// Version is the main module's version: a tag such as v0.2.0, a pseudo-version such as
	// v0.0.0-20261127211400-2eac0e9a1b2c(+dirty) that `go build` derives from the VCS, or
	// "(devel)" when nothing was stamped (go run, go test).
	Version string
	// Revision is the VCS revision (empty when not stamped); Time its commit time (RFC 3339);
	// Modified is true when the working tree had uncommitted changes.
	Revision string
	Time     string
	Modified bool
	// GoVersion, OS and Arch name the toolchain and the target.
	GoVersion, OS, Arch string
	// CGO is false for the CLI-only build (CGO_ENABLED=0), which has no window.
	CGO bool
}

// Read returns the build info of the running binary.
func Read() Info {
	in := Info{Version: "(devel)", GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return in
	}
	return fromBuildInfo(bi, in)
}

func fromBuildInfo(bi *debug.BuildInfo, in Info) Info {
	if v := bi.Main.Version; v != "" {
		in.Version = v
	}
	if bi.GoVersion != "" {
		in.GoVersion = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		case "CGO_ENABLED":
			in.CGO = s.Value == "1"
		case "GOOS":
			in.OS = s.Value
		case "GOARCH":
			in.Arch = s.Value
		}
	}
	return in
}

// String is one line naming the build, for `workbench version`, About and bug reports, e.g.
// "PCG Workbench v0.0.0-20261127211400-2eac0e9a1b2c (revision 2eac0e9a1b2c, 2026-11-27T21:14:00Z,
// go1.25.0 linux/amd64), MIT licence".
func String() string { return Read().String() }

// String formats the info as the package-level String does.
func (in Info) String() string {
	var parts []string
	if in.Revision != "" {
		rev := "revision " + short(in.Revision)
		if in.Modified {
			rev += " with local changes"
		}
		parts = append(parts, rev)
	}
	if in.Time != "" {
		parts = append(parts, in.Time)
	}
	build := in.GoVersion + " " + in.OS + "/" + in.Arch
	if !in.CGO {
		build += ", CLI only"
	}
	parts = append(parts, build)
	return fmt.Sprintf("%s %s (%s), %s licence", Name, in.Version, strings.Join(parts, ", "), License)
}

func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
