// Command workbench is PCG Workbench: with no arguments it opens the desktop workbench; its
// subcommands run the same core headless (see README.md for the CLI).
package main

import "os"

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }
