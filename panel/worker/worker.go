// Package worker gives panels a memory bound goja cannot: it runs them in a child
// process of the same binary (`sheetkeeper panel-worker`) whose address space is
// capped (setrlimit RLIMIT_AS), feeds it jobs and reads its answers over a pipe, one
// JSON line each, kills it when a call outlives its budget and starts another when it
// dies. Whatever a panel does, the bot's own process only ever sees an error with a
// kind.
//
// Why a process: measured on the 2-CPU build machine, an in-process guard (a heap
// sampler every millisecond that interrupts the runtime past 64 MB) holds a panel that
// grows gradually to 64–65 MB and one that doubles a string to 112 MB, but
// `"x".repeat(4e8)` is a single Go call inside goja: it reached 381 MB and ran 2 s
// before the interrupt could land. Only the kernel can refuse that allocation.
//
// This file is the child's side (Serve, the address-space cap); client.go the
// parent's.
package worker

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"sheetkeeper/panel"
)

// Subcommand is the hidden command of the sheetkeeper binary that runs Serve.
const Subcommand = "panel-worker"

// DefaultMemory is the address space a worker may map beyond what it has at start:
// room for a few runtimes and a large state, far below what would hurt the host.
const DefaultMemory = 256 << 20

// maxLine bounds one job as JSON: panelLib and a panel's HTML (512 KB each in the file)
// escaped, and the state.
const maxLine = 16 << 20

// maxAnswerBytes bounds one answer as JSON: a result read within the sandbox's bounds
// (panel.MaxResultBytes in, every list and text capped) is far below it.
const maxAnswerBytes = 2 << 20

// maxCached is how many compiled panels a worker keeps.
const maxCached = 32

// request and response are the pipe's lines.
type request struct {
	ID  uint64    `json:"id"`
	Job panel.Job `json:"job"`
}

type response struct {
	ID     uint64        `json:"id"`
	Result *panel.Result `json:"result,omitempty"`
	Error  *panel.Error  `json:"error,omitempty"`
}

// Serve answers jobs read from r on w until r ends: the worker's loop. A line that does
// not read is answered with a bad-result error and the loop goes on.
func Serve(r io.Reader, w io.Writer) error {
	in := bufio.NewScanner(r)
	in.Buffer(make([]byte, 64<<10), maxLine)
	cache := map[[32]byte]*panel.Script{}
	for in.Scan() {
		var req request
		var resp response
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			resp.Error = &panel.Error{Kind: panel.KindResult, Msg: "the job does not read: " + err.Error()}
		} else {
			resp = answer(cache, &req)
		}
		line, err := encoded(resp, req.Job.Panel.ID)
		if err != nil {
			return err
		}
		if _, err := w.Write(line); err != nil {
			return err
		}
	}
	return in.Err()
}

// encoded is resp as one line, at most maxAnswerBytes: an answer over it (whatever let
// a result grow past the sandbox's bounds) is replaced by a bad-result error, so the
// parent's reader, which stops at twice that, never meets a line it cannot read.
func encoded(resp response, panelID string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(resp); err != nil {
		return nil, err
	}
	if b.Len() <= maxAnswerBytes {
		return b.Bytes(), nil
	}
	n := b.Len()
	b.Reset()
	if len(panelID) > 200 {
		panelID = strings.ToValidUTF8(panelID[:200], "") + "…"
	}
	over := response{ID: resp.ID, Error: &panel.Error{Kind: panel.KindResult, Panel: panelID,
		Msg: fmt.Sprintf("the answer is %d bytes, at most %d allowed", n, maxAnswerBytes)}}
	if err := enc.Encode(over); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// answer runs one job, compiling its panel once per worker.
func answer(cache map[[32]byte]*panel.Script, req *request) response {
	resp := response{ID: req.ID}
	key := sha256.Sum256([]byte(req.Job.Lib + "\x00" + req.Job.Panel.ID + "\x00" + req.Job.Panel.Slot + "\x00" + req.Job.Panel.HTML))
	s, ok := cache[key]
	if !ok {
		var err error
		if s, err = panel.Compile(req.Job.Lib, req.Job.Panel); err != nil {
			resp.Error = asError(err)
			return resp
		}
		if len(cache) >= maxCached {
			clear(cache)
		}
		cache[key] = s
	}
	res, err := s.Run(&req.Job)
	if err != nil {
		resp.Error = asError(err)
		return resp
	}
	resp.Result = &res
	return resp
}

func asError(err error) *panel.Error {
	if e, ok := err.(*panel.Error); ok {
		return e
	}
	return &panel.Error{Kind: panel.KindCrashed, Msg: err.Error()}
}

// LimitAddressSpace caps the process's address space at what it maps now plus extra
// bytes, for good (the hard limit too), and sets the Go heap's soft limit inside it so
// the collector works before the cap is reached. Past the cap an allocation fails and
// the runtime exits with "out of memory", which the parent reports as KindMemory.
func LimitAddressSpace(extra uint64) error {
	now, err := mapped()
	if err != nil {
		return err
	}
	if err := setLimit(now + extra); err != nil {
		return fmt.Errorf("limiting the address space to %d bytes: %w", now+extra, err)
	}
	debug.SetMemoryLimit(int64(extra / 2))
	return nil
}

// mapped is the process's address space now (VmSize in /proc/self/status).
func mapped() (uint64, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("reading the address space in use: %w", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("reading VmSize %q: %w", rest, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("/proc/self/status has no VmSize")
}
