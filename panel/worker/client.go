package worker

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"sheetkeeper/panel"
)

// grace is how long past a job's budget the parent waits before it kills the worker:
// the child interrupts its own runtime at the budget, so only a call stuck inside one
// Go function (a huge String.repeat) or a worker that stopped answering is killed.
const grace = time.Second

// maxAnswer bounds one answer line the parent reads: twice what Serve writes
// (maxAnswerBytes), so only a broken child meets it.
const maxAnswer = 2 * maxAnswerBytes

// Processes is how many children a Worker runs at most, each one job at a time: a
// slow panel (one that holds its child for its whole budget and the grace) then stalls
// one of them, not every panel in every guild. Each child has its own address-space
// cap (DefaultMemory), so this is also how many caps the host must have room for.
const Processes = 2

// Worker is a small pool of child processes running panel jobs, each started on first
// use and again after it dies. Its methods are safe for concurrent use.
type Worker struct {
	command []string
	env     []string
	// idle holds the children not running a job: a Run takes one (or gives up when its
	// context ends first) and puts it back.
	idle chan *child
	slow breaker
}

// child is one place in the pool: its process (nil until started, and after it dies)
// and the id of the last job written to it.
type child struct {
	proc   *process
	nextID uint64
}

// New returns a worker that will run command (a path and its arguments; Self gives the
// running binary's) with env as its whole environment: the child needs none of this
// process's, and holds none of its secrets (a Discord token) should a panel ever find
// a way out of the sandbox.
func New(command []string, env ...string) *Worker {
	w := &Worker{command: command, env: env, idle: make(chan *child, Processes)}
	for range Processes {
		w.idle <- &child{}
	}
	return w
}

// Self is the command that runs this binary's worker subcommand.
func Self() ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this program to start a panel worker: %w", err)
	}
	return []string{exe, Subcommand}, nil
}

// process is one running child.
type process struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan []byte // answers; closed when the child's output ends
	stderr *tail
}

// Run runs one job in an idle child. The error is a *panel.Error for anything the panel
// did (timeout and memory included; that child is restarted for the next job), or the
// context's error: a caller whose context ends while every child is busy gives up then,
// and kills nothing; only a job already written to a child is stopped with it. A panel
// that ran out its budget too often lately is not run (breaker.go).
func (w *Worker) Run(ctx context.Context, j *panel.Job) (panel.Result, error) {
	if err := w.slow.skipped(j, time.Now()); err != nil {
		return panel.Result{}, err
	}
	var c *child
	select {
	case c = <-w.idle:
	case <-ctx.Done():
		return panel.Result{}, ctx.Err()
	}
	defer func() { w.idle <- c }()
	if err := ctx.Err(); err != nil {
		return panel.Result{}, err
	}
	r, err := c.run(ctx, w.command, w.env, j)
	w.slow.record(j, err, time.Now())
	return r, err
}

// run writes j to the child (starting it if need be) and waits for its answer, its
// budget and the grace, or ctx.
func (c *child) run(ctx context.Context, command, env []string, j *panel.Job) (panel.Result, error) {
	if c.proc == nil {
		p, err := start(command, env)
		if err != nil {
			return panel.Result{}, &panel.Error{Kind: panel.KindCrashed, Panel: j.Panel.ID, Msg: err.Error()}
		}
		c.proc = p
	}
	c.nextID++
	line, err := json.Marshal(request{ID: c.nextID, Job: *j})
	if err != nil {
		return panel.Result{}, &panel.Error{Kind: panel.KindResult, Panel: j.Panel.ID, Msg: "the job does not encode: " + err.Error()}
	}
	if _, err := c.proc.in.Write(append(line, '\n')); err != nil {
		return panel.Result{}, c.died(j.Panel.ID)
	}
	budget := j.Time()
	timer := time.NewTimer(budget + grace)
	defer timer.Stop()
	select {
	case ans, ok := <-c.proc.lines:
		if !ok {
			return panel.Result{}, c.died(j.Panel.ID)
		}
		return c.read(ans, j.Panel.ID)
	case <-timer.C:
		c.kill()
		return panel.Result{}, &panel.Error{Kind: panel.KindTimeout, Panel: j.Panel.ID, Msg: fmt.Sprintf("the worker did not answer within %v; it was stopped", budget+grace)}
	case <-ctx.Done():
		c.kill()
		return panel.Result{}, ctx.Err()
	}
}

// read decodes an answer; one for another job means the pipe is out of step.
func (c *child) read(line []byte, id string) (panel.Result, error) {
	var resp response
	if err := json.Unmarshal(line, &resp); err != nil || resp.ID != c.nextID {
		c.kill()
		return panel.Result{}, &panel.Error{Kind: panel.KindCrashed, Panel: id, Msg: "the worker's answer does not read; it was stopped"}
	}
	if resp.Error != nil {
		return panel.Result{}, resp.Error
	}
	if resp.Result == nil {
		return panel.Result{}, &panel.Error{Kind: panel.KindResult, Panel: id, Msg: "the worker answered nothing"}
	}
	return *resp.Result, nil
}

// died waits for a child whose output ended and says why it went: out of memory (the
// runtime's own words when the address-space cap refuses it) or otherwise.
func (c *child) died(id string) error {
	p := c.proc
	c.proc = nil
	// Killed first: a child whose output ended because its line was over maxAnswer may
	// be blocked writing the rest, and would never exit for a closed stdin.
	p.cmd.Process.Kill()
	p.in.Close()
	err := p.cmd.Wait()
	for range p.lines { // a line it wrote before it went, if any
	}
	why := strings.TrimSpace(p.stderr.String())
	if strings.Contains(why, "out of memory") {
		return &panel.Error{Kind: panel.KindMemory, Panel: id, Msg: "the panel ran out of the worker's memory; the worker was restarted"}
	}
	return &panel.Error{Kind: panel.KindCrashed, Panel: id, Msg: fmt.Sprintf("the worker died (%v): %s", err, firstLine(why))}
}

// kill stops the child and forgets it; the next job starts another.
func (c *child) kill() {
	if p := c.proc; p != nil {
		c.proc = nil
		p.cmd.Process.Kill()
		p.in.Close()
		p.cmd.Wait()
		for range p.lines { // let the reader see the end
		}
	}
}

// Close stops every child, once its running job (if any) has ended; a later Run starts
// another.
func (w *Worker) Close() error {
	taken := make([]*child, 0, Processes)
	for range Processes {
		c := <-w.idle
		c.kill()
		taken = append(taken, c)
	}
	for _, c := range taken {
		w.idle <- c
	}
	return nil
}

// start runs the child and reads its answers into lines.
func start(command, env []string) (*process, error) {
	if len(command) == 0 {
		return nil, errors.New("no panel worker command")
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Env = append([]string{}, env...)
	p := &process{cmd: cmd, lines: make(chan []byte), stderr: &tail{}}
	cmd.Stderr = p.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the panel worker: %w", err)
	}
	p.in = in
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), maxAnswer)
		for sc.Scan() {
			p.lines <- append([]byte(nil), sc.Bytes()...)
		}
		close(p.lines)
		// A line over maxAnswer (or a read error) ends the answers; what the child goes
		// on writing is read and dropped, so it is never blocked on a full pipe.
		io.Copy(io.Discard, out)
	}()
	return p, nil
}

// tail keeps the first and the last bytes a child wrote to its standard error: the
// runtime's reason for dying comes first, before its goroutine dump.
type tail struct {
	mu         sync.Mutex
	head, last []byte
}

const tailBytes = 2 << 10

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	if room := tailBytes - len(t.head); room > 0 {
		take := min(room, len(b))
		t.head = append(t.head, b[:take]...)
		b = b[take:]
	}
	t.last = append(t.last, b...)
	if over := len(t.last) - tailBytes; over > 0 {
		t.last = append(t.last[:0], t.last[over:]...)
	}
	return n, nil
}

// String is the first line and the last of what was kept.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.head) + "\n" + string(t.last)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}
