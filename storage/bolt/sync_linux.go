package bolt

import (
	"os"
	"syscall"
)

// syncData makes what was written to f durable without its times: what bbolt itself
// calls on Linux.
func syncData(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }
