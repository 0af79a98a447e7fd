// Character (above the inventory): Armor Class, what is carried, the purse and
// attunement. Collapsed, the header shows the coins and the load.
function dnd5eCharacterPanel() {
  const { h, icon, fmtMod } = PackRat;
  const root = document.getElementById("root");
  PackRat.on("state", state => {
    const ac = DnD.armorClass(state), enc = DnD.encumbrance(state), t = state.totals;
    const att = state.limits.attuned || { count: 0, limit: 3 };
    const load = enc.weight + " / " + enc.capacity + " lb";
    const scores = ["str", "dex"].map(k => k.toUpperCase() + " " + DnD.score(state, k) + " (" + fmtMod(DnD.mod(DnD.score(state, k))) + ")");
    PackRat.render(root,
      h("p", null, icon("shield"), " ", h("b", null, "Armor Class " + ac.ac), " — ", ac.why),
      ac.tooWeak && h("p", { class: "warn" }, "Strength " + ac.tooWeak + " needed: −10 ft speed"),
      ac.stealth && h("p", { class: "warn" }, "Disadvantage on Stealth"),
      !enc.off && h("p", { class: enc.warn ? "warn" : "" }, icon("weight"), " ", h("b", null, "Carried " + load), " — ", enc.label),
      h("p", null, icon("coins"), " ", h("b", null, "Coins"), " ",
        t.coins.filter(c => c.count).map(c => c.count + " " + c.key).join(", ") || "none",
        " — worth " + t.coinsWorth + " · gear " + t.gearWorth),
      h("p", { class: att.count > att.limit ? "warn" : "" }, h("b", null, "Attuned"), " " + att.count + " / " + att.limit),
      h("p", null, icon("user"), " ", scores.join(" · ")));
    PackRat.summary([{ coins: true, closed: true },
      !enc.off && { icon: "weight", text: load, title: enc.label, warn: enc.warn, closed: true }]);
  });
}
