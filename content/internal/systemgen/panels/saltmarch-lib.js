// Saltmarch's panelLib, written by sheetkeeper for its original system: ward, load in
// slots, hands, the sworn keepsake and the tide, shared by every Saltmarch panel as
// Marsh.ward(state) and so on.
function saltmarchRules() {
  const has = (x, feature) => (x.features || []).includes(feature);
  const stat = (state, key, dflt) => { const v = Number(state.character.stats[key]); return Number.isFinite(v) && v > 0 ? v : dflt; };

  // Ward: the armor points of every worn ward, each stopping one point of harm.
  function ward(state) {
    const worn = state.items.filter(x => x.equipped && has(x, "ward"));
    return { points: worn.reduce((n, x) => n + (Number(x.item.armorPoints) || 0), 0), worn,
      loud: worn.some(x => (x.item.finish || []).includes("Loud")) };
  }

  // Load: slots carried against the back's ten (a stat may say otherwise).
  function load(state) {
    const slots = Math.round(state.totals.carried * 10) / 10, back = stat(state, "backSlots", 10);
    return { slots, back, over: slots > back };
  }

  // Hands: tools of harm in hand, a two-handed grip taking both.
  function hands(state) {
    const held = state.items.filter(x => x.equipped && has(x, "harm"));
    return { held, used: held.reduce((n, x) => n + (x.item.grip === "both" ? 2 : 1), 0) };
  }

  const sworn = state => state.items.filter(x => (x.states || {}).sworn);
  const tide = state => { const t = ((state.values || {}).global || {}).tide; return t == null ? "" : String(t); };
  const tools = state => state.items.filter(x => has(x, "harm"));

  window.Marsh = { has, ward, load, hands, sworn, tide, tools };
}
