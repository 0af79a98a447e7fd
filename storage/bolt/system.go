package bolt

import bolt "go.etcd.io/bbolt"

// Imported inventory systems (storage.SystemTx): one bucket, added by schema 7, kept as
// the rulesets are (versioned.go).
//
//	systems  guild 0x00 id 0x00 BE(version ^ 1<<63)  → SystemRecord
var bucketSystems = []byte("systems")

// migrateSystems (schema 6 → 7) adds the systems bucket.
func migrateSystems(btx *bolt.Tx) error {
	_, err := btx.CreateBucketIfNotExists(bucketSystems)
	return err
}
