// The Tidewarden's card for each wayfarer: ward, load and hands as figures, what is in
// hand and the sworn keepsake as chips, and what the Tidewarden should know as notes.
function saltmarchTidewardenPanel() {
  PackRat.on("compute", state => {
    const w = Marsh.ward(state), l = Marsh.load(state), hd = Marsh.hands(state);
    const oath = state.limits.sworn || { count: 0, limit: 1 };
    const notes = [];
    if (l.over) notes.push("Burdened: moves last, cannot run");
    if (w.loud) notes.push("Loud ward: heard coming");
    const wet = state.items.filter(x => (x.states || {}).wet);
    if (wet.length) notes.push("Soaked: " + wet.map(x => x.name).join(", "));
    if (oath.count > oath.limit) notes.push("More keepsakes sworn than an oath allows");
    return {
      stats: [
        { label: "Ward", value: w.points },
        { label: "Load", value: l.slots + " / " + l.back, warn: l.over },
        { label: "Hands", value: hd.used + " / 2", warn: hd.used > 2 },
      ],
      chips: hd.held.map(x => x.name + " " + (x.item.harm || "")).concat(Marsh.sworn(state).map(x => "sworn: " + x.name)),
      notes,
    };
  });
}
