package main

import (
	"flag"
	"fmt"
	"io"

	"sheetkeeper/panel/worker"
)

const panelWorkerUsage = `usage: sheetkeeper panel-worker [--memory BYTES]

Not for people: the bot starts this itself. It runs game systems' panels (their
JavaScript) for the bot, one JSON line in and one out per job on standard input and
output, in an address space capped at what it maps at start plus --memory bytes, so a
panel that allocates without bound kills only this process, which the bot restarts.
`

// cmdPanelWorker is `sheetkeeper panel-worker`, the child panel/worker starts.
func cmdPanelWorker(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(worker.Subcommand, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, panelWorkerUsage) }
	memory := fs.Uint64("memory", worker.DefaultMemory, "address space beyond what the worker maps at start, in bytes")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(stdout, panelWorkerUsage)
			return 0
		}
		return 2
	}
	if err := worker.LimitAddressSpace(*memory); err != nil {
		fmt.Fprintf(stderr, "sheetkeeper panel-worker: %v\n", err)
		return 1
	}
	if err := worker.Serve(stdin, stdout); err != nil {
		fmt.Fprintf(stderr, "sheetkeeper panel-worker: %v\n", err)
		return 1
	}
	return 0
}
