package panel

// State is what a panel is sent about one character (the seed's state): built by the
// caller from the inventory engine's answers, and handed to the script as JSON.
type State struct {
	System    string           `json:"system"`
	Settings  map[string]any   `json:"settings"`
	Limits    map[string]Limit `json:"limits"`
	Values    Values           `json:"values"`
	Character Character        `json:"character"`
	Items     []Item           `json:"items"`
	Totals    Totals           `json:"totals"`
}

// Limit is one limited state's use: how many items have it on, and the limit.
type Limit struct {
	Count int64 `json:"count"`
	Limit int64 `json:"limit"`
}

// Values are the campaign's Global values and the character's Locals.
type Values struct {
	Global map[string]any `json:"global"`
	Local  map[string]any `json:"local"`
}

// Character is who the state is about.
type Character struct {
	ID    string           `json:"id"`
	Name  string           `json:"name"`
	Stats map[string]any   `json:"stats"`
	Coins map[string]int64 `json:"coins"`
}

// Item is one inventory entry as it is now (its on states' layers applied).
type Item struct {
	UID      string          `json:"uid"`
	SrcID    string          `json:"srcId,omitempty"`
	Name     string          `json:"name"`
	Qty      int64           `json:"qty"`
	Equipped bool            `json:"equipped"`
	States   map[string]bool `json:"states"`
	Values   map[string]any  `json:"values"`
	Parent   string          `json:"parent,omitempty"`
	Location string          `json:"location"`
	InHolder bool            `json:"inHolder"`
	Template string          `json:"template"`
	Root     string          `json:"root"`
	Main     []string        `json:"main"`
	Features []string        `json:"features"`
	Item     map[string]any  `json:"item"`
	Icon     string          `json:"icon,omitempty"`
}

// Totals are what the inventory adds up to; the worths are already written in the
// system's money ("12 gp 5 sp").
type Totals struct {
	Carried    float64     `json:"carried"`
	CoinsWorth string      `json:"coinsWorth"`
	GearWorth  string      `json:"gearWorth"`
	Coins      []CoinCount `json:"coins"`
}

// CoinCount is how many of one coin the purse holds.
type CoinCount struct {
	Key   string `json:"key"`
	Count int64  `json:"count"`
}
