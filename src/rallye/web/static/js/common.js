// What both pages share: the server's JSON API, the seat tokens this browser keeps, small DOM helpers.

export async function api(path, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const r = await fetch(path, init);
  const data = await r.json().catch(() => ({}));
  if (!r.ok) {
    const err = new Error(data?.error?.message || `${r.status}`);
    err.code = data?.error?.code;
    err.status = r.status;
    err.rule = data?.error?.rule;
    throw err;
  }
  return data;
}

// Seat tokens: {code: {seat, token, name, game}} in localStorage (never in a URL).
const KEY = "rallye.seats";
export function seats() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}
export function saveSeat(code, entry) {
  const all = seats();
  all[code] = entry;
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// The invite link: the server's public address when it has one (rallye serve --public-url),
// else the address this page was opened at.
export function tableLink(code, info) {
  const base = (info && info.public_url) || location.origin;
  return `${base.replace(/\/+$/, "")}/t/${code}`;
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
