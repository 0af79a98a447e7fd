//go:build !linux

package worker

import "errors"

// setLimit refuses: only Linux's RLIMIT_AS is relied on, and a worker without its cap
// would be no bound at all.
func setLimit(uint64) error { return errors.New("an address-space limit needs Linux") }
