package main

import (
	"log/slog"

	"sheetkeeper/bot"
	"sheetkeeper/panel/worker"
)

// newPanelWorker is the process's one panel worker (this binary's `panel-worker`
// subcommand: a small pool of children, each under a memory cap, started when a panel is first drawn): the bot
// and the console both draw game systems' panels through it, never in their own
// process. nil, with a warning, when the binary cannot name itself: panels are then not
// drawn, and everything else works.
func newPanelWorker(log *slog.Logger) *worker.Worker {
	self, err := worker.Self()
	if err != nil {
		log.Warn("game systems' panels are off", "err", err)
		return nil
	}
	return worker.New(self)
}

// panelRunner is w's Run for bot.Options.Panels; nil for no worker.
func panelRunner(w *worker.Worker) bot.PanelRunner {
	if w == nil {
		return nil
	}
	return w.Run
}

// closePanelWorker stops w's child, if it runs.
func closePanelWorker(w *worker.Worker, log *slog.Logger) {
	if w == nil {
		return
	}
	if err := w.Close(); err != nil {
		log.Warn("stopping the panel worker", "err", err)
	}
}
