package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"sheetkeeper/config"
	"sheetkeeper/storage"
	"sheetkeeper/storage/migrate"
)

const migrateUsage = `usage: sheetkeeper migrate --from STORE --to STORE

copies every record of the store --from into the store --to, which must be empty (a
new bbolt file, or an etcd prefix holding nothing), then verifies the copy: the records
of each kind are counted and digested (sha256) on both sides and must agree. STORE is
bolt:PATH or etcd://HOST:PORT[,HOST:PORT…]; an etcd side uses the etcd-prefix setting
and the SHEETKEEPER_ETCD_* TLS files and credentials.

Stop every sheetkeeper using --from first: a bbolt file is held while it is copied, but
an etcd cluster is not. A copy that fails part way leaves a new bbolt file removed; an
etcd prefix keeps what was written: delete it (etcdctl del --prefix) before trying again.
`

// cmdMigrate is `sheetkeeper migrate --from STORE --to STORE` (SPEC 10): a bbolt file
// into etcd and back, verified (storage/migrate).
func cmdMigrate(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fromArg := fs.String("from", "", "the store to copy: bolt:PATH or etcd://HOST:PORT[,HOST:PORT…]")
	toArg := fs.String("to", "", "the empty store to copy into: bolt:PATH or etcd://HOST:PORT[,HOST:PORT…]")
	cfg, rest, err := config.Load(fs, append([]string{"log-level"}, config.EtcdSettings...), args, os.Getenv)
	switch {
	case errors.Is(err, config.ErrHelp):
		fmt.Fprint(stderr, migrateUsage)
		return 0
	case err != nil:
		fmt.Fprintf(stderr, "sheetkeeper migrate: %v\n", err)
		return 2
	}
	from, to, err := migrateSides(*fromArg, *toArg, rest)
	if err != nil {
		fmt.Fprintf(stderr, "sheetkeeper migrate: %v\n\n%s", err, migrateUsage)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := runMigrate(ctx, cfg, from, to)
	if err != nil {
		fmt.Fprintf(stderr, "sheetkeeper migrate: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "copied %d records from %s to %s and verified them: %s\n", sum.Records(), from, to, sum)
	return 0
}

// migrateSides parses --from and --to.
func migrateSides(fromArg, toArg string, rest []string) (from, to config.Location, err error) {
	switch {
	case len(rest) > 0:
		return from, to, fmt.Errorf("unexpected %q: the stores are given with --from and --to", rest[0])
	case fromArg == "" || toArg == "":
		return from, to, errors.New("both --from and --to are needed")
	}
	if from, err = config.ParseStore(fromArg); err != nil {
		return from, to, fmt.Errorf("--from: %w", err)
	}
	if to, err = config.ParseStore(toArg); err != nil {
		return from, to, fmt.Errorf("--to: %w", err)
	}
	if from.String() == to.String() {
		return from, to, fmt.Errorf("--from and --to are both %s", from)
	}
	if from.Backend == config.Bolt {
		if _, err := os.Stat(from.Path); err != nil {
			return from, to, fmt.Errorf("--from: %w", err)
		}
	}
	return from, to, nil
}

// runMigrate opens both stores, copies and verifies. A bbolt target it created is
// removed again when the copy fails.
func runMigrate(ctx context.Context, cfg *config.Config, from, to config.Location) (sum migrate.Summary, err error) {
	src, err := openPorter(cfg, from)
	if err != nil {
		return sum, fmt.Errorf("open %s: %w", from, err)
	}
	defer src.Close()
	created := false
	if to.Backend == config.Bolt {
		_, statErr := os.Stat(to.Path)
		created = errors.Is(statErr, os.ErrNotExist)
	}
	dst, err := openPorter(cfg, to)
	if err != nil {
		return sum, fmt.Errorf("open %s: %w", to, err)
	}
	sum, err = migrate.Copy(ctx, src, dst)
	if cerr := dst.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("close %s: %w", to, cerr)
	}
	if err != nil && created {
		os.Remove(to.Path)
	}
	return sum, err
}

// openPorter opens the store at loc, which both backends make a storage.Porter.
func openPorter(cfg *config.Config, loc config.Location) (storage.Porter, error) {
	s, err := openStore(cfg, loc, nil)
	if err != nil {
		return nil, err
	}
	p, ok := s.(storage.Porter)
	if !ok {
		s.Close()
		return nil, fmt.Errorf("the %s store cannot be copied", loc.Backend)
	}
	return p, nil
}
