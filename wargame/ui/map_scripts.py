"""The hex map's scripts that run in the browser (Bokeh ``CustomJS``): text sizes that follow
the zoom, the whole map fitted to its box, the hover filter, the Esc key and the reachable hexes
drawn the moment a counter is clicked. Split from ``wargame.ui.hexmap`` (issue #35: no module
over 800 lines); ``HexMap`` wires them (its ``_scale_labels_with_zoom``, ``_fit_on_resize``,
``_listen_for_escape`` and ``_build_prediction``)."""

# text layers sized from the zoom (pixels per hex radius); names placed for a closer zoom hidden
LABELS_JS = """
const w = fig.inner_width, span = fig.x_range.end - fig.x_range.start;
if (!(w > 0) || !(span > 0)) return;
const hexpx = size * w / span;
for (const [k, r] of Object.entries(renderers)) {
  const [f, lo, want, most] = scale[k];
  let size = Math.max(lo, Math.min(64, f * hexpx));
  // a size wanted (px) where it is at most ``most`` of the hex (HexMap.LABEL_SCALE)
  if (want) size = Math.max(size, Math.min(want, most * hexpx));
  const px = size.toFixed(1) + 'px';
  const cur = r.glyph.text_font_size;
  if (!cur || cur.value !== px) r.glyph.text_font_size = {value: px};
}
// names placed for a closer zoom are hidden until the map is zoomed in that far (drawn in
// place: not synced back to the server)
const N = names.data;
let changed = false;
const t = Array.from(N.t);
for (let i = 0; i < t.length; i++) {
  const want = hexpx + 1e-6 >= N.min_px[i] ? N.text[i] : '';
  if (t[i] !== want) { t[i] = want; changed = true; }
}
if (changed) { N.t = t; names.change.emit(); }
"""

# the whole map in view, hexes regular, whenever the plot's size changes
FIT_JS = """
const w = fig.inner_width, h = fig.inner_height;
if (!(w > 0) || !(h > 0)) return;
if (fig.__wg_fit && fig.__wg_fit[0] === w && fig.__wg_fit[1] === h) return;
fig.__wg_fit = [w, h];
const [x0, x1, y0, y1] = bounds;
const k = Math.min(w / (x1 - x0), h / (y1 - y0));
const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2, hw = w / k / 2, hh = h / k / 2;
fig.x_range.setv({start: cx - hw, end: cx + hw, reset_start: cx - hw, reset_end: cx + hw});
fig.y_range.setv({start: cy - hh, end: cy + hh, reset_start: cy - hh, reset_end: cy + hh});
"""

# the hover copy of the hexes leaves out the hex just clicked
HOVER_JS = """
const sel = src.selected.indices;
if (sel.length === 0) return;
const b = filt.booleans;
let changed = false;
for (let i = 0; i < b.length; i++) {
  const want = i !== sel[0];
  if (b[i] !== want) { b[i] = want; changed = true; }
}
if (changed) filt.change.emit();  // in place: the server's highlights say the same next
"""

# Esc anywhere on the page (not while typing) counted in a source that syncs back
ESC_JS = """
if (window.__wg_esc && window.__wg_esc.includes(src.id)) return;
window.__wg_esc = (window.__wg_esc || []).concat([src.id]);
window.addEventListener('keydown', (ev) => {
  if (ev.key !== 'Escape') return;
  const t = ev.target && ev.target.tagName;
  if (t === 'INPUT' || t === 'TEXTAREA' || t === 'SELECT') return;
  src.data = {n: [(src.data.n[0] || 0) + 1]};
});
"""

# the reachable hexes drawn from the server's table the moment a counter is clicked
PREDICT_JS = """
const sel = src.selected.indices;
if (sel.length === 0) return;
const i = sel[0];
const H = hl.data;
const kinds = Array.from(H.kind);
const busy = ['reach', 'entry', 'target', 'retreat', 'attacker'];
if (kinds.some(k => busy.includes(k))) return;  // a unit is selected: the click may be an order
const S = src.data;
for (let j = 0; j < kinds.length; j++) {
  if (kinds[j] === 'selected' && H.q[j] === S.q[i] && H.r[j] === S.r[i]) return;  // cycling a stack
}
const P = pred.data;
const rows = [];
for (let j = 0; j < P.origin.length; j++) { if (P.origin[j] === i) rows.push(j); }
if (rows.length === 0) return;
const cols = Object.keys(H);
const out = {};
for (const c of cols) out[c] = [];
for (let j = 0; j < kinds.length; j++) {  // keep the overlays (history)
  if (kinds[j] === 'selected' || kinds[j] === 'zoc') continue;
  for (const c of cols) out[c].push(H[c][j]);
}
const hexcol = (f) => { f = Math.max(0, Math.min(1, f));
  const h = (v) => Math.floor(v).toString(16).padStart(2, '0');
  return '#' + h(250 - 180 * f) + h(220 - 40 * f) + h(90 - 40 * f); };
const add = (k, kind, fill, st) => {
  out.q.push(S.q[k]); out.r.push(S.r[k]); out.x.push(S.x[k]); out.y.push(S.y[k]);
  out.kind.push(kind); out.fill.push(fill); out.fill_alpha.push(st.fill_alpha);
  out.line.push(st.line_color); out.line_width.push(st.line_width);
  out.mark.push(st.mark || 'dot'); out.mark_size.push(st.mark ? (st.mark_size || 14) : 0); };
const lx = [], ly = [], lt = [];
for (const j of rows) {
  const k = P.idx[j];
  add(k, 'reach', hexcol(P.frac[j]), styles.reach);
  if (rows.length > max_labels) continue;
  lx.push(S.x[k]); ly.push(S.y[k] - 0.62 * size);
  lt.push(String(P.left[j]) + (P.engaged[j] ? '!' : ''));
}
const Z = zoc.data;
for (let j = 0; j < Z.idx.length; j++) add(Z.idx[j], 'zoc', styles.zoc.fill_color, styles.zoc);
add(i, 'selected', styles.selected.fill_color, styles.selected);
// in place + change.emit(): drawn now, not synced back; the server's answer replaces it
for (const c of cols) H[c] = out[c];
hl.change.emit();
const L = lab.data;
L.x = lx; L.y = ly; L.t = lt;
lab.change.emit();
"""
