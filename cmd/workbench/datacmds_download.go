package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"pcgwb/internal/safeio"
	"pcgwb/problems/data"
)

func downloadCommand() *Command {
	return &Command{Name: "download", Short: "[--from URL|ARCHIVE] [--yes]: fetch the reference's data files (pinned commit, SHA-256 checked)",
		Long: "Shows the data's licence (MIT) and asks before downloading unless --yes is given. Only the\n" +
			"files the problems need are extracted from the archive, each checked against the SHA-256\n" +
			"compiled into the workbench, and installed where `workbench data status` looks.",
		Setup: func(fs *flag.FlagSet) Runner {
			from := fs.String("from", data.DefaultArchiveURL, "the reference repository's source archive: an http(s) URL or a local .tar.gz")
			yes := fs.Bool("yes", false, "accept the licence without asking")
			return func(ctx context.Context, _ []string, io IO) error {
				return runDataDownload(ctx, *from, *yes, io)
			}
		}}
}

func runDataDownload(ctx context.Context, from string, yes bool, io IO) error {
	local := !strings.HasPrefix(from, "http://") && !strings.HasPrefix(from, "https://")
	if local {
		if _, err := os.Stat(from); errors.Is(err, fs.ErrNotExist) {
			return usagef("--from %s: no such file (give an http(s) URL or a local .tar.gz)", safeio.ExcerptString(from))
		}
	}
	fmt.Fprint(io.Stdout, data.License+"\n")
	fmt.Fprintf(io.Stdout, "source: %s\n", from)
	if !yes {
		fmt.Fprint(io.Stdout, "Download the data files under this licence? [y/N] ")
		answer := ""
		if io.Stdin != nil {
			line, _ := bufio.NewReader(safeio.LimitedReader(io.Stdin, "the answer", 4096)).ReadString('\n')
			answer = strings.ToLower(strings.TrimSpace(line))
		}
		fmt.Fprintln(io.Stdout)
		if answer != "y" && answer != "yes" {
			return usagef("not accepted: nothing downloaded (answer y, or pass --yes)")
		}
	}
	rep, err := data.Download(ctx, from, byteProgress(io.Stderr))
	printDataReport(io.Stdout, rep, "installed in")
	if err != nil {
		if local && rep == nil {
			return usageError{err.Error()} // the file given is not a usable archive
		}
		return err
	}
	printDatasets(io.Stdout)
	return nil
}

// byteProgress prints the bytes received at every tenth (or every 4 MiB when the size is unknown).
func byteProgress(w io.Writer) data.DownloadProgress {
	last := int64(-1)
	return func(read, total int64) {
		step := read >> 22
		if total > 0 {
			step = read * 10 / total
		}
		if step == last {
			return
		}
		last = step
		if total > 0 {
			fmt.Fprintf(w, "download: %s of %s\n", safeio.HumanSize(read), safeio.HumanSize(total))
		} else {
			fmt.Fprintf(w, "download: %s\n", safeio.HumanSize(read))
		}
	}
}
