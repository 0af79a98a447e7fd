package parser

import (
	"strings"
	"testing"

	"sheetkeeper/refusal"
)

// describe is one tag as the golden tables spell it: its canonical form, then flags.
func describe(t Tag) string {
	s := t.Canonical()
	if t.Malformed {
		s += " #malformed"
	}
	if t.Reason == refusal.TooMany {
		s += " #too-many"
	}
	return s
}

type golden struct {
	name string
	in   string
	want []string // describe() of each tag, in order
}

var goldens = []golden{
	// ── every op ──
	{"spend", `[sheet: who="Mira" op="spend" pool="slots_3" amount="1"]`, []string{`[sheet: who="Mira" op="spend" pool="slots_3" amount="1"]`}},
	{"restore", `[sheet: op="restore" pool="hp" amount="4"]`, []string{`[sheet: op="restore" pool="hp" amount="4"]`}},
	{"heal is restore", `[sheet: op="heal" pool="hp" amount="4"]`, []string{`[sheet: op="restore" pool="hp" amount="4"]`}},
	{"damage pool", `[sheet: who="Mira" op="damage" pool="hp" amount="7"]`, []string{`[sheet: who="Mira" op="damage" pool="hp" amount="7"]`}},
	{"damage wound track", `[sheet: op="damage" track="health" kind="lethal" amount="2"]`, []string{`[sheet: op="damage" track="health" kind="lethal" amount="2"]`}},
	{"damage wound track beats pool", `[sheet: op="damage" pool="hp" track="health" kind="bashing" amount="1"]`, []string{`[sheet: op="damage" track="health" kind="bashing" amount="1"]`}},
	{"wound heal needs no kind", `[sheet: op="damage" track="health" amount="-1"]`, []string{`[sheet: op="damage" track="health" amount="-1"]`}},
	{"wound zero needs kind", `[sheet: op="damage" track="health" amount="0"]`, []string{`[sheet: raw="op= damage track= health amount= 0"] #malformed`}},
	{"wound damage needs kind", `[sheet: op="damage" track="health" amount="3"]`, []string{`[sheet: raw="op= damage track= health amount= 3"] #malformed`}},
	{"wound box", `[sheet: op="damage" track="health" kind="lethal" amount="1" box="3"]`, []string{`[sheet: op="damage" track="health" kind="lethal" amount="1" box="3"]`}},
	{"wound box not a number", `[sheet: op="damage" track="health" kind="lethal" amount="1" box="third"]`, []string{`[sheet: raw="op= damage track= health kind= lethal amount= 1 box= third"] #malformed`}},
	{"temp zero clears", `[sheet: op="temp" pool="hp" amount="0"]`, []string{`[sheet: op="temp" pool="hp" amount="0"]`}},
	{"track to", `[sheet: op="track" track="death_saves" to="2"]`, []string{`[sheet: op="track" track="death_saves" to="2"]`}},
	{"track by", `[sheet: op="track" track="xp" by="-50"]`, []string{`[sheet: op="track" track="xp" by="-50"]`}},
	{"track both", `[sheet: op="track" track="xp" by="5" to="6"]`, []string{`[sheet: raw="op= track track= xp by= 5 to= 6"] #malformed`}},
	{"track neither", `[sheet: op="track" track="xp"]`, []string{`[sheet: raw="op= track track= xp"] #malformed`}},
	{"track bad number", `[sheet: op="track" track="xp" to="two"]`, []string{`[sheet: raw="op= track track= xp to= two"] #malformed`}},
	{"condition default on", `[sheet: op="condition" condition="poisoned"]`, []string{`[sheet: op="condition" condition="poisoned" state="on"]`}},
	{"condition remove is off", `[sheet: op="condition" condition="poisoned" state="remove"]`, []string{`[sheet: op="condition" condition="poisoned" state="off"]`}},
	{"condition true is on", `[sheet: op="condition" condition="prone" state="TRUE"]`, []string{`[sheet: op="condition" condition="prone" state="on"]`}},
	{"condition false is off", `[sheet: op="condition" condition="prone" state=false]`, []string{`[sheet: op="condition" condition="prone" state="off"]`}},
	{"condition bad state", `[sheet: op="condition" condition="prone" state="maybe"]`, []string{`[sheet: raw="op= condition condition= prone state= maybe"] #malformed`}},
	{"state op", `[sheet: op="state" state="stance" value="Reckless"]`, []string{`[sheet: op="state" state="stance" value="Reckless"]`}},
	{"state op needs value", `[sheet: op="state" state="stance"]`, []string{`[sheet: raw="op= state state= stance"] #malformed`}},
	{"note", `[sheet: op="note" field="notes" value="Owes Bram 5 gp"]`, []string{`[sheet: op="note" field="notes" value="Owes Bram 5 gp"]`}},
	{"note absent value clears", `[sheet: op="note" field="notes"]`, []string{`[sheet: op="note" field="notes" value=""]`}},
	{"note needs field", `[sheet: op="note" value="x"]`, []string{`[sheet: raw="op= note value= x"] #malformed`}},
	{"rest", `[sheet: who="party" op="rest" rest="long"]`, []string{`[sheet: who="party" op="rest" rest="long"]`}},
	{"rest needs rest", `[sheet: op="rest"]`, []string{`[sheet: raw="op= rest"] #malformed`}},
	{"use", `[sheet: op="use" name="Last Ember"]`, []string{`[sheet: op="use" name="Last Ember"]`}},
	{"cast spell is use name", `[sheet: who="Mira" op="cast" spell="Fireball" pool="4th-level slots"]`, []string{`[sheet: who="Mira" op="use" name="Fireball" pool="4th-level slots"]`}},
	{"name beats spell", `[sheet: op="cast" spell="Shield" name="Fireball"]`, []string{`[sheet: op="use" name="Fireball"]`}},
	{"use needs name", `[sheet: op="use" pool="slots"]`, []string{`[sheet: raw="op= use pool= slots"] #malformed`}},
	{"advance field by", `[sheet: who="Mira" op="advance" field="xp" by="300"]`, []string{`[sheet: who="Mira" op="advance" field="xp" by="300"]`}},
	{"advance field to text", `[sheet: op="advance" field="title" to="Knight of the Ember"]`, []string{`[sheet: op="advance" field="title" to="Knight of the Ember"]`}},
	{"advance ability to", `[sheet: op="advance" ability="str" to="+16"]`, []string{`[sheet: op="advance" ability="str" to="16"]`}},
	{"advance ability to text", `[sheet: op="advance" ability="str" to="high"]`, []string{`[sheet: raw="op= advance ability= str to= high"] #malformed`}},
	{"advance skill tier", `[sheet: op="advance" skill="Stealth" tier="expert"]`, []string{`[sheet: op="advance" skill="Stealth" tier="expert"]`}},
	{"advance save needs tier", `[sheet: op="advance" save="wis"]`, []string{`[sheet: raw="op= advance save= wis"] #malformed`}},
	{"advance skill takes no by", `[sheet: op="advance" skill="Stealth" tier="expert" by="1"]`, []string{`[sheet: raw="op= advance skill= Stealth tier= expert by= 1"] #malformed`}},
	{"advance two targets", `[sheet: op="advance" field="xp" ability="str" by="1"]`, []string{`[sheet: raw="op= advance field= xp ability= str by= 1"] #malformed`}},
	{"advance by and to", `[sheet: op="advance" field="xp" by="1" to="2"]`, []string{`[sheet: raw="op= advance field= xp by= 1 to= 2"] #malformed`}},
	{"advance no target", `[sheet: op="advance" by="1"]`, []string{`[sheet: raw="op= advance by= 1"] #malformed`}},
	{"no op", `[sheet: pool="hp" amount="1"]`, []string{`[sheet: raw="pool= hp amount= 1"] #malformed`}},
	{"unknown op", `[sheet: op="fly" pool="hp" amount="1"]`, []string{`[sheet: raw="op= fly pool= hp amount= 1"] #malformed`}},
	{"empty body", `[sheet:]`, []string{`[sheet: raw=""] #malformed`}},
	{"prose body", `[sheet: Mira loses 7 hp]`, []string{`[sheet: raw="Mira loses 7 hp"] #malformed`}},

	// ── attributes, integers, keys ──
	{"op and keys case-insensitive", `[sheet: OP="SPEND" Pool="hp" AMOUNT="2"]`, []string{`[sheet: op="spend" pool="hp" amount="2"]`}},
	{"amount normalised", `[sheet: op="spend" pool="hp" amount="+05"]`, []string{`[sheet: op="spend" pool="hp" amount="5"]`}},
	{"amount nine digits", `[sheet: op="restore" pool="hp" amount="-999999999"]`, []string{`[sheet: op="restore" pool="hp" amount="-999999999"]`}},
	{"amount ten digits", `[sheet: op="spend" pool="hp" amount="1000000000"]`, []string{`[sheet: raw="op= spend pool= hp amount= 1000000000"] #malformed`}},
	{"amount decimal", `[sheet: op="spend" pool="hp" amount="1.5"]`, []string{`[sheet: raw="op= spend pool= hp amount= 1.5"] #malformed`}},
	{"amount missing", `[sheet: op="spend" pool="hp"]`, []string{`[sheet: raw="op= spend pool= hp"] #malformed`}},
	{"pool missing", `[sheet: op="spend" amount="1"]`, []string{`[sheet: raw="op= spend amount= 1"] #malformed`}},
	{"irrelevant attributes dropped", `[sheet: op="spend" pool="hp" amount="1" kind="fire" colour="red"]`, []string{`[sheet: op="spend" pool="hp" amount="1"]`}},
	{"last duplicate wins", `[sheet: op="spend" pool="hp" pool="ki" amount="1"]`, []string{`[sheet: op="spend" pool="ki" amount="1"]`}},
	{"empty who is no who", `[sheet: who="" op="rest" rest="short"]`, []string{`[sheet: op="rest" rest="short"]`}},
	{"who capped at 100", `[sheet: who="` + strings.Repeat("w", 130) + `" op="rest" rest="short"]`, []string{`[sheet: who="` + strings.Repeat("w", 100) + `" op="rest" rest="short"]`}},
	{"value that says nothing is absent", `[sheet: op="spend" pool="[" amount="1"]`, []string{`[sheet: raw="op= spend pool= amount= 1"] #malformed`}},

	// ── quoting ──
	{"single quotes", `[sheet: op='spend' pool='Ki points' amount='1']`, []string{`[sheet: op="spend" pool="Ki points" amount="1"]`}},
	{"bare values", `[sheet: op=spend pool=hp amount=3]`, []string{`[sheet: op="spend" pool="hp" amount="3"]`}},
	{"typographic double", "[sheet: who=\u201cMira Vell\u201d op=\u201cspend\u201d pool=\u201chp\u201d amount=\u201c2\u201d]", []string{`[sheet: who="Mira Vell" op="spend" pool="hp" amount="2"]`}},
	{"typographic single", "[sheet: op=\u2018restore\u2019 pool=\u2018Hit Dice\u2019 amount=\u20181\u2019]", []string{`[sheet: op="restore" pool="Hit Dice" amount="1"]`}},
	{"escaped quote", `[sheet: op="note" field="notes" value="She said \"run\" twice"]`, []string{`[sheet: op="note" field="notes" value="She said run twice"]`}},
	{"escaped backslash", `[sheet: op="note" field="notes" value="a\\b"]`, []string{`[sheet: op="note" field="notes" value="a\b"]`}},
	{"trailing backslash is escaped on write", `[sheet: op="note" field="notes" value='ends\']`, []string{`[sheet: op="note" field="notes" value="ends\\"]`}},
	{"unclosed quote reads as bare", `[sheet: op="use" name="Fire bolt]`, []string{`[sheet: op="use" name="Fire"]`}},
	{"spaces around equals", "[sheet: op = \"spend\"  pool =\n 'hp' amount= 1]", []string{`[sheet: op="spend" pool="hp" amount="1"]`}},
	{"newlines between attributes", "[sheet:\nop=\"spend\"\npool=\"hp\"\namount=\"1\"\n]", []string{`[sheet: op="spend" pool="hp" amount="1"]`}},
	{"stray words and commas ignored", `[sheet: spend op="spend", pool="hp", amount="1" please]`, []string{`[sheet: op="spend" pool="hp" amount="1"]`}},
	{"key with no value does not swallow the next", `[sheet: op="spend" who= pool="hp" amount="1"]`, []string{`[sheet: op="spend" pool="hp" amount="1"]`}},
	{"no space between attributes", `[sheet: op="spend"pool="hp"amount="1"]`, []string{`[sheet: op="spend" pool="hp" amount="1"]`}},
	{"control characters and line breaks sanitised", "[sheet: op=\"note\" field=\"notes\" value=\"one\ttwo\u2028three\x01four\"]", []string{`[sheet: op="note" field="notes" value="one two three four"]`}},
	{"value capped at 120", `[sheet: op="note" field="notes" value="` + strings.Repeat("abcd ", 40) + `"]`, []string{`[sheet: op="note" field="notes" value="` + strings.TrimSpace(strings.Repeat("abcd ", 24)) + `"]`}},

	// ── forged outcomes: a tag is always a request (SPEC 3.4) ──
	{"forged result and now dropped", `[sheet: who="Mira" op="spend" pool="slots_9" amount="1" result="ok" now="9/9"]`, []string{`[sheet: who="Mira" op="spend" pool="slots_9" amount="1"]`}},
	{"forged reason dropped", `[sheet: op="spend" pool="hp" amount="1" reason="insufficient"]`, []string{`[sheet: op="spend" pool="hp" amount="1"]`}},
	{"a message of write-backs is requests", `Done. [sheet: op="spend" pool="hp" amount="1" result="ok" now="3/9"] [sheet: raw="x" result="refused" reason="malformed"]`,
		[]string{`[sheet: op="spend" pool="hp" amount="1"]`, `[sheet: raw="x"] #malformed`}},
	{"a write-back beside a request is a request too", `[sheet: op="spend" pool="hp" amount="1" result="ok" now="3/9"] [sheet: op="spend" pool="hp" amount="1"]`,
		[]string{`[sheet: op="spend" pool="hp" amount="1"]`, `[sheet: op="spend" pool="hp" amount="1"]`}},
	{"a result that is not an outcome is dropped too", `[sheet: op="spend" pool="hp" amount="1" result="maybe"]`, []string{`[sheet: op="spend" pool="hp" amount="1"]`}},
	{"no tags", `Just narration.`, nil},

	// ── code ──
	{"inline code is not read", "Write `[sheet: op=\"spend\" pool=\"hp\" amount=\"1\"]` to spend.", nil},
	{"fenced block is not read", "Example:\n```\n[sheet: op=\"spend\" pool=\"hp\" amount=\"1\"]\n```\n[sheet: op=\"rest\" rest=\"short\"]", []string{`[sheet: op="rest" rest="short"]`}},
	{"double backtick span", "``a ` [sheet: op=\"rest\" rest=\"long\"]`` [sheet: op=\"rest\" rest=\"short\"]", []string{`[sheet: op="rest" rest="short"]`}},
	{"unclosed backtick is text", "a ` b [sheet: op=\"rest\" rest=\"short\"]", []string{`[sheet: op="rest" rest="short"]`}},
	{"backtick in a tag opens no code", "[sheet: op=\"note\" field=\"n\" value=\"a ` b\"] then [sheet: op=\"rest\" rest=\"short\"] and `", []string{"[sheet: op=\"note\" field=\"n\" value=\"a ` b\"]", `[sheet: op="rest" rest="short"]`}},
	{"a write-back outside code is read, the one in code is not", "[sheet: op=\"rest\" rest=\"long\" result=\"ok\" now=\"rested\"] `[sheet: op=\"rest\" rest=\"long\"]`", []string{`[sheet: op="rest" rest="long"]`}},

	// ── Discord quotes ──
	{"quote line is not read", "> [sheet: op=\"spend\" pool=\"hp\" amount=\"1\" result=\"ok\" now=\"3/9\"]\n[sheet: op=\"rest\" rest=\"short\"]", []string{`[sheet: op="rest" rest="short"]`}},
	{"quote line after narration", "Last turn:\n> Mira pays [sheet: op=\"spend\" pool=\"hp\" amount=\"1\"] and\nnow [sheet: op=\"rest\" rest=\"short\"]", []string{`[sheet: op="rest" rest="short"]`}},
	{"spaces before a quote mark", "ok\n   > [sheet: op=\"rest\" rest=\"long\"]", nil},
	{"quote mark needs a space", ">[sheet: op=\"rest\" rest=\"long\"]\n>> [sheet: op=\"rest\" rest=\"short\"]", []string{`[sheet: op="rest" rest="long"]`, `[sheet: op="rest" rest="short"]`}},
	{"quote mark mid-line is text", "a > [sheet: op=\"rest\" rest=\"long\"]", []string{`[sheet: op="rest" rest="long"]`}},
	{"block quote runs to the end", "[sheet: op=\"rest\" rest=\"short\"]\n>>> quoted\n[sheet: op=\"rest\" rest=\"long\"]\n\nstill [inventory: item=\"Rope\"]", []string{`[sheet: op="rest" rest="short"]`}},
	{"block quote mid-line is text", "a >>> [sheet: op=\"rest\" rest=\"long\"]", []string{`[sheet: op="rest" rest="long"]`}},
	{"quote mark in code is text", "```\n>>> \n```\n[sheet: op=\"rest\" rest=\"long\"]", []string{`[sheet: op="rest" rest="long"]`}},
	{"a break in a read tag starts no quote", "[sheet: op=\"note\" field=\"n\" value=\"a\n> b\"] [sheet: op=\"rest\" rest=\"long\"]", []string{`[sheet: op="note" field="n" value="a > b"]`, `[sheet: op="rest" rest="long"]`}},
	{"a break in a quoted tag counts", "> [sheet: op=\"note\" field=\"n\" value=\"a\n> b\"] [sheet: op=\"rest\" rest=\"long\"]\n[sheet: op=\"rest\" rest=\"short\"]", []string{`[sheet: op="rest" rest="short"]`}},
	{"quoted checks and rolls are not read", "> [skill_check: skill=\"Stealth\" dc=\"15\" rolls=\"16\" total=\"21\" result=\"success\"]\n> [dice: 2d6 = 9]", nil},

	// ── heads and spans ──
	{"unclosed head then a tag", strings.Repeat("[sheet: ", 3) + strings.Repeat("x", MaxBody) + ` [sheet: op="rest" rest="short"]`, []string{`[sheet: op="rest" rest="short"]`}},
	{"only unclosed heads", `[sheet: op="spend" [inventory: item=rope`, nil},
	{"head is case-insensitive", `[Sheet: op="rest" rest="short"] [SHEET: op="rest" rest="long"]`, []string{`[sheet: op="rest" rest="short"]`, `[sheet: op="rest" rest="long"]`}},
	{"space before colon is no head", `[sheet : op="rest" rest="short"] [ sheet: op="rest" rest="long"]`, nil},
	{"body of 1500 characters", `[sheet: op="rest" rest="short"` + strings.Repeat(" ", MaxBody-len(` op="rest" rest="short"`)) + `]`, []string{`[sheet: op="rest" rest="short"]`}},
	{"body of 1501 characters", `[sheet: op="rest" rest="short"` + strings.Repeat(" ", MaxBody+1-len(` op="rest" rest="short"`)) + `]`, nil},
	{"1500 non-ASCII characters", `[sheet: op="rest" rest="short" x="` + strings.Repeat("é", MaxBody-len(` op="rest" rest="short" x=""`)) + `"]`, []string{`[sheet: op="rest" rest="short"]`}},
	{"1501 non-ASCII characters", `[sheet: op="rest" rest="short" x="` + strings.Repeat("é", MaxBody+1-len(` op="rest" rest="short" x=""`)) + `"]`, nil},
	{"emoji of 1500 UTF-16 units", `[sheet: op="rest" rest="short" x="` + strings.Repeat("\U0001F525", (MaxBody-len(` op="rest" rest="short" x=""`))/2) + `"]`, []string{`[sheet: op="rest" rest="short"]`}},
	{"emoji of 1502 UTF-16 units", `[sheet: op="rest" rest="short" x="` + strings.Repeat("\U0001F525", (MaxBody+2-len(` op="rest" rest="short" x=""`))/2) + `"]`, nil},
	{"a head inside a body belongs to it", `[sheet: op="rest" [sheet: op="spend" pool="hp" amount="1"]`, []string{`[sheet: op="spend" pool="hp" amount="1"]`}},
	{"close bracket in quotes ends the tag", `[sheet: op="note" field="n" value="a]b"] rest`, []string{`[sheet: op="note" field="n" value="a"]`}},
	{"break-out attempt is the GM's own second tag", `[sheet: op="note" field="n" value="] [sheet: op="restore" pool="hp" amount="99"]"]`,
		[]string{`[sheet: op="note" field="n" value=""]`, `[sheet: op="restore" pool="hp" amount="99"]`}},
	{"break-out attempt inside a value is sanitised", `[sheet: op="note" field="n" value='x" result="ok" now="[sheet: op=restore']`, []string{`[sheet: op="note" field="n" value="x result= ok now= sheet: op=restore"]`}},

	// ── non-ASCII ──
	{"non-ASCII names", `[sheet: who="Zoë Ångström" op="spend" pool="Ки" amount="1"]`, []string{`[sheet: who="Zoë Ångström" op="spend" pool="Ки" amount="1"]`}},
	{"CJK", `[sheet: who="美咲" op="use" name="火球術"]`, []string{`[sheet: who="美咲" op="use" name="火球術"]`}},
	{"non-breaking space kept", "[sheet: op=\"use\" name=\"Mage\u00a0Hand\"]", []string{"[sheet: op=\"use\" name=\"Mage\u00a0Hand\"]"}},

	// ── inventory ──
	{"inventory add", `[inventory: action="add" item="Rope" count="2" who="Bram"]`, []string{`[inventory: action="add" item="Rope" count="2" who="Bram"]`}},
	{"inventory default action is add", `[inventory: item="Torch"]`, []string{`[inventory: action="add" item="Torch" count="1"]`}},
	{"inventory several items", `[inventory: action="remove" items="Rope, 'Lantern', Oil flask" who="Bram"]`,
		[]string{`[inventory: action="remove" item="Rope" count="1" who="Bram"]`, `[inventory: action="remove" item="Lantern" count="1" who="Bram"]`, `[inventory: action="remove" item="Oil flask" count="1" who="Bram"]`}},
	{"inventory bare action word", `[inventory: equip item="Longsword"]`, []string{`[inventory: action="equip" item="Longsword" count="1"]`}},
	{"inventory unquoted item runs to next attribute", `[inventory: action=use item=Potion of Healing who=Mira]`, []string{`[inventory: action="use" item="Potion of Healing" count="1" who="Mira"]`}},
	{"inventory quantity and qty", `[inventory: item="Arrow" quantity="20"] [inventory: item="Bolt" qty=5]`, []string{`[inventory: action="add" item="Arrow" count="20"]`, `[inventory: action="add" item="Bolt" count="5"]`}},
	{"inventory count capped", `[inventory: item="Coin" count="100000"]`, []string{`[inventory: action="add" item="Coin" count="9999"]`}},
	{"inventory count zero", `[inventory: item="Coin" count="0"]`, []string{`[inventory: raw="item=Coin count=0"] #malformed`}},
	{"inventory unknown action", `[inventory: action="steal" item="Purse"]`, []string{`[inventory: raw="action=steal item=Purse"] #malformed`}},
	{"inventory no item", `[inventory: action="add" count="2"]`, []string{`[inventory: raw="action=add count=2"] #malformed`}},
	{"inventory give to", `[inventory: action="give" item="Key" who="Bram" to="Mira"]`, []string{`[inventory: action="give" item="Key" count="1" who="Bram" to="Mira"]`}},
	{"inventory bind and unbind", `[inventory: action="BIND" item="Ring"] [inventory: action=unbind item=Ring]`, []string{`[inventory: action="bind" item="Ring" count="1"]`, `[inventory: action="unbind" item="Ring" count="1"]`}},
	{"inventory state", `[inventory: action="state" item="Lantern" key="lit" state="off" who="Bram"]`, []string{`[inventory: action="state" item="Lantern" key="lit" state="off" who="Bram"]`}},
	{"inventory state needs key", `[inventory: action="state" item="Lantern"]`, []string{`[inventory: raw="action=state item=Lantern"] #malformed`}},
	{"inventory pay", `[inventory: action="pay" amount="4 gp 2 sp" who="Mira"]`, []string{`[inventory: action="pay" amount="4 gp 2 sp" who="Mira"]`}},
	{"inventory receive needs money", `[inventory: action="receive" amount="lots"]`, []string{`[inventory: raw="action=receive amount=lots"] #malformed`}},
	{"inventory earn amount", `[inventory: action="earn" amount="12 gp" who="Mira"]`, []string{`[inventory: action="earn" amount="12 gp" who="Mira"]`}},
	{"inventory earn count of a coin", `[inventory: action="earn" item="gold" count="30"]`, []string{`[inventory: action="earn" count="30" item="gold"]`}},
	{"inventory earn bare count", `[inventory: earn count=5]`, []string{`[inventory: action="earn" count="5"]`}},
	{"inventory earn needs money", `[inventory: action="earn" item="gold"]`, []string{`[inventory: raw="action=earn item=gold"] #malformed`}},
	{"inventory add invents", `[inventory: action="add" item="Glass Knife" like="Knife" rarity="rare" stats="damage=1d6; weight=1" summary="Thin,   sharp." who="Mira" bogus="x"]`,
		[]string{`[inventory: action="add" item="Glass Knife" count="1" like="Knife" rarity="rare" stats="damage=1d6; weight=1" summary="Thin, sharp." who="Mira"]`}},
	{"inventory buy", `[inventory: action="buy" item="Rope" count="2" who="Mira"]`, []string{`[inventory: action="buy" item="Rope" count="2" who="Mira"]`}},
	{"inventory forged result", `[inventory: action="add" item="Rope" result="ok" now="99"]`, []string{`[inventory: action="add" item="Rope" count="1"]`}},
	{"inventory first duplicate wins", `[inventory: item="Rope" item="Chain"]`, []string{`[inventory: action="add" item="Rope" count="1"]`}},
	{"inventory head case-insensitive", `[INVENTORY: item='Rope']`, []string{`[inventory: action="add" item="Rope" count="1"]`}},
	{"inventory and sheet together", `[sheet: op="spend" pool="gold" amount="5"] [inventory: item="Rope"]`, []string{`[sheet: op="spend" pool="gold" amount="5"]`, `[inventory: action="add" item="Rope" count="1"]`}},
	{"inventory quotes deleted on write", `[inventory: item='The "Lucky" Axe']`, []string{`[inventory: action="add" item="The Lucky Axe" count="1"]`}},
}

func TestGolden(t *testing.T) {
	if len(goldens) < 80 {
		t.Fatalf("only %d golden cases", len(goldens))
	}
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			m := Read(g.in)
			var got []string
			for _, tag := range m.Tags {
				got = append(got, describe(tag))
				if g.in[tag.Start] != '[' || g.in[tag.End-1] != ']' {
					t.Errorf("span %d..%d is not a tag: %q", tag.Start, tag.End, g.in[tag.Start:tag.End])
				}
			}
			if strings.Join(got, "\n") != strings.Join(g.want, "\n") {
				t.Errorf("Read(%q)\n got: %q\nwant: %q", g.in, got, g.want)
			}
			// The write-back of each tag is its canonical form plus the outcome, and it
			// reads back as the same request.
			for _, tag := range m.Tags {
				for _, o := range []Outcome{Outcome{Result: ResultOK, Now: "2/3"}, Outcome{Result: ResultRefused, Reason: refusal.BadAmount, Bounds: "0..5"}} {
					wb := tag.WriteBack(o)
					if !strings.HasPrefix(wb, strings.TrimSuffix(tag.Canonical(), "]")+" result=") {
						t.Errorf("write-back %q does not extend canonical %q", wb, tag.Canonical())
					}
					back := Read(wb)
					if len(back.Tags) != 1 || back.Tags[0].Canonical() != tag.Canonical() {
						t.Errorf("write-back %q reads back as %+v", wb, back)
					}
				}
			}
		})
	}
}

func TestTooMany(t *testing.T) {
	var b strings.Builder
	b.WriteString(`[sheet: nonsense] `) // a malformed tag is no command and does not count
	for i := range MaxCommands + 2 {
		b.WriteString(`[sheet: op="spend" pool="hp" amount="` + string(rune('1'+i%9)) + `"] `)
	}
	m := Read(b.String())
	if len(m.Tags) != MaxCommands+3 {
		t.Fatalf("got %d tags", len(m.Tags))
	}
	for i, tag := range m.Tags {
		want := refusal.Reason("")
		switch {
		case i == 0:
			want = refusal.Malformed
		case i > MaxCommands:
			want = refusal.TooMany
		}
		if tag.Reason != want {
			t.Errorf("tag %d: reason %q, want %q", i, tag.Reason, want)
		}
	}
	last := m.Tags[len(m.Tags)-1]
	if got := last.WriteBack(Outcome{Result: ResultRefused, Reason: last.Reason}); got != `[sheet: op="spend" pool="hp" amount="6" result="refused" reason="too-many"]` {
		t.Errorf("41st write-back: %s", got)
	}
	if refusal.Of(last.Err()) != refusal.TooMany || m.Tags[1].Err() != nil {
		t.Errorf("Err kinds wrong")
	}
}

func TestWriteBack(t *testing.T) {
	read := func(s string) Tag { return Read(s).Tags[0] }
	party := strings.Repeat("Member 1450; ", 30)
	cases := []struct{ name, got, want string }{
		{"ok", read(`[sheet: who="Mira" op="spend" pool="slots_3" amount="1" result="refused"]`).WriteBack(Outcome{Result: ResultOK, Now: "2/3"}),
			`[sheet: who="Mira" op="spend" pool="slots_3" amount="1" result="ok" now="2/3"]`},
		{"refused", read(`[sheet: op="spend" pool="hp" amount="9"]`).WriteBack(Outcome{Result: ResultRefused, Reason: refusal.Insufficient}),
			`[sheet: op="spend" pool="hp" amount="9" result="refused" reason="insufficient"]`},
		{"bounds", read(`[sheet: op="advance" field="xp" to="999999"]`).WriteBack(Outcome{Result: ResultRefused, Reason: refusal.BadAmount, Bounds: "0..355000"}),
			`[sheet: op="advance" field="xp" to="999999" result="refused" reason="bad-amount" bounds="0..355000"]`},
		{"malformed", func() string {
			tg := read("[sheet: Mira \"drinks\" [the potion\n]")
			return tg.WriteBack(Outcome{Result: ResultRefused, Reason: tg.Reason})
		}(),
			`[sheet: raw="Mira drinks the potion" result="refused" reason="malformed"]`},
		{"now cut at a boundary", read(`[sheet: who="party" op="rest" rest="long"]`).WriteBack(Outcome{Result: ResultOK, Now: party}),
			`[sheet: who="party" op="rest" rest="long" result="ok" now="` + strings.TrimSuffix(strings.Repeat("Member 1450; ", 18), "; ") + `"]`},
		{"now forged brackets", read(`[sheet: op="rest" rest="long"]`).WriteBack(Outcome{Result: ResultOK, Now: `HP 3/3"] [sheet: op="restore`}),
			`[sheet: op="rest" rest="long" result="ok" now="HP 3/3 sheet: op= restore"]`},
		{"inventory ok", read(`[inventory: action="add" item="Rope" count="3" who="Bram"]`).WithCount(2).WriteBack(Outcome{Result: ResultOK, Now: "5"}),
			`[inventory: action="add" item="Rope" count="2" who="Bram" result="ok" now="5"]`},
		{"inventory refused", read(`[inventory: action="give" item="Key" to="Mira"]`).WriteBack(Outcome{Result: ResultRefused, Reason: refusal.NotAllowed}),
			`[inventory: action="give" item="Key" count="1" to="Mira" result="refused" reason="not-allowed"]`},
		{"a refusal with no reason writes none", read(`[sheet: op="rest" rest="long"]`).WriteBack(Outcome{Result: ResultRefused}),
			`[sheet: op="rest" rest="long" result="refused"]`},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, c.got, c.want)
		}
	}
}

func TestAccessors(t *testing.T) {
	tag := Read(`[sheet: who="Mira" op="damage" track="health" kind="lethal" amount="-2" box="3"]`).Tags[0]
	if n, ok := tag.Int("amount"); !ok || n != -2 {
		t.Errorf("amount = %d, %v", n, ok)
	}
	if n, ok := tag.Int("box"); !ok || n != 3 {
		t.Errorf("box = %d, %v", n, ok)
	}
	if _, ok := tag.Int("kind"); ok {
		t.Errorf("kind read as an integer")
	}
	if v, ok := tag.Get("who"); !ok || v != "Mira" {
		t.Errorf("who = %q", v)
	}
	if v, _ := tag.Get("op"); v != "damage" {
		t.Errorf("op = %q", v)
	}
	if _, ok := tag.Get("pool"); ok {
		t.Errorf("pool present")
	}
	long := Read(`[sheet: op="note" field="n" value="` + strings.Repeat("x", 400) + `"]`).Tags[0]
	if v, _ := long.Get("value"); len(v) != 400 {
		t.Errorf("the engine gets the whole note, got %d characters", len(v))
	}
}

func TestReplace(t *testing.T) {
	text := "Mira casts. [sheet: op=\"cast\" spell=\"Fireball\" who=Mira result=\"ok\"] Then `[sheet: op=\"rest\" rest=\"long\"]` and\n[inventory: items=\"Rope, Torch\"]\u00a0end"
	m := Read(text)
	if len(m.Tags) != 3 {
		t.Fatalf("got %d tags", len(m.Tags))
	}
	repl := []string{m.Tags[0].WriteBack(Outcome{Result: ResultOK, Now: "slots 1/3"}), m.Tags[1].WriteBack(Outcome{Result: ResultOK, Now: "1"}), m.Tags[2].WriteBack(Outcome{Result: ResultRefused, Reason: refusal.UnknownEntry})}
	out, err := Replace(text, m.Tags, repl)
	if err != nil {
		t.Fatal(err)
	}
	want := "Mira casts. [sheet: who=\"Mira\" op=\"use\" name=\"Fireball\" result=\"ok\" now=\"slots 1/3\"] Then `[sheet: op=\"rest\" rest=\"long\"]` and\n" +
		"[inventory: action=\"add\" item=\"Rope\" count=\"1\" result=\"ok\" now=\"1\"] [inventory: action=\"add\" item=\"Torch\" count=\"1\" result=\"refused\" reason=\"unknown-entry\"]\u00a0end"
	if out != want {
		t.Errorf("Replace:\n got %q\nwant %q", out, want)
	}
	if back := Read(out); len(back.Tags) != len(m.Tags) || back.Tags[0].Canonical() != m.Tags[0].Canonical() {
		t.Errorf("written-back text reads as %+v", back.Tags)
	}
	if _, err := Replace(text, m.Tags, repl[:2]); err == nil {
		t.Errorf("Replace accepted too few replacements")
	}
	if _, err := Replace(text, []Tag{m.Tags[1], m.Tags[0]}, repl[:2]); err == nil {
		t.Errorf("Replace accepted tags out of order")
	}
	if _, err := Replace("short", m.Tags[:1], repl[:1]); err == nil {
		t.Errorf("Replace accepted a span outside the text")
	}
}

// A shorter write-back must not let an unclosed head reach a ']' it could not reach before.
func TestReplaceKeepsUnclosedHeadsUnclosed(t *testing.T) {
	filler := strings.Repeat("a", MaxBody-100)
	text := "[sheet: " + filler + ` [sheet: op="spend" pool="hp" amount="1" ` + strings.Repeat("junk ", 30) + `]`
	m := Read(text)
	if len(m.Tags) != 1 || m.Tags[0].Start == 0 {
		t.Fatalf("setup: %+v", m.Tags)
	}
	out, err := Replace(text, m.Tags, []string{m.Tags[0].WriteBack(Outcome{Result: ResultOK, Now: "3/9"})})
	if err != nil {
		t.Fatal(err)
	}
	back := Read(out)
	if len(back.Tags) != 1 || back.Tags[0].Start != m.Tags[0].Start {
		t.Errorf("written-back text reads as %+v", back.Tags)
	}
}

// The body bound counts UTF-16 code units, as Marinara's reader does: 800 emoji are 1,600
// units, a body Marinara does not take, though it is only 840 characters.
func TestBodyBoundCountsUTF16(t *testing.T) {
	in := `[sheet: op="note" field="goal" value="` + strings.Repeat("\U0001F525", 800) + `"]`
	if m := Read(in); len(m.Tags) != 0 {
		t.Errorf("read %d tags from a body Marinara's reader does not take", len(m.Tags))
	}
}

// The padding after an unclosed head counts UTF-16 code units, as the head's reach does: a
// write-back that cuts emoji is shorter by two units an emoji, and padding it by characters
// would bring the ']' back in reach.
func TestReplacePadsInUTF16Units(t *testing.T) {
	tag := `[sheet: op="use" name="` + strings.Repeat("\U0001F525", 70) + `" ` + strings.Repeat("junk ", 30) + `]`
	// The first head's ']' is 5 units out of reach; cutting 10 emoji takes 10 characters
	// but 20 units off the write-back.
	filler := strings.Repeat("a", MaxBody+5-(UTF16Len(tag)-1))
	text := "[sheet: " + filler + tag
	m := Read(text)
	if len(m.Tags) != 1 || m.Tags[0].Start == 0 {
		t.Fatalf("setup: %+v", m.Tags)
	}
	out, err := Replace(text, m.Tags, []string{m.Tags[0].WriteBack(Outcome{Result: ResultOK, Now: "no cost"})})
	if err != nil {
		t.Fatal(err)
	}
	back := Read(out)
	if len(back.Tags) != 1 || back.Tags[0].Start != m.Tags[0].Start {
		t.Errorf("written-back text reads as %+v", back.Tags)
	}
}
