//go:build !unix

package bolt

import (
	"os"
	"time"
)

// lockFile does nothing where flock does not exist: bbolt locks the file itself, just
// after it is verified, so verification there can race another process's writes.
func lockFile(*os.File, bool, time.Duration) error { return nil }
