// Mneme's timeline page: search a workspace as an agent, open a subject, and see every slot's versions on valid
// time and on transaction time with the decision behind each change; "as of" controls re-read both axes.

import { el, clear, short } from './dom.js';
import * as api from './api.js';
import { parseInput, fmtValid, fmtInstant } from './time.js';
import { claimsOf, validChart, transactionChart } from './timeline.js';

const $ = (id) => document.getElementById(id);

const STATUSES = ['active', 'superseded', 'disputed', 'pending', 'rejected', 'retracted'];

const state = {
  creds: api.loadCredentials(),
  key: '',                         // the open subject's key
  view: { asOf: '', knownAt: '' }, // RFC 3339, '' = now
  seq: 0,                          // the latest subject load; older answers are dropped
  data: null,
};

// --- status line -------------------------------------------------------------------------------------------------

function say(msg, kind = 'info') {
  const s = $('status');
  s.textContent = msg;
  s.className = 'status ' + kind;
  s.hidden = !msg;
}

function fail(err) {
  say(err instanceof api.ApiError ? err.describe() : 'Request failed: ' + (err && err.message ? err.message : String(err)), 'error');
}

function connected() {
  if (!state.creds.workspace || !state.creds.agent) {
    say('Enter a workspace and an agent first (and a key outside development mode).', 'error');
    $('workspace').focus();
    return false;
  }
  return true;
}

// --- small renderers ---------------------------------------------------------------------------------------------

function badge(status, extra) {
  return el('span', { class: 'badge st-' + status + (extra ? ' ' + extra : '') }, status);
}

function validSpan(from, to) {
  return fmtValid(from) + ' → ' + (to ? fmtValid(to) : 'now');
}

// believedSpan shows a transaction-time interval; an end on the same day as the start shows its time only.
function believedSpan(from, to) {
  if (!to) return fmtInstant(from) + ' → ' + (state.view.knownAt ? 'known_at' : 'now');
  const a = fmtInstant(from);
  const b = fmtInstant(to);
  return a + ' → ' + (a.slice(0, 10) === b.slice(0, 10) ? b.slice(11) : b);
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

// named replaces the claim ids in a decision's reason with the claims' values, where the subject holds them.
function named(text, entries) {
  return text.replace(UUID, (id) => {
    const e = entries.get(id);
    return e ? (e.negated ? 'never ' : '') + e.object : id.slice(0, 8);
  });
}

// --- search ------------------------------------------------------------------------------------------------------

async function runSearch(query) {
  if (!connected() || !query.trim()) return;
  const list = clear($('results'));
  list.appendChild(el('li', { class: 'muted' }, 'Searching…'));
  try {
    const res = await api.search(state.creds, query);
    clear(list);
    say('');
    if (!res.claims || res.claims.length === 0) {
      list.appendChild(el('li', { class: 'muted' }, 'Memory holds nothing that matches.'));
      return;
    }
    for (const c of res.claims) {
      list.appendChild(el('li', { class: 'result', dataset: { subject: c.subject_key, claim: c.id } },
        el('button', { class: 'result-button', attrs: { type: 'button' }, on: { click: () => openSubject(c.subject_key) } },
          el('span', { class: 'result-text' }, c.text),
          el('span', { class: 'result-meta' },
            el('span', { class: 'result-subject' }, c.subject), ' · ', badge(c.status), ' · valid ', validSpan(c.valid_from, c.valid_to),
            c.negated ? el('span', { class: 'badge negated' }, 'negated') : null,
            c.conflicts && c.conflicts.length ? el('span', { class: 'badge conflict' }, 'conflicts') : null))));
    }
    $('side-hint').hidden = true;
  } catch (err) {
    clear(list);
    fail(err);
  }
}

// --- navigation: the open subject and the view live in the URL's fragment ------------------------------------------

function openSubject(key) {
  const p = new URLSearchParams();
  p.set('subject', key);
  if (state.view.asOf) p.set('as_of', state.view.asOf);
  if (state.view.knownAt) p.set('known_at', state.view.knownAt);
  const hash = '#' + p.toString();
  if (location.hash === hash) route();
  else location.hash = hash;
}

function route() {
  const p = new URLSearchParams(location.hash.slice(1));
  const key = p.get('subject') || '';
  state.view = { asOf: p.get('as_of') || '', knownAt: p.get('known_at') || '' };
  $('as-of').value = state.view.asOf;
  $('known-at').value = state.view.knownAt;
  if (key && state.creds.workspace && state.creds.agent) {
    state.key = key;
    loadSubject();
  }
}

// applyView reads the as-of fields and re-reads the subject.
function applyView() {
  const asOf = parseInput($('as-of').value);
  const knownAt = parseInput($('known-at').value);
  $('as-of').classList.toggle('invalid', asOf === null);
  $('known-at').classList.toggle('invalid', knownAt === null);
  if (asOf === null || knownAt === null) {
    say('Write a time as a date (2024-06-01) or an RFC 3339 time (2024-06-01T12:00:00Z), or leave it empty for now.', 'error');
    return;
  }
  state.view = { asOf, knownAt };
  if (state.key) openSubject(state.key);
}

// --- a subject ---------------------------------------------------------------------------------------------------

async function loadSubject() {
  if (!connected()) return;
  const seq = ++state.seq;
  const section = $('subject');
  section.setAttribute('aria-busy', 'true');
  try {
    const data = await api.subject(state.creds, state.key, state.view);
    if (seq !== state.seq) return;
    state.data = data;
    say('');
    renderSubject(data);
  } catch (err) {
    if (seq !== state.seq) return;
    fail(err);
  } finally {
    if (seq === state.seq) section.removeAttribute('aria-busy');
  }
}

function renderSubject(data) {
  const section = $('subject');
  section.hidden = false;
  $('subject-title').textContent = data.subject;
  $('subject-key').textContent = data.subject_key;
  // Every claim and decision of the subject by id, for names in relations across slots.
  const entries = new Map();
  const decisions = new Map();
  for (const sl of data.slots) {
    for (const c of claimsOf(sl)) entries.set(c.id, c.belief);
    for (const d of sl.decisions) decisions.set(d.id, d);
  }
  renderLegend();
  renderCurrent(data, entries);
  const slots = clear($('slots'));
  for (const sl of data.slots) slots.appendChild(slotCard(sl, entries, decisions));
  section.dataset.subject = data.subject_key;
  section.dataset.agent = state.creds.agent;
  section.dataset.view = (state.view.asOf || 'now') + '|' + (state.view.knownAt || 'now');
}

function renderLegend() {
  const legend = clear($('legend'));
  for (const s of STATUSES) legend.appendChild(badge(s));
  legend.appendChild(el('span', { class: 'badge negated' }, 'negated'));
  legend.appendChild(el('span', { class: 'legend-note' }, 'Click a bar or a row for the claim\'s provenance and decisions; click a chart to read as of that time.'));
}

function renderCurrent(data, entries) {
  const box = clear($('current'));
  const when = [];
  if (state.view.asOf) when.push('as of ' + fmtValid(state.view.asOf));
  if (state.view.knownAt) when.push('as memory believed at ' + fmtInstant(state.view.knownAt));
  box.appendChild(el('h3', null, 'Current beliefs' + (when.length ? ' ' + when.join(', ') : ' (now)')));
  const dl = el('dl', { class: 'current-list' });
  for (const sl of data.slots) {
    const values = sl.current.map((id) => entries.get(id)).filter(Boolean);
    const pending = claimsOf(sl).filter((c) => c.belief.status === 'pending');
    dl.appendChild(el('dt', { dataset: { slot: sl.slot_key } }, sl.predicate, sl.slot_key.startsWith('not:') ? el('span', { class: 'badge negated' }, 'negated') : null));
    dl.appendChild(el('dd', { class: 'current-value', dataset: { slot: sl.slot_key } },
      values.length ? values.map((e, i) => [i ? (sl.disputed ? ' vs ' : ', ') : '', el('strong', null, e.object)]) : el('span', { class: 'muted' }, 'none'),
      sl.disputed ? el('span', { class: 'badge st-disputed' }, 'disputed') : null,
      pending.length ? el('span', { class: 'badge st-pending' }, pending.length + ' pending') : null,
      values.some((e) => e.contradicts && e.contradicts.length) ? el('span', { class: 'badge conflict' }, 'contradicted') : null));
  }
  box.appendChild(dl);
}

function slotCard(sl, entries, decisions) {
  const claims = claimsOf(sl);
  const negatedSlot = sl.slot_key.startsWith('not:');
  const card = el('section', { class: 'slot', dataset: { slot: sl.slot_key } });
  card.appendChild(el('header', { class: 'slot-head' },
    el('h3', null, sl.predicate),
    el('span', { class: 'key' }, sl.slot_key),
    el('span', { class: 'kind' }, sl.functional ? 'single-valued' : 'accumulating'),
    negatedSlot ? el('span', { class: 'badge negated' }, 'negated') : null,
    sl.disputed ? el('span', { class: 'badge st-disputed' }, 'disputed') : null));

  const current = sl.current.map((id) => entries.get(id)).filter(Boolean).map((e) => e.object);
  card.appendChild(el('p', { class: 'slot-current' },
    current.length === 0 ? 'No current value' : (sl.disputed ? 'Disputed between ' : 'Current: '),
    current.map((o, i) => [i ? (sl.disputed ? ' and ' : ', ') : '', el('strong', null, o)])));

  const pick = (field) => (t) => {
    const iso = new Date(t).toISOString();
    $(field).value = field === 'as-of' ? iso.slice(0, 10) : iso;
    applyView();
  };
  card.appendChild(el('figure', { class: 'axis' },
    el('figcaption', null, el('strong', null, 'Valid time'), ' — when each value was true in the world'),
    validChart(claims, state.view, pick('as-of'), showClaim)));
  card.appendChild(el('figure', { class: 'axis' },
    el('figcaption', null, el('strong', null, 'Transaction time'), ' — when memory held each belief version'),
    transactionChart(claims, state.view, pick('known-at'), showClaim)));

  card.appendChild(versionsTable(claims, entries, decisions));
  card.appendChild(decisionList(sl, entries));
  return card;
}

// relations lists what ties a claim to others: supersessions and contradictions, by the other side's value.
function relations(e, entries) {
  const name = (id) => {
    const o = entries.get(id);
    return o ? (o.negated ? 'never ' + o.object : o.object) : short(id, 8);
  };
  const out = [];
  for (const s of e.superseded_by || []) out.push(el('span', { class: 'rel' }, 'superseded by ', el('strong', null, name(s.claim_id))));
  for (const s of e.supersedes || []) out.push(el('span', { class: 'rel' }, 'supersedes ', el('strong', null, name(s.claim_id))));
  for (const c of e.contradicts || []) {
    const o = entries.get(c.claim_id);
    out.push(el('span', { class: 'rel conflict' }, 'contradicts ', el('q', null, o ? o.text : short(c.claim_id, 8))));
  }
  if (e.status === 'pending') out.push(el('span', { class: 'rel' }, 'awaiting confirmation'));
  return out;
}

// corroboration marks a belief version whose content two or more agents asserted independently in its tier
// (the API's count, cut at known_at); one agent alone, however often it repeated itself, gets no mark.
function corroboration(v) {
  if (!v.corroborated) return null;
  return el('span', { class: 'badge corroborated', title: 'asserted independently by ' + v.corroborations + ' agents (the owner included)' },
    'corroborated by ' + v.corroborations + ' agents');
}

function versionsTable(claims, entries, decisions) {
  const table = el('table', { class: 'versions' },
    el('thead', null, el('tr', null, el('th', null, 'Value'), el('th', null, 'v'), el('th', null, 'Status'),
      el('th', null, 'Valid time'), el('th', null, 'Believed (transaction time)'), el('th', null, 'Change and decision'))));
  const body = el('tbody');
  for (const c of claims) {
    for (const v of c.versions) {
      const d = v.decision_id ? decisions.get(v.decision_id) : null;
      body.appendChild(el('tr', {
        class: (v.retired_at ? 'retired' : 'held') + (v.negated ? ' negated' : ''),
        dataset: { claim: v.claim_id, version: String(v.version), object: v.object, status: v.status },
        on: { click: () => showClaim(v.claim_id) },
      },
      el('td', { class: 'c-value' }, el('span', { class: 'value' }, v.object), v.negated ? el('span', { class: 'badge negated' }, 'negated') : null,
        v.scope === 'private' ? el('span', { class: 'badge private' }, 'private') : null,
        corroboration(v),
        el('span', { class: 'owner' }, v.owner)),
      el('td', { class: 'c-version' }, String(v.version)),
      el('td', { class: 'c-status' }, badge(v.status)),
      el('td', { class: 'c-valid' }, validSpan(v.valid_from, v.valid_to)),
      el('td', { class: 'c-believed' }, believedSpan(v.recorded_at, v.retired_at)),
      el('td', { class: 'c-change' },
        d ? el('span', { class: 'decision' }, el('code', null, d.operator), ' → ', d.outcome, el('span', { class: 'reason' }, named(d.reason, entries)))
          : (v.decision_id ? el('span', { class: 'muted' }, 'decision ' + short(v.decision_id, 8)) : el('span', { class: 'muted' }, 'recorded')),
        relations(v, entries))));
    }
  }
  table.appendChild(body);
  return table;
}

function decisionItem(d, entries) {
  const names = (ids) => ids.map((id) => {
    const e = entries.get(id);
    return e ? e.object : short(id, 8);
  }).join(', ');
  return el('li', { class: 'decision-item', dataset: { decision: d.id } },
    el('div', null, el('span', { class: 'when' }, fmtInstant(d.decided_at)), ' ', el('code', null, d.operator), ' → ', el('strong', null, d.outcome), ' ',
      el('span', { class: 'policy' }, 'policy ' + d.policy_version)),
    el('div', { class: 'reason' }, named(d.reason, entries)),
    el('div', { class: 'inputs' }, 'inputs (' + d.inputs_total + '): ', names(d.inputs),
      d.inputs_total > d.inputs.length ? ' …' : '',
      d.winner ? [' · winner: ', el('strong', null, names([d.winner]))] : null,
      d.losers && d.losers.length ? [' · losers: ', names(d.losers)] : null));
}

function decisionList(sl, entries) {
  const box = el('details', { class: 'decisions' });
  box.open = sl.decisions.length > 0 && sl.decisions.length <= 6;
  box.appendChild(el('summary', null, 'Decisions (' + sl.decisions.length + (sl.decisions_total > sl.decisions.length ? ' of ' + sl.decisions_total : '') + ')'));
  const ol = el('ol');
  for (const d of sl.decisions) ol.appendChild(decisionItem(d, entries));
  box.appendChild(ol);
  return box;
}

// --- a claim's provenance and decision chain ---------------------------------------------------------------------

async function showClaim(id) {
  const aside = $('detail');
  const body = clear($('detail-body'));
  aside.hidden = false;
  body.appendChild(el('p', { class: 'muted' }, 'Loading claim…'));
  try {
    const r = await api.claim(state.creds, id, { knownAt: state.view.knownAt });
    const entries = new Map();
    if (state.data) for (const sl of state.data.slots) for (const c of claimsOf(sl)) entries.set(c.id, c.belief);
    clear(body);
    aside.dataset.claim = id;
    const c = r.claim;
    const p = r.provenance || {};
    body.appendChild(el('h3', null, c.text));
    body.appendChild(el('p', null, badge(c.status), c.negated ? el('span', { class: 'badge negated' }, 'negated') : null,
      c.scope === 'private' ? el('span', { class: 'badge private' }, 'private') : null));
    const rows = [
      ['Subject', c.subject + ' (' + c.subject_key + ')'], ['Predicate', c.predicate], ['Object', c.object],
      ['Valid', validSpan(c.valid_from, c.valid_to)], ['Recorded', fmtInstant(c.recorded_at)],
      ['Owner', c.owner + ' · ' + c.scope], ['Confidence', String(c.confidence)],
      ['Asserted by', p.agent_id || ''], ['Extractor', [p.extractor, p.extractor_version].filter(Boolean).join(' ')],
      ['Session', p.session_id || ''], ['Turns', (p.turn_ids || []).join(', ')], ['Source', p.source_ref || ''], ['Claim id', c.id],
    ];
    const dl = el('dl', { class: 'facts' });
    for (const [k, v] of rows) if (v) dl.appendChild(el('div', null, el('dt', null, k), el('dd', null, v)));
    body.appendChild(dl);
    const rel = relations({ superseded_by: r.superseded_by, supersedes: r.supersedes, contradicts: r.contradicts, status: c.status }, entries);
    if (rel.length) body.appendChild(el('p', { class: 'relations' }, rel));
    body.appendChild(el('h4', null, 'Versions'));
    body.appendChild(el('ol', { class: 'plain' }, r.versions.map((v) => el('li', null, 'v' + v.version + ' ', badge(v.status),
      ' valid ' + validSpan(v.valid_from, v.valid_to) + ', believed ' + believedSpan(v.recorded_at, v.retired_at)))));
    body.appendChild(el('h4', null, 'Decisions (' + r.decisions.length + (r.decisions_total > r.decisions.length ? ' of ' + r.decisions_total : '') + ')'));
    body.appendChild(el('ol', { class: 'plain' }, r.decisions.map((d) => decisionItem(d, entries))));
    if (r.corroborations && r.corroborations.length) {
      body.appendChild(el('h4', null, 'Corroborated by'));
      body.appendChild(el('ul', { class: 'plain' }, r.corroborations.map((k) => el('li', null, k.source + ' · ' + fmtInstant(k.recorded_at)))));
    }
  } catch (err) {
    clear(body);
    body.appendChild(el('p', { class: 'error' }, err instanceof api.ApiError ? err.describe() : String(err)));
  }
}

// --- wiring ------------------------------------------------------------------------------------------------------

function init() {
  $('workspace').value = state.creds.workspace;
  $('agent').value = state.creds.agent;
  $('key').value = state.creds.key;
  $('connect').addEventListener('submit', (ev) => {
    ev.preventDefault();
    state.creds = { workspace: $('workspace').value.trim(), agent: $('agent').value.trim(), key: $('key').value.trim() };
    api.saveCredentials(state.creds);
    say('Reading workspace ' + state.creds.workspace + ' as agent ' + state.creds.agent + (state.creds.key ? ' with a key' : ' without a key') + '.', 'info');
    if (state.key) loadSubject();
  });
  $('search').addEventListener('submit', (ev) => { ev.preventDefault(); runSearch($('query').value); });
  $('open').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const name = $('open-subject').value.trim();
    if (name && connected()) openSubject(name);
  });
  $('asof').addEventListener('submit', (ev) => { ev.preventDefault(); applyView(); });
  $('as-of-now').addEventListener('click', () => { $('as-of').value = ''; applyView(); });
  $('known-at-now').addEventListener('click', () => { $('known-at').value = ''; applyView(); });
  $('detail-close').addEventListener('click', () => { $('detail').hidden = true; });
  window.addEventListener('hashchange', route);
  route();
}

init();
