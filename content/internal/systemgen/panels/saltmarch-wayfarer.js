// Wayfarer (above the inventory): ward, load, hands, purse, the sworn keepsake and the
// tide. Collapsed, the header shows the purse and the load.
function saltmarchWayfarerPanel() {
  const { h, icon } = PackRat;
  const root = document.getElementById("root");
  PackRat.on("state", state => {
    const w = Marsh.ward(state), l = Marsh.load(state), hd = Marsh.hands(state), t = state.totals;
    const oath = state.limits.sworn || { count: 0, limit: 1 }, sworn = Marsh.sworn(state), tide = Marsh.tide(state);
    PackRat.render(root,
      h("p", null, icon("shield"), " ", h("b", null, "Ward " + w.points),
        " — " + (w.worn.length ? w.worn.map(x => x.name).join(", ") : "nothing worn"), w.loud && " (loud)"),
      h("p", { class: l.over ? "warn" : "" }, icon("weight"), " ", h("b", null, "Load " + l.slots + " / " + l.back + " slots"),
        l.over ? " — burdened: you move last and cannot run" : ""),
      h("p", { class: hd.used > 2 ? "warn" : "" }, h("b", null, "Hands " + hd.used + " / 2"),
        hd.held.length ? " — " + hd.held.map(x => x.name).join(", ") : ""),
      h("p", null, icon("coins"), " ", h("b", null, "Purse"), " ",
        t.coins.filter(c => c.count).map(c => c.count + " " + c.key).join(", ") || "empty", " — worth " + t.coinsWorth),
      h("p", { class: oath.count > oath.limit ? "warn" : "" }, h("b", null, "Sworn"), " ",
        sworn.length ? sworn.map(x => x.name).join(", ") : "no keepsake", " (" + oath.count + " / " + oath.limit + ")"),
      tide && h("p", null, h("i", null, "The tide is at " + tide + ".")));
    PackRat.summary([{ coins: true, closed: true },
      { icon: "weight", text: l.slots + " / " + l.back + " slots", warn: l.over, closed: true }]);
  });
}
