package bolt

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"sheetkeeper/sheet"
	"sheetkeeper/storage"
	"sheetkeeper/storage/storagetest"
)

// The child process: the test binary run again with these variables set.
const (
	envChild = "SHEETKEEPER_BOLT_CHILD" // "apply" or "hold"
	envDB    = "SHEETKEEPER_BOLT_CHILD_DB"
	envSmall = "SHEETKEEPER_BOLT_CHILD_SMALL_JOURNAL" // set: journal files started again every 16 KB
)

var (
	crashChannels = []string{"c0", "c1", "c2", "c3"}
	crashCards    = []string{"Mira", "Bo", "Zed"}
)

// TestCrashChild is not a test of its own: it is the child process of TestCrash and
// TestLockHeldByAnotherProcess, and skips unless started by them.
//
// "apply": like the bot under load, one goroutine per channel applies replies; each is
// one Update that adds k gold to three cards, allocates the next seq and records the
// reply with its three changes and its message id. After Update returns, the child
// prints "committed CHANNEL SEQ K". It runs until killed.
//
// "hold": opens the database, prints "ready" and waits to be killed.
func TestCrashChild(t *testing.T) {
	mode := os.Getenv(envChild)
	if mode == "" {
		t.Skip("the child process of TestCrash")
	}
	s, err := Open(os.Getenv(envDB), Options{Timeout: 5 * time.Second})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(3)
	}
	if os.Getenv(envSmall) != "" {
		s.(*store).journal.limit = 16 << 10
	}
	if mode == "hold" {
		fmt.Println("ready")
		time.Sleep(time.Minute)
		os.Exit(4)
	}
	var out sync.Mutex
	for _, ch := range crashChannels {
		go func() {
			for {
				k := rand.IntN(9) + 1
				var seq int64
				err := s.Update(context.Background(), func(tx storage.Tx) error {
					var changes []sheet.Change
					for _, name := range crashCards {
						c, err := tx.GameCard(ch, name)
						if storage.KindOf(err) == storage.NotFound {
							c, err = storagetest.Card("u", name, 0), nil
						}
						if err != nil {
							return err
						}
						before := storagetest.Gold(c)
						c.Card.Build.Fields["gold"] = before + float64(k)
						if err := tx.PutGameCard(ch, c); err != nil {
							return err
						}
						changes = append(changes, sheet.Change{Card: name, Path: "build.fields.gold", Before: before, After: before + float64(k)})
					}
					var err error
					if seq, err = tx.NextReplySeq(ch); err != nil {
						return err
					}
					return tx.PutReply(&storage.Reply{ChannelID: ch, Seq: seq, MessageID: fmt.Sprintf("msg-%s-%d", ch, seq),
						Status: storage.ReplyLive, Changes: changes, Text: strings.Repeat("narration ", 20)})
				})
				if err != nil {
					fmt.Println("update:", err)
					os.Exit(5)
				}
				out.Lock()
				fmt.Printf("committed %s %d %d\n", ch, seq, k)
				out.Unlock()
			}
		}()
	}
	time.Sleep(30 * time.Second) // killed long before
	os.Exit(6)
}

func startChild(t *testing.T, mode, path string, env ...string) (*exec.Cmd, io.ReadCloser) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), envChild+"="+mode, envDB+"="+path), env...)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdout
}

// TestCrash kills a child applying replies with SIGKILL at random moments, 60 times on
// one database, every other time with journal files started again every 16 KB (so
// kills land while a file is started again, and opens find both files in use). After each kill the database opens, every reply the child reported
// committed is there with all three changes, the replies of each channel are numbered
// 1..n without a gap, each reply's changes start where the previous one's ended, and
// each card holds exactly the sum of the replies present: no half reply anywhere. At
// least a quarter of the kills must leave batches bbolt had not taken, for the open's
// replay of the journal (Check says so before the open).
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("kills 60 child processes")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	reported := map[string]map[int64]int{} // channel → seq → k
	for _, ch := range crashChannels {
		reported[ch] = map[int64]int{}
	}
	extraSeen := map[string]bool{}
	const trials = 60
	committed, unreported, withCommits, replayed := 0, 0, 0, 0
	for trial := range trials {
		var env []string
		if trial%2 == 1 {
			env = append(env, envSmall+"=1")
		}
		cmd, stdout := startChild(t, "apply", path, env...)
		lines := make(chan string, 1<<16)
		first := make(chan struct{})
		go func() {
			sc := bufio.NewScanner(stdout)
			var once sync.Once
			for sc.Scan() {
				once.Do(func() { close(first) })
				lines <- sc.Text()
			}
			close(lines)
		}()
		// Kill at a random moment: every fifth trial while the child may still be opening
		// (or initialising) the file, the others in the middle of a stream of commits.
		if trial%5 == 0 {
			time.Sleep(time.Duration(rand.IntN(15)) * time.Millisecond)
		} else {
			select {
			case <-first:
			case <-time.After(10 * time.Second):
				t.Fatalf("trial %d: the child committed nothing in 10 s", trial)
			}
			time.Sleep(time.Duration(rand.IntN(60)) * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		n := 0
		for line := range lines {
			var ch string
			var seq int64
			var k int
			if _, err := fmt.Sscanf(line, "committed %s %d %d", &ch, &seq, &k); err != nil {
				t.Fatalf("trial %d: child said %q", trial, line)
			}
			reported[ch][seq] = k
			n++
		}
		_ = cmd.Wait()
		if n > 0 {
			withCommits++
		}
		committed += n
		if rep, err := Check(path, Options{}); err == nil && slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, "the file does not") }) {
			replayed++ // the kill left batches in the journal that bbolt had not taken
		}
		unreported += checkCrashDB(t, trial, path, reported, extraSeen)
	}
	// The file is whole, page by page.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.View(func(btx *bolt.Tx) error {
		for err := range btx.Check() {
			return err
		}
		return nil
	}); err != nil {
		t.Fatalf("bbolt check: %v", err)
	}
	t.Logf("%d trials (%d killed mid-stream, %d leaving batches for the journal's replay), %d replies reported committed, all present; %d committed but killed before reporting",
		trials, withCommits, replayed, committed, unreported)
	if withCommits < trials/2 {
		t.Fatalf("only %d trials committed anything: the kills came too early to test much", withCommits)
	}
	if replayed < trials/4 {
		t.Fatalf("only %d kills left batches bbolt had not taken: the replay was hardly tested", replayed)
	}
}

// checkCrashDB verifies the database after a kill and returns how many replies are
// present that the child never reported (committed, then killed before printing).
func checkCrashDB(t *testing.T, trial int, path string, reported map[string]map[int64]int, extraSeen map[string]bool) int {
	t.Helper()
	s, err := Open(path, Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("trial %d: reopen: %v", trial, err)
	}
	defer s.Close()
	extra := 0
	err = s.View(context.Background(), func(tx storage.Tx) error {
		for _, ch := range crashChannels {
			replies, err := tx.Replies(ch, 0, 0)
			if err != nil {
				return err
			}
			sums := map[string]float64{}
			for i, r := range replies {
				if r.Seq != int64(i+1) {
					return fmt.Errorf("%s: reply %d has seq %d", ch, i+1, r.Seq)
				}
				if len(r.Changes) != len(crashCards) {
					return fmt.Errorf("%s reply %d: %d changes", ch, r.Seq, len(r.Changes))
				}
				var k float64
				for j, c := range r.Changes {
					before, after := c.Before.(float64), c.After.(float64)
					if c.Card != crashCards[j] || before != sums[c.Card] {
						return fmt.Errorf("%s reply %d: change %+v does not follow %v", ch, r.Seq, c, sums[c.Card])
					}
					if j > 0 && after-before != k {
						return fmt.Errorf("%s reply %d: changes of different sizes", ch, r.Seq)
					}
					k = after - before
					sums[c.Card] = after
				}
				if want, ok := reported[ch][r.Seq]; ok && float64(want) != k {
					return fmt.Errorf("%s reply %d: added %v, child reported %d", ch, r.Seq, k, want)
				} else if !ok && !extraSeen[r.MessageID] {
					extraSeen[r.MessageID] = true
					extra++
				}
				byMsg, err := tx.ReplyByMessage(ch, r.MessageID)
				if err != nil || byMsg.Seq != r.Seq {
					return fmt.Errorf("%s reply %d: message index: %v", ch, r.Seq, err)
				}
			}
			for seq := range reported[ch] {
				if seq > int64(len(replies)) {
					return fmt.Errorf("%s: reply %d was reported committed and is gone (%d present)", ch, seq, len(replies))
				}
			}
			for _, name := range crashCards {
				c, err := tx.GameCard(ch, name)
				switch {
				case storage.KindOf(err) == storage.NotFound && len(replies) == 0:
				case err != nil:
					return err
				case storagetest.Gold(c) != sums[name]:
					return fmt.Errorf("%s: %s has %v gold, its replies add up to %v", ch, name, storagetest.Gold(c), sums[name])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("trial %d: %v", trial, err)
	}
	return extra
}

// TestLockHeldByAnotherProcess: while another process has the file open, Open fails
// within its timeout naming the file; once that process dies, the file opens.
func TestLockHeldByAnotherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "held.db")
	cmd, stdout := startChild(t, "hold", path)
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("child: %q, %v", line, err)
	}
	start := time.Now()
	_, err = Open(path, Options{Timeout: 400 * time.Millisecond})
	if storage.KindOf(err) != storage.Locked || !strings.Contains(err.Error(), path+" is in use by another sheetkeeper process") {
		t.Fatalf("Open of a held file: %v", err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("gave up after %v", took)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	s, err := Open(path, Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("after the holder died: %v", err)
	}
	s.Close()
}
