// A finished game, move by move: /r/CODE (a table's) or /replay (a record file opened here,
// or served by `rallye replay FILE --web` as /replay?file=ID). The server sends the moves and,
// stretch by stretch, the frames: the whole state after each move, every hand open. The
// board is drawn by the table page's own game module (mille.js, kr.js); this page adds the
// hands, the steps and, when the server has one, the analysis (docs/analysis.md).
import { api, el, svg } from "./common.js";
import { errorWords, languagePicker, loadDomain, loadLanguage, pageLanguage, t, tIn, translatePage } from "./i18n.js";
import * as mille from "./mille.js";
import * as knightrider from "./kr.js";
import { showMoment } from "./moments.js";

const MODULES = { mille, knightrider };
const KITT = ["MANTLE", "TURBO1", "TURBO2", "JUMP"];
const DETOURS = ["STRAIGHT", "DEADEND", "ROADBLOCK", "RIGHT", "LEFT"];
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const parts = location.pathname.split("/").filter(Boolean);
let tableCode = parts[0] === "r" && parts[1] ? decodeURIComponent(parts[1]) : null; // null: a record file

const ctx = {
  code: tableCode ?? "replay",
  info: null,
  table: null,
  seat: null,
  state: null,
  data: null, // the replay's summary: moves, frames, stages, result
  base: null, // where its frames are fetched
  chunks: new Map(), // first frame -> frames
  at: 0,
  analysis: null,
  module: null,
  t,
  act: () => false,
  say,
  moment: (text, kind) => showMoment($("moment"), text, kind),
  sound: () => {},
  summary: () => {},
  againButton: () => null,
  recordLink: () => (tableCode ? el("a", { class: "button", href: `/api/tables/${encodeURIComponent(tableCode)}/record`, download: `rallye-${tableCode}.jsonl`, text: t("table.record") }) : null),
  name: (seat) => seatName(seat),
  refresh: () => show(ctx.at),
};
window.rallye = ctx; // for tests and curious players

function seatName(seat) {
  const s = ctx.table?.seats?.[seat];
  if (s?.name) return s.name;
  if (s?.kind === "bot") return t("bot_named", { seat: seat + 1, level: t(`level.${s.level}`) });
  return t("seat", { seat: seat + 1 });
}

function say(text) {
  $("announce").textContent = text;
}

// Frame n and the move that led to it ({frame, move}), from its stretch (fetched once).
async function frame(n) {
  const size = ctx.data.chunk;
  const from = Math.floor(n / size) * size;
  if (!ctx.chunks.has(from)) {
    const got = api(`${ctx.base}/frames?from=${from}`);
    ctx.chunks.set(from, got);
    got.catch(() => ctx.chunks.delete(from));
    while (ctx.chunks.size > 12) ctx.chunks.delete(ctx.chunks.keys().next().value);
  }
  const chunk = await ctx.chunks.get(from);
  return { frame: chunk.frames[n - from], move: chunk.moves[n - from] };
}

function stageWord() {
  return ctx.data.game === "mille" ? "hand" : "turn";
}

function moveWords(move) {
  return move ? ctx.module.describe(ctx, move) : t("replay.start");
}

// The decision the analysis judged at move n (1-based), if any.
function decision(n) {
  return ctx.analysis?.decisions?.find((d) => d.move === n) ?? null;
}

function renderVerdict(n) {
  const box = $("verdict");
  const d = decision(n);
  if (!ctx.analysis || n === 0) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.dataset.mark = d?.mark ?? "";
  if (!d) {
    box.textContent = t("replay.no_choice");
    return;
  }
  const bits = [];
  if (d.mark) bits.push(el("strong", { class: `mark mark-${d.mark}`, text: t(`replay.mark.${d.mark}`) }));
  if (d.best === d.played) bits.push(t("replay.agreed"));
  else {
    bits.push(t("replay.best", { move: ctx.module.describe(ctx, { seat: d.seat, action: d.best }) }));
    if (d.loss_points >= 0.5) bits.push(t("replay.loss", { points: Math.round(d.loss_points) }));
    if (d.loss_win >= 0.005) bits.push(t("replay.loss_win", { percent: pct(d.loss_win) }));
  }
  // the same decision judged with every card known: labelled so wherever it is shown
  if (d.hindsight?.best) bits.push(el("span", { class: "hindsight", text: t("replay.hindsight", { move: ctx.module.describe(ctx, { seat: d.seat, action: d.hindsight.best }) }) }));
  box.replaceChildren(...bits.flatMap((b, i) => (i ? [" · ", b] : [b])));
}

function sideLabel(side) {
  const seats = ctx.analysis?.sides?.[side] ?? [side];
  return seats.map(seatName).join(" & ");
}

const pct = (x) => Math.round(x * 100);

// The chance of each side to win the match after each move: one line a side, the move shown
// marked; its text alternative says where each line starts, ends and lies lowest.
function renderGraph() {
  const a = ctx.analysis;
  const graph = a?.graph ?? [];
  if (!graph.length) return null;
  const W = 600;
  const H = 160;
  const x = (i) => (graph.length > 1 ? (i / (graph.length - 1)) * W : 0);
  const y = (p) => H - p * H;
  const sides = graph[0].length;
  const summary = [];
  const root = svg("svg", { viewBox: `0 -8 ${W} ${H + 16}`, class: "win-graph", role: "img", "aria-labelledby": "graph-title graph-desc", preserveAspectRatio: "none" });
  root.append(svg("title", { id: "graph-title" }, t("replay.win_chance")));
  for (let s = 0; s < sides; s++) {
    let low = 0;
    graph.forEach((g, i) => {
      if (g[s] < graph[low][s]) low = i;
    });
    summary.push(t("replay.graph_text", { side: sideLabel(s), start: pct(graph[0][s]), end: pct(graph[graph.length - 1][s]), low: pct(graph[low][s]), move: low }));
  }
  root.append(svg("desc", { id: "graph-desc" }, summary.join(" ")));
  root.append(svg("line", { class: "half", x1: 0, x2: W, y1: y(0.5), y2: y(0.5) }));
  for (let s = 0; s < sides; s++) {
    root.append(svg("polyline", { class: `line side-${s}`, points: graph.map((g, i) => `${x(i).toFixed(1)},${y(g[s]).toFixed(1)}`).join(" ") }));
  }
  for (const d of a.decisions ?? []) {
    if (d.mark) root.append(svg("circle", { class: `dot mark-${d.mark}`, cx: x(d.move).toFixed(1), cy: y(graph[d.move]?.[d.side] ?? 0.5).toFixed(1), r: d.mark === "blunder" ? 6 : 4 }));
  }
  root.append(svg("line", { class: "cursor", id: "graph-cursor", x1: x(ctx.at), x2: x(ctx.at), y1: -8, y2: H + 8 }));
  return { root, summary };
}

function renderAnalysis(n) {
  if (!ctx.analysis) return;
  const graph = ctx.analysis.graph ?? [];
  const now = graph[n];
  const body = [];
  const drawn = renderGraph();
  if (drawn) {
    body.push(el("figure", { class: "graph" }, drawn.root, el("figcaption", {}, el("span", { class: "legend" }, (graph[0] ?? []).map((_, s) => el("span", { class: `key side-${s}`, text: sideLabel(s) }))))));
  }
  if (now) body.push(el("p", { class: "win-now", text: t("replay.win_now", { chances: now.map((p, s) => `${sideLabel(s)} ${pct(p)} %`).join(" · ") }) }));
  const players = ctx.analysis.players ?? [];
  if (players.length) {
    body.push(el("ul", { class: "agreement" }, players.map((p) => el("li", { text: t("replay.player_line", { name: seatName(p.seat), agreement: pct(p.agreement ?? 0), inaccuracy: p.marks?.inaccuracy ?? 0, mistake: p.marks?.mistake ?? 0, blunder: p.marks?.blunder ?? 0 }) }))));
  }
  body.push(el("p", { class: "note", text: t("replay.analysis_by", { bot: ctx.analysis.bot ?? "" }) }));
  $("analysis-body").replaceChildren(...body);
  $("analysis").hidden = false;
}

function moveCursor(n) {
  const c = document.getElementById("graph-cursor");
  const len = ctx.analysis?.graph?.length ?? 0;
  if (c && len > 1) {
    const x = (n / (len - 1)) * 600;
    c.setAttribute("x1", x);
    c.setAttribute("x2", x);
  }
}

// Every hand, open: a finished game hides nothing.
function renderHands(v) {
  const body = $("hands-body");
  const list = el("ul", { class: "all-hands" });
  (v.hands ?? []).forEach((hand, seat) => {
    const toAct = v.current === seat && !ctx.state.over;
    let cards;
    if (ctx.data.game === "mille") {
      cards = el("ul", { class: "open-hand", "aria-label": t("replay.hand_of", { name: seatName(seat) }) }, hand.map((card) => el("li", { "data-card": card }, mille.cardFace(ctx, card, { small: true }))));
    } else {
      const held = [...KITT.map((k, i) => [k, hand.kitt[i] ?? 0]), ...DETOURS.map((k, i) => [k, hand.detour[i] ?? 0])].filter(([, c]) => c > 0);
      cards = held.length ? el("ul", { class: "kr-hand" }, held.map(([k, c]) => el("li", {}, el("span", { class: "kr-card", text: `${knightrider.cardName(k)}${c > 1 ? ` × ${c}` : ""}` })))) : el("p", { class: "note", text: t("replay.no_cards") });
    }
    list.append(el("li", { class: `open-seat${toAct ? " to-act" : ""}`, "data-seat": seat }, el("h3", {}, seatName(seat), toAct ? el("span", { class: "badge", text: t("table.to_act") }) : null), cards));
  });
  body.replaceChildren(list);
}

let showing = 0; // the latest request: a slow answer for an older one is not drawn
async function show(n, { speak = false } = {}) {
  const last = ctx.data.frames - 1;
  n = Math.max(0, Math.min(last, n));
  const ticket = ++showing;
  const [prior, now] = await Promise.all([n > 0 ? frame(n - 1) : null, frame(n)]);
  if (ticket !== showing) return;
  const before = prior?.frame;
  const v = now.frame;
  const entry = now.move;
  ctx.at = n;
  ctx.move = entry;
  const turn = v.current ?? null;
  const over = n === last && ctx.data.over;
  // the game module's own moments and marks of the last move, as the table page would show them
  $("moment").hidden = true;
  ctx.state = before ? { move_no: n - 1, view: before, legal: [], turn: before.current ?? null, log: [] } : null;
  const msg = { type: "state", move_no: n, view: v, legal: [], turn: over ? null : turn, log: entry ? [entry] : [], over };
  if (ctx.state && Math.abs(n - ctx.shown) === 1) ctx.module.stateChanged?.(ctx, msg);
  else ctx.module.stateChanged?.(ctx, { ...msg, view: { ...v, events: [] } });
  ctx.shown = n;
  ctx.state = msg;
  ctx.module.render(ctx, { board: $("board"), controls: $("controls"), moment: $("moment"), result: $("result"), resultBody: $("result-body") });
  if (!over) $("result").hidden = v.sheets?.length ? false : true;
  renderHands(v);
  const words = moveWords(entry);
  $("turn").textContent = n === 0 ? t("replay.start") : t("replay.move_of", { n, count: last });
  $("move-words").textContent = words;
  $("slider").value = String(n);
  $("slider").setAttribute("aria-valuetext", `${n === 0 ? t("replay.start") : t("replay.move_of", { n, count: last })}: ${words}`);
  for (const [id, off] of [["first", n === 0], ["prev", n === 0], ["prev-stage", n === 0], ["next", n === last], ["next-stage", n === last], ["last", n === last]]) $(id).disabled = off;
  renderVerdict(n);
  if (ctx.analysis) {
    const now = ctx.analysis.graph?.[n];
    const line = document.querySelector("#analysis .win-now");
    if (line && now) line.textContent = t("replay.win_now", { chances: now.map((p, s) => `${sideLabel(s)} ${pct(p)} %`).join(" · ") });
    moveCursor(n);
  }
  if (speak) say(`${$("turn").textContent}. ${words}`);
  document.body.dataset.frame = String(n);
  if (ticket === showing) document.body.dataset.ready = "1";
}

function stageJump(dir) {
  const stages = ctx.data.stages ?? [0];
  const n = ctx.at;
  if (dir < 0) return [...stages].reverse().find((s) => s < n) ?? 0;
  return stages.find((s) => s > n) ?? ctx.data.frames - 1;
}

function go(n) {
  show(n, { speak: true }).catch(failed);
}

function keys(ev) {
  if (ev.target.closest?.("input[type=file], select, textarea") || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  if (document.getElementById("summary")?.open) return;
  const onSlider = ev.target === $("slider");
  const moves = { ArrowRight: 1, ArrowLeft: -1 };
  let to = null;
  if (ev.key in moves && !onSlider) to = ctx.at + moves[ev.key] * (ev.shiftKey ? 10 : 1);
  else if (ev.key === "Home" && !onSlider) to = 0;
  else if (ev.key === "End" && !onSlider) to = ctx.data.frames - 1;
  else if (ev.key === "PageUp") to = stageJump(-1);
  else if (ev.key === "PageDown") to = stageJump(1);
  if (to === null) return;
  ev.preventDefault();
  go(to);
}

function failed(e) {
  $("error").textContent = t("replay.cannot", { message: errorWords(e) });
  document.body.dataset.ready = "error";
}

async function start(data, base) {
  ctx.data = data;
  ctx.base = base;
  ctx.chunks = new Map();
  ctx.table = data.table ?? { seats: [], game: data.game };
  ctx.module = MODULES[data.game];
  ctx.shown = -1;
  await loadDomain(data.game === "mille" ? "mille" : "kr");
  await ctx.module.setup?.(ctx);
  document.body.classList.remove("game-mille", "game-knightrider");
  document.body.classList.add(`game-${data.game}`);
  $("play").hidden = false;
  $("steps").hidden = false;
  $("open").classList.toggle("secondary", true);
  const stage = stageWord();
  $("prev-stage").setAttribute("aria-label", t(`replay.prev_${stage}`));
  $("next-stage").setAttribute("aria-label", t(`replay.next_${stage}`));
  $("keys").textContent = t(`replay.keys_${stage}`);
  for (const b of document.querySelectorAll(".step")) b.title = b.getAttribute("aria-label");
  $("slider").max = String(data.frames - 1);
  const title = `${t(`game.${data.game}`)}${tableCode ? ` · ${tableCode}` : ""}`;
  $("title").textContent = `${t("replay.title")} · ${title}`;
  document.title = `${t("replay.title")} · ${title} · rallye`;
  // the game's analysis (the summary says where): made by the server when first asked for
  watchAnalysis(data.analysis);
  const to = Number(params.get("move"));
  await show(Number.isInteger(to) && to > 0 ? to : 0);
}

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
let watching = 0; // the analysis asked for last (another file opened meanwhile stops the older)

// Ask for the analysis until it is made: while the server makes it, its progress is shown;
// when it is ready, the graph and the marks appear where the steps are (no reload).
async function watchAnalysis(url) {
  const ticket = ++watching;
  ctx.analysis = null;
  ctx.analysisWait = null;
  $("analysis").hidden = true;
  document.body.dataset.analysis = url ? "waiting" : "none";
  while (url && ticket === watching) {
    let got;
    try {
      got = await api(url);
    } catch (e) {
      if (ticket !== watching) return;
      if (e.code === "analysis-off") {
        document.body.dataset.analysis = "none";
        return;
      }
      if (e.code !== "analysis-busy" && e.code !== "unavailable" && e.code !== "stopping") {
        renderAnalysisWait({ failed: errorWords(e) });
        document.body.dataset.analysis = "failed";
        return;
      }
      renderAnalysisWait({ busy: true }); // the server is analysing other games: ask again later
      await sleep(15000);
      continue;
    }
    if (ticket !== watching) return;
    if (got.format) {
      ctx.analysis = got;
      ctx.analysisWait = null;
      renderAnalysis(ctx.at);
      renderVerdict(ctx.at);
      say(t("replay.analysis_ready"));
      document.body.dataset.analysis = "ready";
      return;
    }
    renderAnalysisWait(got);
    await sleep(1000);
  }
}

// While the analysis is being made: how far it is, as words and a progress bar.
function renderAnalysisWait(wait) {
  ctx.analysisWait = wait;
  let words;
  if (wait.failed) words = t("replay.analysis_failed", { message: wait.failed });
  else if (wait.busy) words = t("replay.analysis_busy");
  else if (wait.status === "queued") words = t("replay.analysis_queued", { ahead: wait.ahead ?? 0 });
  else words = t("replay.analysing", { done: wait.done ?? 0, total: wait.total ?? 0 });
  const body = [el("p", { id: "analysis-wait", class: "note", text: words })];
  if (!wait.failed && !wait.busy) {
    const bar = el("progress", { "aria-labelledby": "analysis-wait", max: String(Math.max(1, wait.total ?? 1)) });
    if (wait.status === "running") bar.value = wait.done ?? 0; // queued: no value, the bar says "not started"
    body.push(bar);
  }
  $("analysis-body").replaceChildren(...body);
  $("analysis").hidden = false;
}

async function openFile(ev) {
  ev.preventDefault();
  const file = $("open-file").files?.[0];
  $("open-error").textContent = "";
  if (!file) return;
  if (file.size > 16 * 1024 * 1024) { // the server's limit (MAX_RECORD_BYTES)
    $("open-error").textContent = t("code.too-large");
    return;
  }
  try {
    const data = await api("/api/replays", { record: await file.text() });
    history.replaceState(null, "", `/replay?file=${data.id}`);
    tableCode = null; // the file's game, not the table's, is shown from now on
    await start(data, `/api/replays/${data.id}`);
    $("steps").focus();
  } catch (e) {
    $("open-error").textContent = badFile(e);
    document.body.dataset.ready = "error";
  }
}

// Why a file does not replay, in the page's words: the rule it breaks and the line named.
function badFile(e) {
  if (e.code !== "bad-record") return t("replay.bad_file", { message: errorWords(e) });
  const line = /line (\d+)/.exec(e.message ?? "")?.[1];
  const rule = e.rule ? (tIn("mille", `rule.${e.rule}`) ?? tIn("kr", `rule.${e.rule}`) ?? e.rule) : "";
  return line ? t("replay.bad_line", { line, rule }) : t("replay.bad_record", { rule });
}

async function main() {
  await loadLanguage(pageLanguage());
  translatePage();
  languagePicker($("lang"), () => {
    translatePage();
    if (ctx.data) {
      const stage = stageWord();
      $("prev-stage").setAttribute("aria-label", t(`replay.prev_${stage}`));
      $("next-stage").setAttribute("aria-label", t(`replay.next_${stage}`));
      $("keys").textContent = t(`replay.keys_${stage}`);
      if (ctx.analysis) renderAnalysis(ctx.at);
      else if (ctx.analysisWait) renderAnalysisWait(ctx.analysisWait);
      show(ctx.at);
    }
  });
  ctx.info = await api("/api/info");
  $("open-form").onsubmit = openFile;
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(ctx.at - 1);
  $("next").onclick = () => go(ctx.at + 1);
  $("last").onclick = () => go(ctx.data.frames - 1);
  $("prev-stage").onclick = () => go(stageJump(-1));
  $("next-stage").onclick = () => go(stageJump(1));
  $("slider").oninput = () => show(Number($("slider").value)).catch(failed);
  $("slider").onchange = () => go(Number($("slider").value));
  document.addEventListener("keydown", (ev) => ctx.data && keys(ev));
  new ResizeObserver(() => document.body.style.setProperty("--steps-h", `${$("steps").offsetHeight}px`)).observe($("steps"));
  if (tableCode) {
    await loadDomain("mille");
    try {
      await start(await api(`/api/tables/${encodeURIComponent(tableCode)}/replay`), `/api/tables/${encodeURIComponent(tableCode)}/replay`);
    } catch (e) {
      $("error").textContent = e.code === "not-over" ? t("code.not-over") : t("replay.cannot", { message: errorWords(e) });
      document.body.dataset.ready = "error";
      return;
    }
  } else if (params.get("file")) {
    try {
      const id = params.get("file");
      await start(await api(`/api/replays/${encodeURIComponent(id)}`), `/api/replays/${encodeURIComponent(id)}`);
    } catch (e) {
      $("open-error").textContent = t("replay.bad_file", { message: errorWords(e) });
    }
    document.body.dataset.ready = document.body.dataset.ready ?? "1";
  } else {
    $("title").textContent = t("replay.title");
    document.body.dataset.ready = "1";
  }
}

main().catch(failed);
