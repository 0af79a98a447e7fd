//go:build !linux

package bolt

import "os"

// syncData makes what was written to f durable (fdatasync is Linux's).
func syncData(f *os.File) error { return f.Sync() }
