//go:build race

package worker_test

// raceBuild: the race detector maps its own shadow memory, which an address-space cap
// breaks in its own ways ("too many address space collisions"), so the memory tests
// cannot tell a panel's allocation from the detector's in a -race build.
const raceBuild = true
