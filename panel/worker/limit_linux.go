package worker

import "syscall"

// setLimit sets RLIMIT_AS, soft and hard.
func setLimit(bytes uint64) error {
	return syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: bytes, Max: bytes})
}
