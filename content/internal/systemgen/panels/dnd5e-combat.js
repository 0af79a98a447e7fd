// Combat (above the inventory): the weapons in hand — or every weapon carried, when none
// is — with to-hit, damage, range and ammunition, and the unarmed strike.
function dnd5eCombatPanel() {
  const { h, icon, fmtMod } = PackRat;
  const root = document.getElementById("root");
  const chip = trait => h("span", { class: "chip", title: PackRat.glossary[trait.replace(/ \(.*$/, "")] || "" }, trait);

  const card = (state, x) => {
    const a = DnD.attack(state, x);
    const ammo = a.ammo ? DnD.ammoFor(state, x) : [];
    return h("div", null,
      h("p", null, icon("sword"), " ", h("b", null, x.name + (x.qty > 1 ? " ×" + x.qty : "")), " ",
        h("b", null, fmtMod(a.toHit)), " to hit · ", a.damage, a.type && " " + a.type,
        a.versatile && " (two hands " + a.versatile + ")", a.range && " · " + a.range,
        " · " + a.ability, !a.proficient && " · not proficient"),
      a.traits.length > 0 && h("p", null, a.traits.map((p, i) => [i > 0 && " ", chip(p)])),
      a.offHand && h("p", null, "Off-hand (bonus action): " + a.offHand + (a.type && " " + a.type)),
      a.loading && h("p", null, "Loading: one shot per action, bonus action or reaction."),
      a.ammo && (ammo.length
        ? h("p", null, "Ammunition: " + ammo.map(s => s.qty + " " + s.name + (s.location ? " (" + s.location + ")" : "")).join(", "))
        : h("p", { class: "warn" }, "No ammunition")));
  };

  PackRat.on("state", state => {
    const all = DnD.weapons(state), ready = all.filter(x => x.equipped);
    const shown = ready.length ? ready : all;
    const str = DnD.mod(DnD.score(state, "str")), prof = Number(state.character.stats.prof ?? 2);
    PackRat.render(root,
      shown.map(x => card(state, x)),
      h("p", null, icon("user"), " ", h("b", null, "Unarmed strike"), " ", h("b", null, fmtMod(str + prof)),
        " to hit · " + Math.max(0, 1 + str) + " bludgeoning · STR"),
      !ready.length && all.length > 0 && h("p", null, h("i", null, "None equipped: every weapon carried is shown.")));
    PackRat.summary([{ icon: "sword", text: ready.length ? ready.map(x => x.name).join(", ")
      : all.length ? all.length + " weapon" + (all.length === 1 ? "" : "s") + ", none equipped" : "Unarmed" }]);
  });
}
