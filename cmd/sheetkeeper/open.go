package main

import (
	"errors"
	"io/fs"
	"os"
	"strconv"

	"sheetkeeper/ruleset"
	"sheetkeeper/ruleset/bundle"
	"sheetkeeper/strictjson"
)

// The engine reads bytes and file systems; opening a path is the front end's. This file
// is where `ruleset check` turns a path into a ruleset.

// loadPath reads path as a package (a folder, or a .zip told by its content or its name)
// or as a single-file ruleset. release lets go of the folder or archive a package's
// catalog files are read from; call it once the Loaded is done with.
func loadPath(path string) (l *ruleset.Loaded, release func(), err error) {
	release = func() {}
	st, err := os.Stat(path)
	if err != nil {
		return nil, release, err
	}
	if st.IsDir() {
		root, err := os.OpenRoot(path)
		if err != nil {
			return nil, release, cannotOpen(path, err)
		}
		l, err = ruleset.LoadFS(root.FS())
		if err != nil {
			root.Close()
			return nil, release, err
		}
		return l, func() { root.Close() }, nil
	}
	f, err := os.Open(path)
	if err != nil {
		if bundle.IsZip(path, nil) {
			return nil, release, cannotOpen(path, err)
		}
		return nil, release, err
	}
	var head [4]byte
	n, _ := f.ReadAt(head[:], 0)
	if !bundle.IsZip(path, head[:n]) {
		defer f.Close()
		if st.Mode().IsRegular() {
			if err := ruleset.CheckFileSize(st.Size()); err != nil {
				return nil, release, err
			}
		}
		data, err := bundle.ReadLimited(f, ruleset.MaxSingleFileBytes)
		if err != nil {
			return nil, release, err
		}
		l, err = ruleset.LoadFile(data)
		return l, release, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, release, strictjson.Problems{{Kind: strictjson.Archive, Msg: strconv.Quote(path) + " is neither a folder nor a .zip file"}}
	}
	b, err := bundle.Read(f, st.Size())
	if err != nil {
		f.Close()
		return nil, release, err
	}
	l, err = ruleset.LoadPackage(b)
	if err != nil {
		f.Close()
		return nil, release, err
	}
	return l, func() { b.Close(); f.Close() }, nil
}

// cannotOpen is the problem of a folder the system refuses to open, in the words of its
// error without the path it repeats.
func cannotOpen(path string, err error) error {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	return strictjson.Problems{{Kind: strictjson.Archive, Msg: "cannot open " + strconv.Quote(path) + ": " + msg}}
}
