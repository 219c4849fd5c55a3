// The two time axes of a slot as SVG: valid time (when each value was true in the world) and transaction time
// (when memory held each belief version). Geometry is the page's own; every label is a text node.

import { svg, short } from './dom.js';
import { ms, tickLabel, ticks, fmtValid, fmtInstant } from './time.js';

const W = 880;        // viewBox width; the SVG scales to its container
const LABEL = 150;    // the row-label column
const PAD = 14;       // right padding
const ROW = 24;       // row height
const TOP = 18;       // room for the marker's label
const AXIS = 24;      // tick labels

// chart draws rows of bars over [lo, hi]. rows: {id, label, title, negated, segments: [{from, to|null, status,
// title}]}. marker: {at (ms), label}. onPick(ms) is called for a click on empty chart space, onClaim(id) for a
// click on a bar or its label.
function chart(kind, rows, lo, hi, marker, onPick, onClaim) {
  const h = TOP + rows.length * ROW + AXIS;
  const x = (t) => LABEL + ((t - lo) / (hi - lo)) * (W - LABEL - PAD);
  const root = svg('svg', { viewBox: `0 0 ${W} ${h}`, class: 'chart chart-' + kind, role: 'img', 'aria-label': kind + ' time chart' });
  const bg = svg('rect', { x: LABEL, y: TOP, width: W - LABEL - PAD, height: rows.length * ROW, class: 'plot' });
  bg.addEventListener('click', (ev) => {
    const box = root.getBoundingClientRect();
    const vx = ((ev.clientX - box.left) / box.width) * W;
    onPick(Math.round(lo + ((vx - LABEL) / (W - LABEL - PAD)) * (hi - lo)));
  });
  root.appendChild(bg);
  const span = hi - lo;
  for (const tx of ticks(lo, hi, 6)) {
    const px = x(tx);
    root.appendChild(svg('line', { x1: px, x2: px, y1: TOP, y2: TOP + rows.length * ROW, class: 'grid' }));
    const anchor = px > W - PAD - 40 ? 'end' : 'middle';
    root.appendChild(svg('text', { x: anchor === 'end' ? W - 2 : px, y: h - 7, class: 'tick', 'text-anchor': anchor }, tickLabel(tx, span)));
  }
  rows.forEach((r, i) => {
    const y = TOP + i * ROW;
    const label = svg('text', { x: LABEL - 8, y: y + ROW / 2 + 4, class: 'row-label' + (r.negated ? ' negated' : ''), 'text-anchor': 'end' },
      short(r.label, 19), svg('title', {}, r.title));
    label.addEventListener('click', () => onClaim(r.id));
    root.appendChild(label);
    for (const s of r.segments) {
      const x1 = x(s.from);
      const x2 = s.to === null ? x(hi) : x(s.to);
      const g = svg('g', { class: 'bar st-' + s.status + (s.to === null ? ' open' : '') + (r.negated ? ' negated' : ''), 'data-claim': r.id });
      g.appendChild(svg('rect', { x: x1, y: y + 5, width: Math.max(3, x2 - x1), height: ROW - 10, rx: 3 }));
      if (s.to === null) {
        g.appendChild(svg('path', { d: `M${x2 - 1} ${y + 5} l8 ${(ROW - 10) / 2} l-8 ${(ROW - 10) / 2} z`, class: 'arrow' }));
      }
      g.appendChild(svg('title', {}, s.title));
      g.addEventListener('click', () => onClaim(r.id));
      root.appendChild(g);
    }
  });
  if (marker) {
    const px = x(marker.at);
    root.appendChild(svg('line', { x1: px, x2: px, y1: TOP - 4, y2: TOP + rows.length * ROW, class: 'marker' }));
    const anchor = px > W - 140 ? 'end' : 'start';
    root.appendChild(svg('text', { x: anchor === 'end' ? px - 4 : px + 4, y: TOP - 6, class: 'marker-label', 'text-anchor': anchor }, marker.label));
  }
  return root;
}

// domain pads [lo, hi] so bars do not touch the edges.
function domain(lo, hi, minSpan) {
  if (hi - lo < minSpan) {
    const mid = (lo + hi) / 2;
    lo = mid - minSpan / 2;
    hi = mid + minSpan / 2;
  }
  const pad = (hi - lo) * 0.04;
  return [lo - pad, hi + pad];
}

// claimsOf groups a slot's timeline entries by claim, oldest valid time first; each claim's belief is its
// version not retired (as of known_at), or its last version when memory no longer holds it.
export function claimsOf(slot) {
  const byID = new Map();
  for (const e of slot.timeline) {
    if (!byID.has(e.claim_id)) byID.set(e.claim_id, []);
    byID.get(e.claim_id).push(e);
  }
  const out = [];
  for (const [id, versions] of byID) {
    versions.sort((a, b) => a.version - b.version);
    const belief = versions.find((v) => !v.retired_at) || versions[versions.length - 1];
    out.push({ id, versions, belief });
  }
  out.sort((a, b) => ms(a.belief.valid_from) - ms(b.belief.valid_from) || a.belief.object.localeCompare(b.belief.object));
  return out;
}

// validChart lays each claim's believed valid interval on valid time.
export function validChart(claims, view, onPick, onClaim) {
  const now = Date.now();
  const times = [];
  for (const c of claims) {
    times.push(ms(c.belief.valid_from));
    if (c.belief.valid_to) times.push(ms(c.belief.valid_to));
  }
  const asOf = view.asOf ? ms(view.asOf) : null;
  times.push(asOf ?? now);
  const [lo, hi] = domain(Math.min(...times), Math.max(...times), 2 * 86400000);
  const rows = claims.map((c) => ({
    id: c.id, label: c.belief.object, negated: c.belief.negated, title: c.belief.text,
    segments: [{
      from: ms(c.belief.valid_from), to: c.belief.valid_to ? ms(c.belief.valid_to) : null, status: c.belief.status,
      title: `${c.belief.object}: ${c.belief.status}, valid ${fmtValid(c.belief.valid_from)} → ${c.belief.valid_to ? fmtValid(c.belief.valid_to) : 'now'}`,
    }],
  }));
  const marker = { at: asOf ?? now, label: asOf !== null ? 'as of ' + fmtValid(view.asOf) : 'now' };
  return chart('valid', rows, lo, hi, marker, onPick, onClaim);
}

// transactionChart lays each belief version of each claim on transaction time: from when memory recorded it to
// when it was retired (replaced by the claim's next version).
export function transactionChart(claims, view, onPick, onClaim) {
  const now = Date.now();
  const knownAt = view.knownAt ? ms(view.knownAt) : null;
  const end = knownAt ?? now;
  const times = [end];
  for (const c of claims) {
    for (const v of c.versions) {
      times.push(ms(v.recorded_at));
      if (v.retired_at) times.push(ms(v.retired_at));
    }
  }
  const [lo, hi] = domain(Math.min(...times), Math.max(...times), 2000);
  const rows = claims.map((c) => ({
    id: c.id, label: c.belief.object, negated: c.belief.negated, title: c.belief.text,
    // Seen from known_at, a version still held then is drawn up to known_at: what came after is not in view.
    segments: c.versions.map((v) => ({
      from: ms(v.recorded_at), to: v.retired_at ? ms(v.retired_at) : knownAt, status: v.status,
      title: `${v.object} v${v.version}: ${v.status}, believed ${fmtInstant(v.recorded_at)} → ${v.retired_at ? fmtInstant(v.retired_at) : (knownAt !== null ? 'known_at' : 'now')}`,
    })),
  }));
  const marker = { at: end, label: knownAt !== null ? 'known at ' + fmtInstant(view.knownAt) : 'now' };
  return chart('transaction', rows, lo, hi, marker, onPick, onClaim);
}
