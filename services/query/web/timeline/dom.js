// DOM construction without markup strings. Memory content is untrusted (any agent may have written it), so
// every piece of it reaches the page as a text node or an attribute value set through the DOM API — never
// through innerHTML or a template string parsed as HTML.

const SVG = 'http://www.w3.org/2000/svg';

// append adds children: strings and numbers as text nodes, nodes as they are, arrays flattened, null skipped.
function append(node, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(node, c);
    else if (c instanceof Node) node.appendChild(c);
    else node.appendChild(document.createTextNode(String(c)));
  }
  return node;
}

// el builds an HTML element. props: class, title, hidden, dataset {..}, attrs {..} (names are the page's own),
// on {event: handler}.
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  applyProps(node, props);
  return append(node, children);
}

// svg builds an SVG element; attrs are the page's own geometry and classes.
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'on') {
      for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    } else if (v !== null && v !== undefined) {
      node.setAttribute(k, String(v));
    }
  }
  return append(node, children);
}

function applyProps(node, props) {
  if (!props) return;
  for (const [k, v] of Object.entries(props)) {
    if (v === null || v === undefined) continue;
    switch (k) {
      case 'class': node.className = v; break;
      case 'title': node.title = v; break;
      case 'hidden': node.hidden = Boolean(v); break;
      case 'dataset': Object.assign(node.dataset, v); break;
      case 'attrs': for (const [a, av] of Object.entries(v)) node.setAttribute(a, String(av)); break;
      case 'on': for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn); break;
      default: throw new Error('el: unknown property ' + k);
    }
  }
}

// clear removes every child of node.
export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// short cuts s to n characters with an ellipsis.
export function short(s, n) {
  s = String(s);
  return s.length <= n ? s : s.slice(0, n - 1) + '…';
}
