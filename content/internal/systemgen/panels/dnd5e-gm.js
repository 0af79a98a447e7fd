// The GM's player card: Armor Class, load and attunement as figures, the weapons in hand
// as chips, and what the GM should know as notes.
function dnd5eGmPlayerPanel() {
  const fmtMod = PackRat.fmtMod;
  PackRat.on("compute", state => {
    const ac = DnD.armorClass(state), enc = DnD.encumbrance(state);
    const att = state.limits.attuned || { count: 0, limit: 3 };
    const ready = DnD.weapons(state).filter(x => x.equipped);
    const notes = [];
    if (ac.tooWeak) notes.push("Strength below " + ac.tooWeak + " for their armor: −10 ft speed");
    if (ac.stealth) notes.push("Stealth at disadvantage (armor)");
    if (!enc.off && enc.warn) notes.push(enc.label);
    for (const x of ready) {
      if (DnD.attack(state, x).ammo && !DnD.ammoFor(state, x).length) notes.push(x.name + ": no ammunition");
    }
    if (att.count > att.limit) notes.push("Attuned to more than " + att.limit + " items");
    return {
      stats: [
        { label: "AC", value: ac.ac, sub: ac.why },
        !enc.off && { label: "Load", value: enc.weight + " / " + enc.capacity + " lb", sub: enc.label, warn: enc.warn },
        { label: "Attuned", value: att.count + " / " + att.limit, warn: att.count > att.limit },
      ].filter(Boolean),
      chips: ready.map(x => { const a = DnD.attack(state, x); return x.name + " " + fmtMod(a.toHit) + " · " + a.damage; }),
      notes,
    };
  });
}
