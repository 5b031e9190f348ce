// One table: join or watch, the websocket to the server, and the parts both games share
// (players and who is connected, whose turn, the moves so far, errors, the live region).
// The game's own module draws the board and offers the legal actions the server sent.
import { api, copyText, el, saveSeat, seats, tableLink } from "./common.js";
import { errorWords, languagePicker, loadDomain, loadLanguage, pageLanguage, t, tIn, translatePage } from "./i18n.js";
import * as mille from "./mille.js";
import * as knightrider from "./kr.js";
import { playSound, setSound, showMoment, soundOn } from "./moments.js";

const MODULES = { mille, knightrider };
const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

const ctx = {
  code,
  info: null,
  table: null,
  seat: null,
  state: null,
  ws: null,
  module: null,
  lastSeen: -1,
  online: false, // the websocket is open and said welcome
  pending: null, // the move sent and not yet answered: {action, move_no}
  t,
  act,
  say,
  moment: (text, kind) => {
    showMoment($("moment"), text, kind);
    say(text);
  },
  sound: (name) => playSound(name),
  summary: (spec) => showSummary(spec),
  // after the game: a new table with the same seats (for those who sit), and the record
  againButton: (cls = "") =>
    ctx.seat !== null ? el("button", { type: "button", class: `again ${cls}`.trim(), onclick: () => send({ type: "again" }), text: t("table.again") }) : null,
  replayLink: () => el("a", { class: "button replay-link", href: `/r/${encodeURIComponent(code)}`, text: t("replay.watch") }),
  recordLink: () => el("a", { class: "button", href: `/api/tables/${encodeURIComponent(code)}/record`, download: `rallye-${code}.jsonl`, text: t("table.record") }),
  touch: window.matchMedia?.("(pointer: coarse)").matches ?? false,
  name: (seat) => seatName(seat),
  refresh: () => render(),
  // the coach (docs/server.md, "The coach"): the hint for this state, once asked and come
  hint: null, // the server's hint message, for ctx.state.move_no only
  hintAsked: null, // the move number a hint was asked for and has not come
  hintShown: false,
  coachBar: () => coachBar(),
  hinted: () => hintedEntry(),
};
window.rallye = ctx; // for tests and curious players: what this page was sent
// a message handled as if the server had sent it (tests use it to show rare moments)
ctx.receive = (msg) => HANDLERS[msg?.type]?.(msg);

function seatName(seat) {
  const s = ctx.table?.seats?.[seat];
  const label = s?.name || (s?.kind === "bot" ? t("bot_named", { seat: seat + 1, level: t(`level.${s.level}`) }) : t("seat", { seat: seat + 1 }));
  return seat === ctx.seat ? t("you_named", { name: label }) : label;
}

function say(text) {
  // The live region: other players' moves and the moments that matter, read out once.
  const p = el("span", { text: text + " " });
  $("announce").append(p);
  while ($("announce").childNodes.length > 6) $("announce").firstChild.remove();
}

// Nothing clicked is dropped in silence: offline, the notice shows and says it was not sent.
function send(msg) {
  if (!ctx.online || !ctx.ws || ctx.ws.readyState !== WebSocket.OPEN) {
    showOffline(true);
    say(t("table.not_sent"));
    return false;
  }
  ctx.ws.send(JSON.stringify(msg));
  return true;
}

function act(action) {
  if (!ctx.state) return false;
  const move = { type: "act", move_no: ctx.state.move_no, action, id: `m${ctx.state.move_no}` };
  if (!send(move)) return false;
  $("error").textContent = "";
  ctx.pending = { action, move_no: move.move_no };
  return true;
}

// The connection notice: fixed at the top of the screen, wherever the page is scrolled; the
// controls are disabled while it shows and point to it as the reason.
function showOffline(offline) {
  const was = !$("offline").hidden;
  $("offline").hidden = !offline;
  document.body.classList.toggle("is-offline", offline);
  if (offline && was) {
    $("offline").classList.remove("pop");
    void $("offline").offsetWidth;
    $("offline").classList.add("pop");
  }
  applyOffline();
}

function applyOffline() {
  const off = !$("offline").hidden;
  for (const b of document.querySelectorAll("#controls button, #board button, #result button")) {
    if (off) {
      if (!b.disabled) b.dataset.offline = "1";
      b.disabled = true;
      b.setAttribute("aria-describedby", "offline");
    } else if (b.dataset.offline) {
      b.disabled = false;
      delete b.dataset.offline;
      b.removeAttribute("aria-describedby");
    }
  }
  for (const g of document.querySelectorAll("#board [role=button]")) {
    if (off) {
      g.setAttribute("aria-disabled", "true");
      g.setAttribute("aria-describedby", "offline");
    } else {
      g.removeAttribute("aria-disabled");
      g.removeAttribute("aria-describedby");
    }
  }
}

// The rule a refusal names, in the page's language: the game's own catalog (the terminal
// says the same words), or null.
function ruleWords(rule) {
  return rule ? tIn(ctx.table?.game === "mille" ? "mille" : "kr", `rule.${rule}`) : null;
}
ctx.ruleWords = ruleWords;

function showError(msg) {
  // The rule broken in the page's words; never the engine's English sentence under it.
  if (msg.ref && ctx.pending) ctx.pending = null;
  const known = (id) => (t(id) === id ? null : t(id));
  const rule = ruleWords(msg.rule) || known(`code.${msg.code}`);
  const box = $("error");
  box.replaceChildren(rule ? t("error.explained", { rule }) : t("error.refused"));
  box.dataset.rule = msg.rule ?? msg.code ?? "";
  ctx.module?.refused?.(ctx, msg);
}

function renderPlayers() {
  const list = $("players");
  list.replaceChildren();
  const turn = ctx.state?.turn;
  for (const s of ctx.table.seats) {
    const conn = s.kind === "bot" ? t("table.bot") : s.connected ? t("table.online") : s.taken ? t("table.offline") : t("table.free");
    const state = s.kind === "bot" ? "bot" : s.connected ? "on" : "off";
    const extra = ctx.module?.seatNote?.(ctx, s.seat) ?? "";
    list.append(
      el(
        "li",
        { class: `player conn-${state}${turn === s.seat ? " to-act" : ""}`, "aria-current": turn === s.seat ? "true" : null },
        el("span", { class: "dot", "aria-hidden": "true" }),
        el("strong", { text: seatName(s.seat) }),
        " ",
        el("span", { class: "note" }, el("span", { class: "conn-word", text: conn + (extra ? " · " : "") }), extra),
        turn === s.seat ? el("span", { class: "badge", text: t("table.to_act") }) : null,
      ),
    );
  }
}

function renderTurn() {
  const st = ctx.state;
  let text;
  if (ctx.table.status === "waiting") text = t("table.waiting");
  else if (!st) text = "";
  else if (ctx.table.status === "over" || st.turn === null) text = t("table.over");
  else if (st.turn === ctx.seat) text = t("table.your_turn");
  else text = t("table.turn_of", { name: seatName(st.turn) });
  $("turn").textContent = text;
  const left = ctx.deadlineAt ? Math.max(0, Math.ceil((ctx.deadlineAt - Date.now()) / 1000)) : null;
  if (left !== null && st?.turn !== null) $("turn").textContent += " · " + t("table.deadline", { count: left });
}

// The turn timer counts down between states (the server's deadline is seconds left when sent).
setInterval(() => {
  if (ctx.deadlineAt && ctx.table) renderTurn();
}, 1000);

function renderLog() {
  const log = ctx.state?.log ?? [];
  const list = $("log");
  list.replaceChildren();
  for (const entry of [...log].reverse()) {
    list.append(el("li", { value: entry.n }, ctx.module.describe(ctx, entry)));
  }
}

function renderWaiting() {
  const waiting = ctx.table.status === "waiting";
  $("waiting").hidden = !waiting;
  if (waiting) {
    const free = ctx.table.seats.filter((s) => s.kind === "person" && !s.taken).length;
    $("waiting-text").textContent = t("table.waiting_for", { count: free });
    $("invite-link").value = tableLink(code, ctx.info);
  }
}

function render() {
  if (!ctx.table) return;
  $("title").textContent = `${t(`game.${ctx.table.game}`)} · ${code}`;
  // whether the coach may give hints here, for everyone at the table to see
  $("coach-note").textContent = t(ctx.table.coach ? "coach.allowed" : "coach.not_allowed");
  $("coach-note").dataset.coach = ctx.table.coach ? "on" : "off";
  const mine = ctx.state && ctx.seat !== null && ctx.state.turn === ctx.seat && ctx.state.legal?.length;
  document.title = `${mine ? `▶ ${t("table.your_turn")} · ` : ""}${t(`game.${ctx.table.game}`)} ${code} · rallye`;
  renderTurn();
  renderPlayers();
  renderWaiting();
  if (ctx.state) {
    // Drawing anew replaces the controls: keep the keyboard focus where it was, or, on your
    // turn, put it on the first thing you can do (so keys alone play the game).
    const was = document.activeElement;
    const key = was && was !== document.body ? ["id", "data-action", "data-card", "data-dest", "data-square"].map((a) => [a, was.getAttribute(a)]).find(([, v]) => v) : null;
    ctx.module.render(ctx, { board: $("board"), controls: $("controls"), moment: $("moment"), result: $("result"), resultBody: $("result-body") });
    renderLog();
    applyOffline();
    if (!document.activeElement || document.activeElement === document.body) {
      const again = key && document.querySelector(`[${key[0]}="${CSS.escape(key[1])}"]`);
      const first = ctx.state.turn === ctx.seat && ctx.seat !== null ? $("controls").querySelector("button:not([disabled])") : null;
      (again || first)?.focus({ preventScroll: true });
    }
  }
}

function announceNew(state) {
  const log = state.log ?? [];
  if (ctx.lastSeen < 0) {
    ctx.lastSeen = log.length ? log[log.length - 1].n : 0;
    return;
  }
  for (const entry of log) {
    if (entry.n <= ctx.lastSeen) continue;
    if (entry.seat !== ctx.seat) say(ctx.module.describe(ctx, entry));
  }
  if (log.length) ctx.lastSeen = Math.max(ctx.lastSeen, log[log.length - 1].n);
  if (state.turn === ctx.seat && ctx.seat !== null && state.turn !== ctx.state?.turn) {
    say(t("table.your_turn"));
    playSound("turn");
  }
}

// Each message the server sends, by its type: one place to add a new kind.
const HANDLERS = {
  welcome(msg) {
    ctx.online = true;
    showOffline(false);
    ctx.seat = msg.seat ?? null;
    ctx.table = msg.table;
    ctx.log = msg.log ?? [];
    $("chat-log").replaceChildren();
    for (const line of msg.chat ?? []) addChat(line);
    document.body.dataset.seat = ctx.seat ?? "watch";
    render();
  },
  state(msg) {
    msg.log = ctx.log = keepLog(ctx.log ?? [], msg.log ?? []);
    ctx.table = msg.table ?? ctx.table;
    const prev = ctx.state;
    ctx.module?.stateChanged?.(ctx, msg);
    announceNew(msg);
    ctx.state = msg;
    ctx.deadlineAt = typeof msg.deadline === "number" ? Date.now() + msg.deadline * 1000 : null;
    if (msg.move_no !== prev?.move_no) {
      ctx.hint = null; // a hint answers one decision: the next state has another
      ctx.hintAsked = null;
      ctx.hintShown = false;
    }
    const resend = ctx.pending && ctx.pending.move_no === msg.move_no && msg.legal?.some((l) => l.action === ctx.pending.action);
    if (ctx.pending && !resend) ctx.pending = null;
    render();
    ctx.module?.afterRender?.(ctx, prev);
    if (resend && ctx.resending) {
      // the move clicked just before the connection went was never answered: send it again
      ctx.resending = false;
      say(t("table.sent_again"));
      act(ctx.pending.action);
    }
    ctx.resending = false;
    document.body.dataset.move = msg.move_no;
    document.body.dataset.ready = "1";
  },
  error(msg) {
    if (typeof msg.ref === "string" && msg.ref.startsWith("hint")) {
      ctx.hintAsked = null;
      ctx.hintShown = false;
      render();
    }
    showError(msg);
    if (msg.code === "bad-token") $("join").hidden = false;
  },
  again(msg) {
    // the new table keeps everyone's seat and token: remember it under the new code
    const mine = seats()[code];
    if (mine) saveSeat(msg.code, { ...mine });
    location.href = `/t/${msg.code}`;
  },
  chat(msg) {
    addChat(msg);
    if (msg.seat !== ctx.seat || msg.seat === null) say(`${msg.name ?? t("table.watcher")}: ${msg.text}`);
  },
  pong() {},
  hint(msg) {
    if (msg.move_no !== ctx.state?.move_no) return; // an answer to a decision that is gone
    ctx.hint = msg;
    ctx.hintAsked = null;
    ctx.hintShown = true;
    render();
    say(hintWords().join(" "));
  },
  "slow-down"() {
    // held back, not refused: the answer follows
    $("error").textContent = t("code.rate-limited");
  },
};

let retry = 0;
function connect(hello) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(code)}`);
  ctx.ws = ws;
  ws.onopen = () => {
    retry = 0;
    ws.send(JSON.stringify({ type: "hello", protocol: 1, ...hello }));
  };
  ws.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    HANDLERS[msg?.type]?.(msg);
  };
  ws.onclose = () => {
    if (ctx.ws !== ws) return;
    ctx.online = false;
    ctx.resending = !!ctx.pending;
    showOffline(true);
    retry += 1;
    setTimeout(() => connect(hello), Math.min(5000, 500 * 2 ** Math.min(retry, 4)));
  };
}

// -- the coach ------------------------------------------------------------------------------
// At a table that allows it (table.coach), on your turn: a "Hint" button. The hint comes from
// the server (its analysis bot, from your view only) and shows the move (the game's module
// marks the card and where it goes, or the square), how much better it is than the next best
// and the reasons, in the page's language. It never plays the move.
function askHint() {
  if (ctx.hint) {
    ctx.hintShown = !ctx.hintShown; // the hint asked already: shown or put away
    render();
    document.getElementById("hint-button")?.focus({ preventScroll: true });
    return;
  }
  if (ctx.hintAsked === ctx.state.move_no) return;
  if (!send({ type: "hint", move_no: ctx.state.move_no, id: `hint${ctx.state.move_no}` })) return;
  $("error").textContent = "";
  ctx.hintAsked = ctx.state.move_no;
  render();
  document.getElementById("hint-button")?.focus({ preventScroll: true });
}

// the legal action the hint names (its code, as the state's legal list has it), or null
function hintedEntry() {
  if (!ctx.hint || !ctx.hintShown || ctx.hint.move_no !== ctx.state?.move_no) return null;
  return (ctx.state.legal ?? []).find((l) => l.code === ctx.hint.code) ?? null;
}

function moveWords(action) {
  const entry = (ctx.state.legal ?? []).find((l) => l.action === action);
  return entry ? (ctx.module.hintMove?.(ctx, entry) ?? action) : action;
}

// the hint in words: the move, how much better than the next best, the reasons
function hintWords() {
  const h = ctx.hint.hint;
  const domain = ctx.table.game === "mille" ? "mille" : "kr";
  const move = t("coach.move", { move: moveWords(h.best) });
  const next = h.next ? moveWords(h.next) : null;
  const m = h.margin ?? {};
  let margin;
  if (!next) margin = t("coach.only");
  else if (m.equal) margin = t("coach.equal", { next });
  else if (typeof m.points === "number" && m.points >= 0.5) margin = t("coach.better_points", { next, count: Math.round(m.points) });
  else if (typeof m.win === "number" && m.win >= 0.005) {
    // Knight Rider's value is the chance to catch the villain; Mille Bornes', to win the match
    margin = t(ctx.table.game === "mille" ? "coach.better_win" : "coach.better_catch", { next, pct: Math.round(m.win * 100) });
  } else margin = t("coach.better", { next }); // the search's verdict, with no clear margin on either scale
  const reasons = (h.reasons ?? []).map((r) => {
    const params = { ...r.params };
    for (const [k, v] of Object.entries(params)) {
      if (typeof v === "string") params[k] = ctx.module.hintParam?.(ctx, k, v) ?? v;
    }
    // a side or a player (numbered from 1) by the name this page shows them with
    if (typeof r.params.side === "number") params.who = ctx.module.sideName?.(ctx, r.params.side - 1);
    else if (typeof r.params.player === "number") params.who = ctx.name(r.params.player - 1);
    const text = tIn(domain, r.key, params);
    return text ? text.charAt(0).toUpperCase() + text.slice(1) : null;
  });
  return [move, margin, ...reasons.filter(Boolean).map((r) => (/[.!?]$/.test(r) ? r : `${r}.`))];
}

// The button and, once the hint has come, what it says ({button, box}, or null when no hint
// can be asked now): the game's module puts them in its controls (Mille Bornes: the words
// above the docked hand, the button beside the hand's; Knight Rider: under the phase).
function coachBar() {
  const st = ctx.state;
  if (!ctx.table?.coach || ctx.seat === null || !st || st.turn !== ctx.seat || !(st.legal ?? []).length) return null;
  const waiting = ctx.hintAsked === st.move_no;
  const shown = ctx.hint && ctx.hintShown;
  // a disclosure button: the same word shown or not (aria-expanded says which), short enough
  // for the row above a phone's hand
  const label = waiting ? t("coach.thinking") : t("coach.ask");
  const button = el(
    "button",
    { type: "button", id: "hint-button", class: "hint-button", "aria-expanded": shown ? "true" : "false", "aria-controls": "hint-box", "aria-busy": waiting ? "true" : null, onclick: askHint },
    el("span", { class: "hint-icon", "aria-hidden": "true", text: "?" }),
    " ",
    label,
  );
  let box = el("div", { id: "hint-box", class: "hint-box", hidden: true });
  if (shown) {
    const [move, margin, ...reasons] = hintWords();
    box = el(
      "div",
      { id: "hint-box", class: "hint-box", role: "group", "aria-label": t("coach.title") },
      el("p", { class: "hint-move" }, el("strong", { text: move }), " ", el("span", { class: "hint-margin", text: margin })),
      reasons.length ? el("ul", { class: "hint-reasons" }, reasons.map((r) => el("li", { text: r }))) : null,
    );
  }
  return { button, box };
}

// A state's log holds the moves since the state before (the welcome: the last 30): the page
// keeps the last 30 itself, skipping an entry it holds already.
function keepLog(kept, fresh) {
  const last = kept.length ? kept[kept.length - 1].n : 0;
  return [...kept, ...fresh.filter((e) => e.n > last)].slice(-30);
}

// The summary of a hand or of the game: it stays until its reader closes it.
function showSummary({ title, body, text, actions = [], onClose }) {
  const dlg = $("summary");
  $("summary-h").textContent = title;
  $("summary-body").replaceChildren(...body);
  const close = el("button", { type: "button", class: "primary", id: "summary-close", text: t("table.summary_close") });
  $("summary-actions").replaceChildren(...actions, close);
  close.onclick = () => dlg.close();
  dlg.onclose = () => {
    onClose?.();
    dlg.onclose = null;
  };
  $("moment").hidden = true; // the summary says it all
  if (!dlg.open) dlg.showModal();
  close.focus();
  say(text ?? title);
}

function addChat(line) {
  const who = line.name || (line.seat === null || line.seat === undefined ? t("table.watcher") : seatName(line.seat));
  $("chat-log").append(el("li", {}, el("strong", { text: `${who}: ` }), line.text));
  $("chat-log").scrollTop = $("chat-log").scrollHeight;
}

function offerJoin() {
  const free = ctx.table.seats.filter((s) => s.kind === "person" && !s.taken);
  $("join").hidden = false;
  $("join-name").value = localStorage.getItem("rallye.name") || "";
  $("join-seat").replaceChildren(...free.map((s) => el("option", { value: s.seat, text: t("seat", { seat: s.seat + 1 }) })));
  $("join-form").querySelector("button[type=submit]").hidden = free.length === 0;
  $("join-form").onsubmit = async (ev) => {
    ev.preventDefault();
    const name = $("join-name").value.trim();
    localStorage.setItem("rallye.name", name);
    try {
      const r = await api(`/api/tables/${code}/join`, { seat: Number($("join-seat").value), name });
      saveSeat(code, { seat: r.seat, token: r.token, name, game: ctx.table.game });
      ctx.table = r.table;
      $("join").hidden = true;
      connect({ token: r.token });
    } catch (e) {
      $("join-error").textContent = t("error.join", { message: errorWords(e) });
    }
  };
  $("watch").onclick = () => {
    $("join").hidden = true;
    connect({ watch: true });
  };
}

async function main() {
  await loadLanguage(pageLanguage());
  translatePage();
  languagePicker($("lang"), () => render());
  [ctx.info, { table: ctx.table }] = await Promise.all([api("/api/info"), api(`/api/tables/${code}`)]);
  ctx.module = MODULES[ctx.table.game];
  await loadDomain(ctx.table.game === "mille" ? "mille" : "kr");
  await ctx.module.setup?.(ctx);
  const sound = () => {
    $("sound").setAttribute("aria-pressed", soundOn() ? "true" : "false");
  };
  sound();
  $("sound").onclick = () => {
    setSound(!soundOn());
    sound();
    playSound("turn");
  };
  document.body.classList.add(`game-${ctx.table.game}`);
  // the docked hand's height: the page leaves that much room below the game
  new ResizeObserver(() => document.body.style.setProperty("--dock-h", `${$("dock").offsetHeight}px`)).observe($("dock"));
  if (ctx.touch) document.body.classList.add("touch");
  $("copy").onclick = async () => {
    const ok = await copyText($("invite-link").value);
    if (!ok) $("invite-link").select();
    $("copied").textContent = ok ? t("lobby.copied") : t("lobby.copy_by_hand");
  };
  $("chat-form").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("chat-text").value.trim();
    if (text && send({ type: "chat", text })) $("chat-text").value = "";
  };
  render();
  const mine = seats()[code];
  if (mine?.token) connect({ token: mine.token });
  else if (ctx.table.status === "waiting" && ctx.table.seats.some((s) => s.kind === "person" && !s.taken)) offerJoin();
  else connect({ watch: true });
}

main().catch((e) => {
  $("error").textContent = t("error.load", { message: errorWords(e) });
  document.body.dataset.ready = "error";
});
