//go:build !race

package worker_test

const raceBuild = false
