// Package bundle reads a Marinara Engine Game Mode ruleset package, a folder
// or a .zip, into verified bytes, and refuses hostile input quickly, in
// bounded memory and without panicking.
//
// A package holds manifest.json (Marinara's capability package manifest,
// schemaVersion 2), ruleset.json and up to MaxCatalogs standalone catalog
// files at catalogs/<id>.json. The manifest is decoded strictly: an unknown
// key anywhere is refused, as Marinara's schema refuses it. Every file the
// engine reads is listed in contributions.assets.paths and pinned in files
// with its sha256 and size; nothing else may be listed.
//
// The package knows nothing of what a ruleset means: another package
// validates the JSON. This one deals with the manifest, the files, their
// sizes, hashes and paths, and Capability API versions. The engine
// implements Capability API 1.340 (EngineMajor.EngineMinor) and refuses a package declaring a
// newer one; a package declaring 1.340 or newer gets the raised
// size limits.
//
// The package does no I/O of its own: it reads an fs.FS (FromFS), files in
// memory (FromFiles) or an archive's bytes (Read); opening a path is the
// caller's, which IsZip and ReadLimited help with. Each checks the manifest,
// the presence of every listed file, and the size and sha256 of ruleset.json. A catalog file is read and verified
// the first time Bundle.Catalog asks for it, so one broken catalog does not
// refuse the whole package. Sizes are checked against the declared bytes
// before anything is read and enforced again while reading.
//
// Every refusal is a strictjson.Problems listing every problem found, each
// with a path (a JSON path into manifest.json such as "files[2].sha256", or a
// package file such as "catalogs/spells.json") and a strictjson.Kind usable
// with errors.Is: the same problems, and kinds, the ruleset checks report.
package bundle
