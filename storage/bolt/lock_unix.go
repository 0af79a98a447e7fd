//go:build unix

package bolt

import (
	"errors"
	"os"
	"syscall"
	"time"

	berrors "go.etcd.io/bbolt/errors"
)

// lockFile takes the flock bbolt takes (exclusive for a writer, shared for a reader),
// waiting at most timeout, so the file is verified (verify.go) under the lock bbolt
// then keeps: bbolt's own flock on the same descriptor finds it already held.
func lockFile(f *os.File, exclusive bool, timeout time.Duration) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case !errors.Is(err, syscall.EWOULDBLOCK):
			return err
		case time.Now().After(deadline):
			return berrors.ErrTimeout
		}
		time.Sleep(50 * time.Millisecond)
	}
}
