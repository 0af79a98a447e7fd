package content

//go:generate go run ./internal/srdgen -src ../../shared/data/srd-5.1 -out rulesets/dnd5e-srd
//go:generate go run ./internal/systemgen -src ../../shared/data/srd-5.1 -out systems/dnd5e-srd.json
//go:generate go run ./internal/systemgen -saltmarch systems/saltmarch.json
