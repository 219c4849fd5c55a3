// Times as the page reads and shows them. Every time is UTC, as the API gives it.

const DAY = 86400000;

// parseInput reads an as-of field: '' (now), a date (2024-06-01, midnight UTC) or an RFC 3339 time. It returns
// the RFC 3339 string to send, '' for now, or null when the text is neither.
export function parseInput(text) {
  const s = text.trim();
  if (s === '') return '';
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) {
    return Number.isNaN(Date.parse(s + 'T00:00:00Z')) ? null : s + 'T00:00:00Z';
  }
  if (/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s))) {
    return s;
  }
  return null;
}

// ms is a time string's milliseconds since the epoch.
export function ms(t) {
  return Date.parse(t);
}

// isMidnight reports whether t is 00:00:00.000 UTC.
function isMidnight(t) {
  return t % DAY === 0;
}

// fmtDay shows a valid time: its date, or date and time when it is not midnight.
export function fmtValid(t) {
  const x = ms(t);
  const iso = new Date(x).toISOString();
  return isMidnight(x) ? iso.slice(0, 10) : iso.slice(0, 10) + ' ' + iso.slice(11, 19);
}

// fmtInstant shows a transaction time to the millisecond (beliefs change within seconds).
export function fmtInstant(t) {
  const iso = new Date(ms(t)).toISOString();
  return iso.slice(0, 10) + ' ' + iso.slice(11, 23);
}

// tickLabel renders an axis tick for a domain that spans span milliseconds.
export function tickLabel(x, span) {
  const iso = new Date(x).toISOString();
  if (span >= 3 * 365 * DAY && iso.slice(5, 10) === '01-01') return iso.slice(0, 4);
  if (span >= 200 * DAY && iso.slice(8, 10) === '01') return iso.slice(0, 7);
  if (span >= 3 * DAY) return iso.slice(0, 10);
  if (span >= 2 * 3600000) return iso.slice(5, 10) + ' ' + iso.slice(11, 16);
  if (span >= 60000) return iso.slice(11, 19);
  return iso.slice(11, 23);
}

// ticks returns about n evenly spaced tick positions in [lo, hi], on round values when the span allows.
export function ticks(lo, hi, n) {
  const span = hi - lo;
  if (span <= 0) return [lo];
  const steps = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000,
    900000, 1800000, 3600000, 7200000, 21600000, 43200000, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 61 * DAY, 91 * DAY,
    182 * DAY, 365 * DAY, 730 * DAY, 1826 * DAY];
  const step = steps.find((s) => span / s <= n) || span / n;
  const out = [];
  if (step >= 30 * DAY) {
    // Months and years are not multiples of a fixed step: tick on the first of a month, every k months
    // (k = 12, 24, 60 fall on January).
    const k = [1, 2, 3, 6, 12, 24, 60].find((m) => m * 31 * DAY >= step) || 60;
    const d = new Date(lo);
    let idx = d.getUTCFullYear() * 12 + d.getUTCMonth(); // months since year 0
    if (Date.UTC(d.getUTCFullYear(), d.getUTCMonth()) < lo) idx++;
    idx = Math.ceil(idx / k) * k;
    for (let x = Date.UTC(Math.floor(idx / 12), idx % 12); x <= hi; idx += k, x = Date.UTC(Math.floor(idx / 12), idx % 12)) out.push(x);
    return out;
  }
  for (let x = Math.ceil(lo / step) * step; x <= hi; x += step) out.push(x);
  return out;
}
