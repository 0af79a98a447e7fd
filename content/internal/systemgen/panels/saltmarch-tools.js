// Tools of harm (above the inventory): what is in hand, with its harm die, grip and
// traits (each trait's rule from the glossary as its title).
function saltmarchToolsPanel() {
  const { h, icon } = PackRat;
  const root = document.getElementById("root");
  const chip = trait => h("span", { class: "chip", title: PackRat.glossary[trait] || "" }, trait);
  PackRat.on("state", state => {
    const all = Marsh.tools(state), held = all.filter(x => x.equipped), shown = held.length ? held : all;
    PackRat.render(root,
      shown.map(x => h("div", null,
        h("p", null, icon("sword"), " ", h("b", null, x.name), " " + (x.item.harm || "—") + " harm · ",
          x.item.grip === "both" ? "both hands" : "one hand", x.equipped ? "" : " · not in hand"),
        (x.item.properties || []).length > 0 && h("p", null, x.item.properties.map((p, i) => [i > 0 && " ", chip(p)])))),
      !all.length && h("p", null, h("i", null, "Bare hands: d4 harm, one hand.")));
    PackRat.summary([{ icon: "sword", text: held.length ? held.map(x => x.name).join(", ") : "Nothing in hand" }]);
  });
}
