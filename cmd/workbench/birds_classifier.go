package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"pcgwb/games/birds/classifier/vit"
)

// birdsClassifierCommand groups the letter classifier's commands: `birds classifier download`.
func birdsClassifierCommand() *Command {
	return &Command{Name: "classifier", Short: "the competition's letter classifier: download DIR fetches its published files",
		Commands: []*Command{birdsClassifierDownloadCommand()}}
}

// pinFlags collects repeated --sha256 NAME=HEX flags.
type pinFlags []string

func (p *pinFlags) String() string     { return strings.Join(*p, ",") }
func (p *pinFlags) Set(v string) error { *p = append(*p, v); return nil }

func birdsClassifierDownloadCommand() *Command {
	return &Command{Name: "download", Args: []string{"DIR"},
		Short: "DIR: fetch the competition's ViT (config.json, preprocessor_config.json, model.safetensors) into DIR, each file checked against its SHA-256",
		Long: "Fetches " + vit.Published.Model + " (licence " + vit.Published.Licence + ") at your request. Every file is\n" +
			"checked against a pinned SHA-256 and a size limit before it is kept; give the digests of the\n" +
			"model page's file list with --sha256 NAME=HEX (this build pins none). Use the folder with\n" +
			"--classifier vit:DIR.",
		Setup: func(fs *flag.FlagSet) Runner {
			source := fs.String("source", vit.Published.Source, "where the files are: an http(s) URL (each file is SOURCE/NAME) or a local folder")
			var pins pinFlags
			fs.Var(&pins, "sha256", "NAME=HEX: the SHA-256 a file must have (repeat for each file)")
			quiet := fs.Bool("quiet", false, "no progress on stderr")
			return func(ctx context.Context, args []string, io IO) error {
				m := vit.Published
				m.Source = *source
				for _, p := range pins {
					if err := m.Pin(p); err != nil {
						return usagef("--sha256 %v", err)
					}
				}
				fmt.Fprintf(io.Stdout, "model %s, licence %s, from %s\n", m.Model, m.Licence, m.Source)
				var progress func(string, int64, int64)
				if !*quiet {
					progress = downloadProgress(io.Stderr)
				}
				if err := vit.Download(ctx, m, args[0], nil, progress); err != nil {
					return err
				}
				if _, err := vit.Open(args[0]); err != nil {
					return fmt.Errorf("downloaded, but the model does not load: %w", err)
				}
				fmt.Fprintf(io.Stdout, "%s: every file matches its digest; use --classifier vit:%s\n", args[0], args[0])
				return nil
			}
		}}
}

// downloadProgress prints each file's progress at every tenth.
func downloadProgress(w io.Writer) func(name string, read, total int64) {
	last := map[string]int64{}
	return func(name string, read, total int64) {
		if total <= 0 {
			return
		}
		step := read * 10 / total
		if s, ok := last[name]; !ok || step > s {
			last[name] = step
			fmt.Fprintf(w, "%s %d%%\n", name, step*10)
		}
	}
}
