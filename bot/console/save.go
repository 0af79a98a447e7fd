package console

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"sheetkeeper/bot"
)

// save writes the files of one answer to the Out folder, as a Discord user downloads an
// attachment, and notes on shown (the answer's files as the event shows them, in the
// same order) what became of each. Without an Out folder nothing is written.
func (c *Console) save(shown []File, files []bot.File) {
	if c.out == "" {
		return
	}
	for i, f := range files {
		if err := writeNew(c.out, f); err != nil {
			shown[i].NotWritten = err.Error()
			continue
		}
		shown[i].Written = true
	}
}

// writeNew writes f into dir under its own name, which must be a plain file name (the
// bot names its files; nothing it sends reaches outside dir). A file already there is
// left alone: holding the same bytes, it counts as written; holding others, it is kept
// and the answer says so, so an export never overwrites a GM's edited copy.
func writeNew(dir string, f bot.File) error {
	if f.Name == "" || f.Name != filepath.Base(f.Name) || f.Name == "." || f.Name == ".." {
		return errors.New("the name is not a plain file name")
	}
	path := filepath.Join(dir, f.Name)
	w, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		if old, rerr := os.ReadFile(path); rerr == nil && bytes.Equal(old, f.Data) {
			return nil
		}
		return errors.New(f.Name + " is there already, with other content")
	}
	if err != nil {
		return err
	}
	if _, err := w.Write(f.Data); err != nil {
		w.Close()
		os.Remove(path)
		return err
	}
	if err := w.Close(); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}
