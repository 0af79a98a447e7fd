package storage

import "time"

// ShopTx is the part of Tx that keeps a channel's market (SPEC 8.1): the one shop a GM
// opens in the channel, and the one trade offer between players waiting for an answer
// there. Both are read and written in the transaction of the purchase, sale or trade
// they price, so two buyers of the last lot never both get it.
type ShopTx interface {
	PutShop(s *ShopRecord) error
	// Shop is the channel's shop, or a NotFound error.
	Shop(channelID string) (*ShopRecord, error)
	DeleteShop(channelID string) error
	// PutTrade replaces the channel's pending offer (one per channel).
	PutTrade(o *TradeRecord) error
	// Trade is the channel's pending offer, or a NotFound error.
	Trade(channelID string) (*TradeRecord, error)
	DeleteTrade(channelID string) error
}

// ShopRecord is a channel's shop as stored: its prices, whether it is open, what it
// sells and what it has to pay with. Items are named as the campaign's system names
// them (a catalog id, else a name), so the shop is read again against the system.
type ShopRecord struct {
	ChannelID string `json:"channelId"`
	Name      string `json:"name"`
	Open      bool   `json:"open"`
	// Markup is the percent on an item's cost it sells at, SellRate the percent it buys
	// at (inventory.Prices).
	Markup   int64 `json:"markup"`
	SellRate int64 `json:"sellRate"`
	// Funds is the shop's money in the system's smallest coin; nil: unlimited.
	Funds     *int64        `json:"funds,omitempty"`
	Listings  []ShopListing `json:"listings,omitempty"`
	UpdatedAt time.Time     `json:"updatedAt"`
}

// MaxListings bounds a shop's listings, so a shop message and its record stay small.
const MaxListings = 25

// ShopListing is one thing a shop sells: an item, its own price per lot in the smallest
// coin (nil: the item's cost with the markup), and how many are left (nil: unlimited).
type ShopListing struct {
	Item  string `json:"item"`
	Price *int64 `json:"price,omitempty"`
	Stock *int64 `json:"stock,omitempty"`
}

// TradeRecord is a trade one player offered another, waiting for the other's answer.
// It holds what each side gives as the offer said it, not the entries it found then:
// accepting checks both sides' holdings again, so a trade never moves what is no longer
// there.
type TradeRecord struct {
	ChannelID string `json:"channelId"`
	// ID tells this offer from every other in the same channel (Campaign.TradeOffers
	// counts them): the buttons name it.
	ID       string      `json:"id"`
	From     string      `json:"from"` // card names
	To       string      `json:"to"`
	FromUser string      `json:"fromUser"`
	ToUser   string      `json:"toUser"`
	Give     []TradeItem `json:"give,omitempty"`
	Want     []TradeItem `json:"want,omitempty"`
	// GiveCoins and WantCoins are coins by key: coins change hands as the coins they
	// are, never as change.
	GiveCoins map[string]int64 `json:"giveCoins,omitempty"`
	WantCoins map[string]int64 `json:"wantCoins,omitempty"`
	Expires   time.Time        `json:"expires"`
	CreatedAt time.Time        `json:"createdAt"`
}

// TradeItem is qty of an item, by name.
type TradeItem struct {
	Item string `json:"item"`
	Qty  int64  `json:"qty"`
}
