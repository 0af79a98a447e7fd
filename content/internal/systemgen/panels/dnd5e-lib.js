// The D&D 5e system's panelLib: the rules every 5e panel shares, written by sheetkeeper
// for its built-in system. A panel reads them as DnD.armorClass(state) and so on.
function dnd5eRules() {
  const fmtMod = PackRat.fmtMod;
  const score = (state, key) => Number(state.character.stats[key]) || 10;
  const mod = n => Math.floor((n - 10) / 2);
  const has = (x, feature) => (x.features || []).includes(feature);
  const props = x => x.item.properties || [];
  const prop = (x, name) => props(x).find(p => p.toLowerCase().startsWith(name.toLowerCase()));
  // "Versatile (1d10)" -> "1d10"
  const propArg = (x, name) => { const p = prop(x, name); const m = p && /\(([^)]*)\)/.exec(p); return m ? m[1] : ""; };

  // Armor Class: body armor (or 10) with what Dexterity it allows, a shield on top.
  function armorClass(state) {
    const dex = mod(score(state, "dex")), str = score(state, "str");
    const worn = state.items.filter(x => x.equipped && has(x, "armor"));
    const body = worn.find(x => x.item.category !== "Shield");
    const shield = worn.find(x => x.item.category === "Shield");
    let ac = 10 + dex, why = ["10", "Dex " + fmtMod(dex)];
    if (body) {
      const rule = body.item.dexterity || "full";
      const d = rule === "none" ? 0 : rule === "up to +2" ? Math.min(dex, 2) : dex;
      ac = (Number(body.item.armorClass) || 10) + d;
      why = [body.name + " " + (Number(body.item.armorClass) || 10)];
      if (rule !== "none") why.push("Dex " + fmtMod(d));
    }
    if (shield) {
      const b = Number(shield.item.armorClass) || 2;
      ac += b;
      why.push(shield.name + " +" + b);
    }
    return {
      ac, why: why.join(" + "),
      tooWeak: !!(body && body.item.strength && str < body.item.strength) && body.item.strength,
      stealth: worn.some(x => x.item.stealthDisadvantage),
    };
  }

  // Carrying: Strength × 15 pounds (× the size multiplier); the variant rule slows you at
  // × 5 and × 10.
  function encumbrance(state) {
    const str = score(state, "str"), mult = Number(state.character.stats.carryMultiplier) || 1;
    const rule = (state.settings || {}).encumbrance, weight = Math.round(state.totals.carried * 10) / 10;
    const capacity = str * 15 * mult;
    let label = "Unencumbered", warn = false;
    if (rule === "variant" && weight > str * 10 * mult) { label = "Heavily encumbered: −20 ft speed, disadvantage"; warn = true; }
    else if (rule === "variant" && weight > str * 5 * mult) { label = "Encumbered: −10 ft speed"; warn = true; }
    if (weight > capacity) { label = "Over carrying capacity"; warn = true; }
    return { weight, capacity, label, warn, off: rule === "off" };
  }

  // A weapon's attack: Finesse takes the better of Str and Dex, ranged weapons Dex.
  function attack(state, x) {
    const str = mod(score(state, "str")), dex = mod(score(state, "dex"));
    const ranged = /ranged/i.test(x.item.category || "");
    const ability = prop(x, "finesse") ? (dex > str ? "DEX" : "STR") : ranged ? "DEX" : "STR";
    const abil = ability === "DEX" ? dex : str;
    const profs = state.character.stats.weaponProfs || ["Simple", "Martial"];
    const proficient = profs.some(p => (x.item.category || "Simple").startsWith(p));
    const prof = Number(state.character.stats.prof ?? 2);
    const versatile = propArg(x, "versatile");
    const twoHands = !!(versatile && (x.states || {}).twoHanded);
    return {
      ability, proficient, toHit: abil + (proficient ? prof : 0),
      damage: damage(twoHands ? versatile : x.item.damage, abil), type: (x.item.damageType || "").toLowerCase(),
      versatile: !twoHands && versatile ? damage(versatile, abil) : "",
      offHand: prop(x, "light") ? damage(x.item.damage, Math.min(0, abil)) : "",
      range: x.item.range || "", ammo: !!prop(x, "ammunition"), loading: !!prop(x, "loading"),
      traits: props(x).filter(p => !/^(ammunition|versatile)/i.test(p)),
    };
  }

  // "1d8" and 3 -> "1d8 + 3"; a flat "1" and 3 -> "4".
  function damage(dice, bonus) {
    if (!dice) return "—";
    if (/^\d+$/.test(dice)) return String(Math.max(0, Number(dice) + bonus));
    return bonus ? dice + (bonus > 0 ? " + " : " − ") + Math.abs(bonus) : dice;
  }

  // The ammunition a launcher takes, by name; stacks in a quiver or case first.
  const AMMO = [[/crossbow/, /bolt/], [/blowgun/, /needle/], [/sling/, /bullet/], [/bow/, /arrow/]];
  function ammoFor(state, weapon) {
    const rule = AMMO.find(([w]) => w.test(weapon.name.toLowerCase()));
    return state.items
      .filter(x => (x.item.category === "Ammunition" || has(x, "ammunition")) && (!rule || rule[1].test(x.name.toLowerCase())))
      .sort((a, b) => Number(b.inHolder) - Number(a.inHolder));
  }

  const weapons = state => state.items.filter(x => has(x, "weapon"));

  window.DnD = { mod, score, has, armorClass, encumbrance, attack, ammoFor, weapons };
}
