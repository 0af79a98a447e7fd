package main

// srd is the part of the 5e-bits/5e-database JSON the system is made from.
type srd struct {
	equipment  []equipment
	magic      []magicItem
	properties []ref
}

// ref is the data's reference to another record.
type ref struct {
	Index string `json:"index"`
	Name  string `json:"name"`
}

type equipment struct {
	Index             string `json:"index"`
	Name              string `json:"name"`
	EquipmentCategory ref    `json:"equipment_category"`
	GearCategory      *ref   `json:"gear_category"`
	ToolCategory      string `json:"tool_category"`
	VehicleCategory   string `json:"vehicle_category"`
	CategoryRange     string `json:"category_range"`
	Cost              *struct {
		Quantity int64  `json:"quantity"`
		Unit     string `json:"unit"`
	} `json:"cost"`
	Weight *float64 `json:"weight"`
	Damage *struct {
		Dice string `json:"damage_dice"`
		Type ref    `json:"damage_type"`
	} `json:"damage"`
	TwoHandedDamage *struct {
		Dice string `json:"damage_dice"`
	} `json:"two_handed_damage"`
	Range *struct {
		Normal int  `json:"normal"`
		Long   *int `json:"long"`
	} `json:"range"`
	ThrowRange *struct {
		Normal int `json:"normal"`
		Long   int `json:"long"`
	} `json:"throw_range"`
	Properties    []ref  `json:"properties"`
	ArmorCategory string `json:"armor_category"`
	ArmorClass    *struct {
		Base     int  `json:"base"`
		DexBonus bool `json:"dex_bonus"`
		MaxBonus *int `json:"max_bonus"`
	} `json:"armor_class"`
	StrMinimum          int  `json:"str_minimum"`
	StealthDisadvantage bool `json:"stealth_disadvantage"`
	Quantity            int  `json:"quantity"`
	// Contents are an equipment pack's.
	Contents []struct {
		Item     ref `json:"item"`
		Quantity int `json:"quantity"`
	} `json:"contents"`
}

type magicItem struct {
	Index             string   `json:"index"`
	Name              string   `json:"name"`
	EquipmentCategory ref      `json:"equipment_category"`
	Rarity            ref      `json:"rarity"`
	Variants          []ref    `json:"variants"`
	Desc              []string `json:"desc"`
}
