// The page's only way to the server: Mneme's /v1 API, with the workspace, agent and key the person entered.
// The page adds no authority of its own — every request carries X-Mneme-Agent and, when given, the bearer key,
// exactly as an agent's HTTP client would, and the server checks them the same way.

const STORE = { workspace: 'mneme.timeline.workspace', agent: 'mneme.timeline.agent', key: 'mneme.timeline.key' };

// Credentials live in sessionStorage: this tab only, gone when it closes.
export function loadCredentials() {
  return {
    workspace: sessionStorage.getItem(STORE.workspace) || '',
    agent: sessionStorage.getItem(STORE.agent) || '',
    key: sessionStorage.getItem(STORE.key) || '',
  };
}

export function saveCredentials(c) {
  sessionStorage.setItem(STORE.workspace, c.workspace);
  sessionStorage.setItem(STORE.agent, c.agent);
  if (c.key) sessionStorage.setItem(STORE.key, c.key);
  else sessionStorage.removeItem(STORE.key);
}

// ApiError is a non-2xx answer: the status and the server's error body (code, field, message, limit).
export class ApiError extends Error {
  constructor(status, body) {
    super(body.message || ('HTTP ' + status));
    this.status = status;
    this.code = body.code || String(status);
    this.field = body.field || '';
    this.limit = body.limit || '';
  }
  describe() {
    let s = this.status + ' ' + this.code;
    if (this.field) s += ' (' + this.field + ')';
    s += ': ' + this.message;
    if (this.limit) s += ' [limit ' + this.limit + ']';
    return s;
  }
}

// The API is addressed relative to the page (served at <base>/timeline/), so a deployment behind a path
// prefix works unchanged.
function wsPath(c, ...parts) {
  return ['..', 'v1', 'workspaces', c.workspace, ...parts].map((p, i) => (i === 0 ? p : encodeURIComponent(p))).join('/');
}

async function call(c, method, path, body) {
  const headers = { Accept: 'application/json', 'X-Mneme-Agent': c.agent };
  if (c.key) headers.Authorization = 'Bearer ' + c.key;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit', cache: 'no-store', redirect: 'error',
  });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    throw new ApiError(res.status, (data && data.error) || { code: String(res.status), message: text.slice(0, 300) });
  }
  return data;
}

function readQuery(o) {
  const q = new URLSearchParams();
  if (o.asOf) q.set('as_of', o.asOf);
  if (o.knownAt) q.set('known_at', o.knownAt);
  q.set('decisions_limit', '200');
  q.set('inputs_limit', '50');
  return q.toString();
}

export function search(c, query, o = {}) {
  const body = { query, k: 20, token_budget: 4000 };
  if (o.asOf) body.as_of = o.asOf;
  if (o.knownAt) body.known_at = o.knownAt;
  return call(c, 'POST', wsPath(c, 'search'), body);
}

export function subject(c, key, o = {}) {
  return call(c, 'GET', wsPath(c, 'subjects', key) + '?' + readQuery(o));
}

export function claim(c, id, o = {}) {
  return call(c, 'GET', wsPath(c, 'claims', id) + '?' + readQuery({ knownAt: o.knownAt }));
}
