// The lobby: create a table, copy its invite link, open a table by code, return to your tables.
import { api, copyText, el, saveSeat, seats, tableLink } from "./common.js";
import { editionTitle, errorWords, lang, languagePicker, loadLanguage, pageLanguage, t, translatePage } from "./i18n.js";

let info = null;
const $ = (id) => document.getElementById(id);

function games() {
  return info.games ?? info;
}
function editions() {
  return games().editions ?? games().mille?.editions ?? [];
}
function kr() {
  return games().knightrider ?? { players: [2, 3, 4, 5] };
}
function levels() {
  return info.game_levels?.[chosenGame()] ?? info.levels ?? games().levels ?? ["easy", "medium", "hard", "expert"];
}
function chosenGame() {
  return document.querySelector("input[name=game]:checked").value;
}
function edition() {
  return editions().find((e) => e.key === $("edition").value) ?? editions()[0];
}

function fillEditions() {
  // the editions' titles in the page's words; a page in a box's language picks that box
  const sel = $("edition");
  const keep = sel.value;
  sel.replaceChildren(...editions().map((e) => el("option", { value: e.key, text: editionTitle(e) })));
  if (keep && !sel.dataset.auto) sel.value = keep;
  else {
    const own = editions().find((e) => e.language === lang());
    sel.value = (own ?? editions()[0]).key;
    sel.dataset.auto = "1";
  }
}

function fillPlayers() {
  const sel = $("players");
  const keep = Number(sel.value) || 2;
  const counts = chosenGame() === "mille" ? edition().players : kr().players;
  sel.replaceChildren(...counts.map((n) => el("option", { value: n, text: String(n) })));
  sel.value = counts.includes(keep) ? keep : counts[0];
}

function sidesFor(n) {
  if (chosenGame() !== "mille") return Array.from({ length: n }, (_, i) => [i]);
  return edition().teams?.[String(n)] ?? Array.from({ length: n }, (_, i) => [i]);
}

function fillSeats() {
  const n = Number($("players").value);
  const sides = sidesFor(n);
  const teamOf = {};
  sides.forEach((s, i) => s.forEach((seat) => (teamOf[seat] = i)));
  const teams = sides.some((s) => s.length > 1);
  $("teams").textContent = teams
    ? sides.map((s, i) => t("lobby.team_of", { team: teamLetter(i), seats: s.map((x) => x + 1).join(" + ") })).join(" · ")
    : "";
  const old = [...document.querySelectorAll("#seat-list li")].map((li) => ({
    kind: li.querySelector("select.kind").value,
    level: li.querySelector("select.level").value,
  }));
  const list = $("seat-list");
  list.replaceChildren();
  for (let i = 0; i < n; i++) {
    const prev = old[i] ?? { kind: i === 0 ? "person" : "bot", level: "medium" };
    const kind = el(
      "select",
      { class: "kind", "aria-label": t("lobby.seat_kind", { seat: i + 1 }) },
      el("option", { value: "person", text: t("lobby.person") }),
      el("option", { value: "bot", text: t("lobby.bot") }),
    );
    kind.value = prev.kind;
    const level = el(
      "select",
      { class: "level", "aria-label": t("lobby.seat_level", { seat: i + 1 }) },
      ...levels().map((l) => el("option", { value: l, text: t(`level.${l}`) })),
    );
    level.value = levels().includes(prev.level) ? prev.level : levels()[Math.min(1, levels().length - 1)];
    const sit = el("input", { type: "radio", name: "sit", value: i, "aria-label": t("lobby.sit_here", { seat: i + 1 }) });
    const sync = () => {
      level.hidden = kind.value !== "bot";
      sit.disabled = kind.value !== "person";
      if (sit.disabled && sit.checked) sit.checked = false;
      syncCoach();
    };
    kind.onchange = sync;
    const team = teams ? el("span", { class: `team team-${teamOf[i]}`, text: t("lobby.team", { team: teamLetter(teamOf[i]) }) }) : null;
    list.append(
      el("li", {}, el("span", { class: "seat-no", text: t("seat", { seat: i + 1 }) }), team, kind, level, el("label", { class: "sit" }, sit, " ", t("lobby.me"))),
    );
    sync();
  }
  const first = document.querySelector("#seat-list input[name=sit]:not(:disabled)");
  if (first && !document.querySelector("input[name=sit]:checked")) first.checked = true;
}

// The coach: always there for one person with bots; where several people play, only when the
// creator allows it (the box, shown then).
function people() {
  return [...document.querySelectorAll("#seat-list select.kind")].filter((s) => s.value === "person").length;
}

function syncCoach() {
  $("coach-row").hidden = people() < 2;
}

export function teamLetter(i) {
  return "ABCDEF"[i];
}

// Knight Rider's turn limit: the rules' default and the range the server allows (its
// /api/info), an empty field for none; a value out of range is said in the page's words
// before the form goes (and the server's refusal, should one come, in the same words).
function turnLimit() {
  return kr().turn_limit ?? { default: 500, min: 1, max: 10000 };
}

function fillTurnLimit() {
  const input = $("turn-limit");
  const lim = turnLimit();
  input.min = lim.min;
  input.max = lim.max;
  if (!input.dataset.touched) input.value = lim.default;
  $("turn-limit-note").textContent = t("kr.opt.turn_limit_note", { limit: lim.default });
  checkTurnLimit();
}

function checkTurnLimit() {
  const input = $("turn-limit");
  const raw = input.value.trim();
  const n = Number(raw);
  const lim = turnLimit();
  const ok = raw === "" ? !input.validity.badInput : Number.isInteger(n) && n >= lim.min && n <= lim.max;
  input.setCustomValidity(ok ? "" : t("kr.opt.turn_limit_error"));
  return ok;
}

function refreshForm() {
  const mille = chosenGame() === "mille";
  $("edition-row").hidden = !mille;
  $("kr-options").hidden = mille;
  $("kr-options").disabled = mille; // not checked, not sent, while Mille Bornes is chosen
  fillTurnLimit();
  fillPlayers();
  fillSeats();
}

async function create(ev) {
  ev.preventDefault();
  $("create-error").textContent = "";
  const game = chosenGame();
  const seatsBody = [...document.querySelectorAll("#seat-list li")].map((li) => {
    const kind = li.querySelector("select.kind").value;
    return kind === "bot" ? { kind, level: li.querySelector("select.level").value } : { kind };
  });
  const sitEl = document.querySelector("input[name=sit]:checked");
  const sit = sitEl ? Number(sitEl.value) : null;
  const name = $("name").value.trim();
  localStorage.setItem("rallye.name", name);
  const timer = Number($("turn-timer").value) || null;
  const body = { game, players: Number($("players").value), seats: seatsBody, sit, name, turn_timer: timer };
  if (people() > 1) body.coach = $("coach").checked; // alone with bots: the server's default (on)
  if (game === "mille") body.edition = $("edition").value;
  else {
    const f = $("create-form");
    body.options = {
      quick_build: f.quick_build.checked,
      rolled_start: f.rolled_start.checked,
      deal_spares: f.deal_spares.checked,
      shuffle_cards: f.shuffle_cards.checked,
      tour: Number(f.tour.value) || 0,
      turn_limit: f.turn_limit.value.trim() === "" ? null : Number(f.turn_limit.value),
    };
  }
  try {
    const r = await api("/api/tables", body);
    if (r.token) saveSeat(r.code, { seat: r.seat, token: r.token, name, game });
    const link = tableLink(r.code, info);
    $("invite").hidden = false;
    $("invite-link").value = link;
    $("go").href = `/t/${r.code}`;
    $("go").focus();
    showMine();
  } catch (e) {
    const words = e.code === "bad-field" && e.rule === "turn-limit" ? t("kr.opt.turn_limit_error") : errorWords(e);
    $("create-error").textContent = t("error.create", { message: words });
  }
}

async function showMine() {
  const mine = seats();
  const tokens = Object.values(mine).map((s) => s.token);
  const list = $("mine");
  list.replaceChildren();
  if (!tokens.length) {
    list.append(el("li", { class: "note", text: t("lobby.none") }));
    return;
  }
  let found = [];
  try {
    found = (await api("/api/my-games", { tokens })).games ?? [];
  } catch {
    found = Object.entries(mine).map(([code, s]) => ({ code, game: s.game, seat: s.seat, status: "" }));
  }
  for (const g of found) {
    // a bot is named by its level in the page's words, as at the table
    const names = (g.seats ?? (g.names ?? []).map((name) => ({ kind: "person", name })))
      .map((s, i) => (s.kind === "bot" && !s.name ? t("bot_named", { seat: i + 1, level: t(`level.${s.level}`) }) : s.name))
      .filter(Boolean)
      .join(", ");
    const status = g.status ? t(`status.${g.status}`) : "";
    const coach = typeof g.coach === "boolean" ? t(g.coach ? "coach.allowed" : "coach.not_allowed") : "";
    list.append(
      el(
        "li",
        {},
        el("a", { href: `/t/${g.code}`, text: `${t(`game.${g.game}`)} · ${g.code}` }),
        " ",
        el("span", { class: "note", text: [t("seat", { seat: g.seat + 1 }), status, names, coach].filter(Boolean).join(" · ") }),
        g.status === "over" ? [" ", el("a", { class: "replay-link", href: `/r/${g.code}`, text: t("replay.watch") })] : null,
      ),
    );
  }
}

function render() {
  translatePage();
  fillEditions();
  refreshForm();
  showMine();
}

async function main() {
  await loadLanguage(pageLanguage());
  info = await api("/api/info");
  languagePicker($("lang"), render);
  $("name").value = localStorage.getItem("rallye.name") || "";
  for (const r of document.querySelectorAll("input[name=game]")) r.onchange = refreshForm;
  $("edition").onchange = () => {
    delete $("edition").dataset.auto; // chosen by hand: kept when the page's language changes
    fillPlayers();
    fillSeats();
  };
  $("players").onchange = fillSeats;
  $("turn-limit").oninput = () => {
    $("turn-limit").dataset.touched = "1"; // the player's number stays when the language changes
    checkTurnLimit();
  };
  // the browser stops the form on a bad number (with the words above in its bubble); the
  // form's error line says them too, where a screen reader and a glance find them
  $("turn-limit").oninvalid = () => {
    $("create-error").textContent = t("error.create", { message: t("kr.opt.turn_limit_error") });
  };
  $("create-form").onsubmit = create;
  $("copy").onclick = async () => {
    const ok = await copyText($("invite-link").value);
    if (!ok) $("invite-link").select();
    $("copied").textContent = ok ? t("lobby.copied") : t("lobby.copy_by_hand");
  };
  $("join-form").onsubmit = (ev) => {
    ev.preventDefault();
    location.href = `/t/${$("join-code").value.trim().toLowerCase()}`;
  };
  render();
  document.body.dataset.ready = "1";
}

main();
