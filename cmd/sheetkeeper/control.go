package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"sheetkeeper/storage"
)

// The control socket: how `sheetkeeper backup` copies a database another process holds.
//
// bbolt locks its file for one process, so while the bot (or a console) runs, no other
// process can open the database, not even to read it. The process holding it therefore
// listens on a Unix socket of its own (0600, in a 0700 folder: only the user running it
// can ask) and writes the copy itself, from a read transaction, while it goes on
// serving. One request per connection, one JSON line each way:
//
//	→ {"op":"backup","path":"/absolute/destination"}
//	← {"bytes":12345}  or  {"error":"what went wrong"}

// controlRequest is what a client asks.
type controlRequest struct {
	Op   string `json:"op"`
	Path string `json:"path"`
}

// controlReply is the answer.
type controlReply struct {
	Bytes int64  `json:"bytes,omitempty"`
	Error string `json:"error,omitempty"`
}

// controlPath is the socket of the process holding dbPath: beside the database when
// that path fits a socket address (at most 107 bytes), else in the user's runtime folder
// under a name made from the database's absolute path (apart: true). Beside the
// database, whoever may swap the socket may swap the database too; apart, the folder
// must be the user's alone (ownFolder).
func controlPath(dbPath string) (path string, apart bool) {
	abs, err := filepath.Abs(dbPath)
	if err != nil {
		abs = dbPath
	}
	if p := abs + ".sock"; len(p) <= 107 {
		return p, false
	}
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "sheetkeeper-"+strconv.Itoa(os.Getuid()))
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(dir, "sheetkeeper-"+hex.EncodeToString(sum[:8])+".sock"), true
}

// serveControl answers control requests for store (open on dbPath) until the returned
// stop is called. The process holds the database's lock, so a socket left by one that
// died is stale and is replaced.
func serveControl(dbPath string, store storage.Store, log *slog.Logger) (stop func(), err error) {
	path, apart := controlPath(dbPath)
	if apart {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("control socket: %w", err)
		}
		if err := ownFolder(filepath.Dir(path)); err != nil {
			return nil, fmt.Errorf("control socket: %w", err)
		}
	}
	_ = os.Remove(path)
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("control socket: %w", err)
	}
	l.SetUnlinkOnClose(true)
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("control socket: %w", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return // closed
			}
			go answerControl(c, dbPath, store, log)
		}
	}()
	return func() { l.Close(); <-done }, nil
}

func answerControl(c net.Conn, dbPath string, store storage.Store, log *slog.Logger) {
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	var req controlRequest
	err := readLine(c, &req)
	var rep controlReply
	switch {
	case err != nil:
		rep.Error = fmt.Sprintf("unreadable request: %v", err)
	case req.Op != "backup":
		rep.Error = fmt.Sprintf("unknown op %q", req.Op)
	case !filepath.IsAbs(req.Path):
		rep.Error = fmt.Sprintf("backup path %q is not absolute", req.Path)
	default:
		if err := notItsOwn(dbPath, req.Path); err != nil {
			rep.Error = err.Error()
			break
		}
		_ = c.SetReadDeadline(time.Time{})
		if rep.Bytes, err = writeBackup(store, req.Path); err != nil {
			rep.Error = err.Error()
			log.Warn("backup failed", "to", req.Path, "err", err)
		} else {
			log.Info("backup written", "to", req.Path, "bytes", rep.Bytes)
		}
	}
	out, _ := json.Marshal(rep)
	_, _ = c.Write(append(out, '\n'))
}

// ownFolder refuses a socket folder apart from the database that someone else could swap
// the socket in: it must be this user's, and no one else may write to it (the fallback
// in the shared temporary folder is named per user, but another user could make it
// first).
func ownFolder(dir string) error {
	info, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case !info.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	case ok && int(st.Uid) != os.Getuid():
		return fmt.Errorf("%s belongs to another user", dir)
	case info.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("others may write to %s", dir)
	}
	return nil
}

// readLine decodes one JSON line of at most 64 KB from c into v.
func readLine(c net.Conn, v any) error {
	line, err := bufio.NewReader(io.LimitReader(c, 64<<10)).ReadBytes('\n')
	if err != nil {
		return err
	}
	return json.Unmarshal(line, v)
}

// ownSocket reports whether path is a socket of this user's: one beside the database
// in a folder others may write to (a sticky /tmp) could be anyone's, answering "done"
// for a backup never written. Another's is as good as none: backup then opens the
// database itself, and waits for the lock if a process holds it.
func ownSocket(path string) bool {
	info, err := os.Lstat(path)
	if err != nil || info.Mode()&os.ModeSocket == 0 {
		return false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid()
}

// errNoControl is askBackup's answer when no process serves the database's socket.
var errNoControl = errors.New("no process answers for this database")

// askBackup asks the process holding dbPath to back it up to dest (absolute).
func askBackup(dbPath, dest string) (int64, error) {
	path, apart := controlPath(dbPath)
	if apart && ownFolder(filepath.Dir(path)) != nil || !ownSocket(path) {
		return 0, errNoControl
	}
	c, err := net.DialTimeout("unix", path, 2*time.Second)
	if err != nil {
		return 0, errNoControl
	}
	defer c.Close()
	req, _ := json.Marshal(controlRequest{Op: "backup", Path: dest})
	if _, err := c.Write(append(req, '\n')); err != nil {
		return 0, err
	}
	var rep controlReply
	if err := readLine(c, &rep); err != nil {
		return 0, fmt.Errorf("the process holding the database did not answer: %w", err)
	}
	if rep.Error != "" {
		return 0, errors.New(rep.Error)
	}
	return rep.Bytes, nil
}
