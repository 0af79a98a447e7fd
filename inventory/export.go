package inventory

import (
	"bytes"
	"encoding/json"
)

// Export writes the system as a file to start from: every key it has, legacy groups as
// the templates they became, so Parse reads it back as the same system.
func (s *System) Export() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // panels are HTML: keep them readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
