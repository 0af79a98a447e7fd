package storage

import "time"

// SystemTx is the part of Tx that keeps imported inventory systems (Pack Rat system
// files, SPEC 7), every version of each, in the namespace of the guild that imported
// it: two servers importing one id never see each other's, and the console (no guild)
// keeps its own in "". Built-in systems are content, never stored: an import of a
// built-in's id is refused before it reaches the store.
//
// Versions are the store's, not the file's: each import of an id with new content is
// the next whole number from 1, so a campaign pinned to a version keeps exactly the file
// it started on while the GM changes the system.
type SystemTx interface {
	PutSystem(s *SystemRecord) error
	System(guild, id string, version int) (*SystemRecord, error)
	// SystemVersions lists the versions of id in guild, oldest first (none: an empty
	// list, no error).
	SystemVersions(guild, id string) ([]int, error)
	// SystemIDs lists the ids stored in guild, sorted.
	SystemIDs(guild string) ([]string, error)
}

// SystemRecord is one imported system version, kept as the bytes it was imported from,
// so it is parsed again by the one parser every campaign uses and exported unchanged.
type SystemRecord struct {
	Guild       string    `json:"guild,omitempty"`
	ID          string    `json:"id"`
	Version     int       `json:"version"`
	Name        string    `json:"name"`
	Digest      string    `json:"digest"`
	File        []byte    `json:"file"`
	InstalledBy string    `json:"installedBy,omitempty"`
	InstalledAt time.Time `json:"installedAt"`
}

// Valid refuses a record no store keeps: a version below 1 (an imported system's
// versions start at 1).
func (s *SystemRecord) Valid() error {
	if s.Version < 1 {
		return Errorf(Invalid, "storage: system %s version %d (versions start at 1)", s.ID, s.Version)
	}
	return nil
}
