// One table: join or watch, the websocket to the server, and the parts both games share
// (players and who is connected, whose turn, the moves so far, errors, the live region).
// The game's own module draws the board and offers the legal actions the server sent.
import { api, copyText, el, saveSeat, seats, tableLink } from "./common.js";
import { errorWords, languagePicker, loadDomain, loadLanguage, pageLanguage, t, tIn, translatePage } from "./i18n.js";
import * as mille from "./mille.js";
import * as knightrider from "./kr.js";

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
  t,
  act,
  say,
  name: (seat) => seatName(seat),
  refresh: () => render(),
};
window.rallye = ctx; // for tests and curious players: what this page was sent

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

function act(action) {
  if (!ctx.ws || ctx.ws.readyState !== WebSocket.OPEN || !ctx.state) return;
  $("error").textContent = "";
  ctx.ws.send(JSON.stringify({ type: "act", move_no: ctx.state.move_no, action, id: `m${ctx.state.move_no}` }));
}

// The rule a refusal names, in the page's language: the game's own catalog (the terminal
// says the same words), or null.
function ruleWords(rule) {
  return rule ? tIn(ctx.table?.game === "mille" ? "mille" : "kr", `rule.${rule}`) : null;
}
ctx.ruleWords = ruleWords;

function showError(msg) {
  // The rule broken in the page's words when a catalog knows it, else the server's sentence.
  const known = (id) => (t(id) === id ? null : t(id));
  const rule = ruleWords(msg.rule) || known(`code.${msg.code}`);
  const box = $("error");
  box.replaceChildren(rule ? t("error.explained", { rule }) : t("error.rule", { message: msg.message }));
  if (rule) box.append(" ", el("span", { class: "note", text: `(${msg.message})` }));
  box.dataset.rule = msg.rule ?? msg.code ?? "";
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
        el("span", { class: "note", text: [conn, extra].filter(Boolean).join(" · ") }),
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
  if (state.turn === ctx.seat && ctx.seat !== null && state.turn !== ctx.state?.turn) say(t("table.your_turn"));
}

function connect(hello) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(code)}`);
  ctx.ws = ws;
  ws.onopen = () => ws.send(JSON.stringify({ type: "hello", protocol: 1, ...hello }));
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "welcome") {
      if ($("error").textContent === t("table.reconnecting")) $("error").textContent = "";
      ctx.seat = msg.seat ?? null;
      ctx.table = msg.table;
      ctx.log = msg.log ?? [];
      $("chat-log").replaceChildren();
      for (const line of msg.chat ?? []) addChat(line);
      document.body.dataset.seat = ctx.seat ?? "watch";
      render();
    } else if (msg.type === "state") {
      msg.log = ctx.log = keepLog(ctx.log ?? [], msg.log ?? []);
      ctx.table = msg.table ?? ctx.table;
      ctx.module?.stateChanged?.(ctx, msg);
      announceNew(msg);
      ctx.state = msg;
      ctx.deadlineAt = typeof msg.deadline === "number" ? Date.now() + msg.deadline * 1000 : null;
      render();
      document.body.dataset.move = msg.move_no;
      document.body.dataset.ready = "1";
    } else if (msg.type === "error") {
      showError(msg);
      if (msg.code === "bad-token") $("join").hidden = false;
    } else if (msg.type === "slow-down") {
      $("error").textContent = t("code.rate-limited"); // held back, not refused: the answer follows
    } else if (msg.type === "again") {
      // the new table keeps everyone's seat and token: remember it under the new code
      const mine = seats()[code];
      if (mine) saveSeat(msg.code, { ...mine });
      location.href = `/t/${msg.code}`;
    } else if (msg.type === "chat") {
      addChat(msg);
      if (msg.seat !== ctx.seat || msg.seat === null) say(`${msg.name ?? t("table.watcher")}: ${msg.text}`);
    }
  };
  ws.onclose = () => {
    if (ctx.ws !== ws) return;
    $("error").textContent = t("table.reconnecting");
    setTimeout(() => connect(hello), 1000);
  };
}

// A state's log holds the moves since the state before (the welcome: the last 30): the page
// keeps the last 30 itself, skipping an entry it holds already.
function keepLog(kept, fresh) {
  const last = kept.length ? kept[kept.length - 1].n : 0;
  return [...kept, ...fresh.filter((e) => e.n > last)].slice(-30);
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
  $("copy").onclick = async () => {
    const ok = await copyText($("invite-link").value);
    if (!ok) $("invite-link").select();
    $("copied").textContent = ok ? t("lobby.copied") : t("lobby.copy_by_hand");
  };
  $("chat-form").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text || !ctx.ws || ctx.ws.readyState !== WebSocket.OPEN) return;
    ctx.ws.send(JSON.stringify({ type: "chat", text }));
    $("chat-text").value = "";
  };
  render();
  const mine = seats()[code];
  if (mine?.token) connect({ token: mine.token });
  else if (ctx.table.status === "waiting" && ctx.table.seats.some((s) => s.kind === "person" && !s.taken)) offerJoin();
  else connect({ watch: true });
}

main().catch((e) => {
  $("error").textContent = t("error.load", { message: errorWords(e) });
});
