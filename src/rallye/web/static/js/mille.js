// A Mille Bornes table: your hand as cards docked at the bottom of the screen, every side's
// tableau, the discard and draw piles, the moments (coup fourré, a completed trip, the
// extension question), the hand's summary and the score sheets. The page holds no rule:
// where a card may go comes from the `legal` list the server sent (`info.side`).
import { el } from "./common.js";
import { KIND, cardSVG } from "./cards.js";
import { lang, t } from "./i18n.js";
import { fly } from "./moments.js";

const LINES = ["distance", "safeties", "all_four", "coup_fourre", "trip", "safe_trip", "delayed_action", "shutout", "extension", "hand_penalty"];
const SPEED = new Set(["SPEED_LIMIT", "END_OF_LIMIT"]);

// The card chosen in hand, by its place (of two identical cards only the chosen one looks
// chosen), until played or cancelled.
let selected = null; // {card, i}
let tapFrom = null; // where the card played last was on screen, for its flight

function editions(ctx) {
  const g = ctx.info.games ?? ctx.info;
  return g.editions ?? g.mille?.editions ?? [];
}

function edition(ctx) {
  const list = editions(ctx);
  const key = ctx.state?.view?.edition ?? ctx.table.edition;
  return list.find((e) => e.key === key || (e.aliases ?? []).includes(key)) ?? list[0];
}

// The card names: the page's language, unless the player chose the box's names (one
// control, remembered). An edition without names in the page's language borrows them from
// the box made in that language (the cards are the same: a Hungarian page names the cards of
// a German box as the Hungarian box does, and the other way round); else the box's own.
function namesIn(ctx, wanted) {
  const own = (e) => (e.languages ?? [e.language]).includes(wanted) && e.names?.[wanted];
  const ed = edition(ctx);
  if (own(ed)) return ed.names[wanted];
  const list = editions(ctx);
  const box = list.find((e) => e.language === wanted && own(e)) ?? list.find(own);
  return box?.names?.[wanted] ?? null;
}

// the language the cards are named in (their words are broken by its rules)
function cardLanguage(ctx) {
  const ed = edition(ctx);
  const wanted = localStorage.getItem("rallye.cardlang") === "box" ? ed.language : lang();
  return namesIn(ctx, wanted) ? wanted : ed.language;
}

function cardNames(ctx) {
  const ed = edition(ctx);
  return namesIn(ctx, cardLanguage(ctx)) ?? ed.names?.[ed.language] ?? {};
}

export function cardName(ctx, card) {
  const ed = edition(ctx);
  return cardNames(ctx)[card] ?? ed.names?.[ed.language]?.[card] ?? card;
}

// A score sheet's words: the box's own in the page's language, else those of the box made
// in that language (as the card names), else the page's catalog.
function word(ctx, key) {
  const wanted = lang();
  const own = (e) => (e.languages ?? [e.language]).includes(wanted) && e.score_words?.[wanted]?.[key];
  const ed = edition(ctx);
  const list = editions(ctx);
  const box = own(ed) ? ed : (list.find((e) => e.language === wanted && own(e)) ?? list.find(own));
  return box?.score_words?.[wanted]?.[key] ?? t(`mille.score.${key}`);
}

function fillCardLanguage(ctx) {
  const sel = document.getElementById("cardlang");
  const ed = edition(ctx);
  sel.replaceChildren(
    el("option", { value: "page", text: t("mille.cardlang.page", { language: t(`language.${lang()}`) }) }),
    el("option", { value: "box", text: t("mille.cardlang.box", { language: t(`language.${ed.language}`) }) }),
  );
  sel.value = localStorage.getItem("rallye.cardlang") === "box" ? "box" : "page";
}

export async function setup(ctx) {
  const label = document.getElementById("cardlang-label");
  const sel = document.getElementById("cardlang");
  label.hidden = Object.keys(edition(ctx).names ?? {}).length < 2;
  fillCardLanguage(ctx);
  sel.onchange = () => {
    localStorage.setItem("rallye.cardlang", sel.value);
    ctx.refresh();
  };
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && selected && !document.getElementById("summary").open) {
      selected = null;
      ctx.refresh();
    }
  });
}

function sideOf(v, seat) {
  return v.sides.findIndex((s) => s.includes(seat));
}

export function sideName(ctx, side) {
  const sides = ctx.state.view.sides;
  const seats = sides[side] ?? [];
  const names = seats.map((s) => ctx.name(s)).join(" & ");
  return sides.some((s) => s.length > 1) ? t("mille.team_named", { team: "ABCDEF"[side], names }) : names;
}

export function seatNote(ctx, seat) {
  const sizes = ctx.state?.view?.hand_sizes;
  return sizes ? t("mille.cards_held", { count: sizes[seat] }) : "";
}

export function describe(ctx, entry) {
  const who = ctx.name(entry.seat);
  const w = entry.action.split(/\s+/);
  if (w[0] === "play") return t("mille.log.play", { name: who, card: cardName(ctx, w[1]) });
  if (w[0] === "discard") return t("mille.log.discard", { name: who, card: cardName(ctx, w[1]) });
  if (w[0] === "attack") return t("mille.log.attack", { name: who, card: cardName(ctx, w[2]), target: sideName(ctx, Number(w[1]) - 1) });
  if (w[0] === "extend") return t("mille.log.extend", { name: who });
  if (w[0] === "decline") return t("mille.log.decline", { name: who });
  return `${who}: ${entry.action}`;
}

// The coach's hint in words: the move (a legal entry), and a reason's card params by name.
export function hintMove(ctx, entry) {
  const { verb, card, side } = entry.info ?? {};
  if (verb === "play") return t("mille.hint.play", { card: cardName(ctx, card) });
  if (verb === "attack") return t("mille.hint.attack", { card: cardName(ctx, card), target: sideName(ctx, side) });
  if (verb === "discard") return t("mille.hint.discard", { card: cardName(ctx, card) });
  if (verb === "extend" || verb === "decline") return t(`mille.hint.${verb}`);
  return entry.action;
}

const CARD_PARAMS = new Set(["card", "hazard", "remedy", "safety"]); // rallye.analysis.coach.CARD_PARAMS
export function hintParam(ctx, key, value) {
  return CARD_PARAMS.has(key) ? cardName(ctx, value) : value;
}

// The moments of a new state, for everyone at the table (before it is drawn).
export function stateChanged(ctx, msg) {
  const prev = ctx.state;
  if (!prev || msg.move_no === prev.move_no) return;
  selected = null;
  const v = msg.view;
  const pv = prev.view;
  const names = (side) => (v.sides[side] ?? []).map((s) => ctx.name(s)).join(" & ");
  const fresh = v.hand_no === pv.hand_no ? v.events.slice(-Math.min(4, msg.move_no - prev.move_no + 1)) : [];
  const last = v.events[v.events.length - 1];
  if (last?.kind === "coup_fourre") {
    ctx.moment(t("mille.coup_fourre", { name: ctx.name(last.seat), card: cardName(ctx, last.card) }), "coup");
    ctx.sound("fanfare");
    return;
  }
  if (v.hand_no === pv.hand_no) {
    const done = v.tableaus.findIndex((tab, i) => tab.km >= v.target && (pv.tableaus[i]?.km ?? 0) < pv.target);
    if (done >= 0) {
      ctx.moment(t("mille.trip_done", { names: names(done), km: v.tableaus[done].km }), "trip");
      ctx.sound("fanfare");
    }
  }
  if (v.phase === "extend" && pv.phase !== "extend") {
    const who = v.current;
    if (who !== ctx.seat) ctx.moment(t("mille.extend_moment", { name: ctx.name(who), from: v.target, to: edition(ctx).extension_to ?? 1000 }), "question");
  }
  const ext = fresh.find((e) => e.kind === "extend" || e.kind === "decline");
  if (ext && ext.seat !== ctx.seat) {
    ctx.moment(t(ext.kind === "extend" ? "mille.extended_moment" : "mille.declined_moment", { name: ctx.name(ext.seat), to: v.target }), "question");
  }
  if (last && last.kind === "attack" && last.side === v.side && v.side !== null && v.side !== undefined) ctx.sound("attack");
  else if (last && ["play", "attack", "discard"].includes(last.kind)) ctx.sound("card");
}

// After drawing: the flight of the card just played, the hand's summary.
export function afterRender(ctx, prev) {
  const v = ctx.state.view;
  if (prev && prev.move_no !== ctx.state.move_no && v.hand_no === prev.view.hand_no) {
    const last = v.events[v.events.length - 1];
    const landed = document.querySelector(`.last-move [data-card="${last?.card}"]`);
    if (last && landed) {
      const from = last.seat === ctx.seat && tapFrom ? tapFrom : originOf(ctx, last);
      if (from) fly(landed, from, landed);
    }
  }
  tapFrom = null;
  handSummary(ctx, prev);
}

function originOf(ctx, event) {
  // where another player's card comes from: their side's name
  const side = sideOf(ctx.state.view, event.seat);
  return document.querySelector(`.tableau[data-side="${side}"] h3`)?.getBoundingClientRect() ?? null;
}

export function cardFace(ctx, card, { small = false } = {}) {
  // the project's picture of the card (static/js/cards.js), its name in the card language
  return cardSVG(card, { name: cardName(ctx, card), lang: cardLanguage(ctx), kindLabel: t(`mille.kind.${KIND[card] ?? "other"}`), small });
}

function top(pile) {
  return pile.length ? pile[pile.length - 1] : null;
}

function legalFor(ctx, card) {
  return (ctx.state.legal ?? []).filter((l) => l.info?.card === card && l.info?.verb !== "extend" && l.info?.verb !== "decline");
}

// Where `card` would go on `side` (null: the discard): the legal action, or the one to try.
function actionFor(ctx, card, side) {
  const legal = legalFor(ctx, card).find((l) => (side === null ? l.info.verb === "discard" : l.info.verb !== "discard" && l.info.side === side));
  if (legal) return { action: legal.action, legal: true };
  const v = ctx.state.view;
  if (side === null) return { action: `discard ${card}`, legal: false };
  if (side === v.side) return { action: `play ${card}`, legal: false };
  return { action: `attack ${side + 1} ${card}`, legal: false };
}

// With a card chosen, every place it can go is a button over that place (the whole side or
// pile can be tapped); allowed places are marked ✓, the others can be tried.
function targetButton(ctx, side) {
  if (!selected) return null;
  const { action, legal } = actionFor(ctx, selected.card, side);
  const where = side === null ? t("mille.discard_pile") : sideName(ctx, side);
  const label = t(legal ? "mille.put_here" : "mille.try_here", { card: cardName(ctx, selected.card), where });
  const hinted = ctx.hinted?.()?.action === action;
  return el(
    "button",
    {
      type: "button",
      class: `target${legal ? " legal" : ""}${hinted ? " hinted" : ""}`,
      "data-action": action,
      onclick: () => {
        tapFrom = document.querySelector(".card-button.selected")?.getBoundingClientRect() ?? null;
        ctx.act(action);
      },
    },
    el("span", { class: "target-label" }, legal ? el("span", { "aria-hidden": "true", text: "✓ " }) : null, legal ? t("mille.here") : t("mille.try")),
    el("span", { class: "sr-only", text: `: ${label}` }),
  );
}

// Where the last move landed: the slot ("battle", "speed", "distance", "safeties") of a side, or
// the discard pile (side null).
function landing(v) {
  const e = v.events[v.events.length - 1];
  if (!e || !e.card) return null;
  if (e.kind === "discard") return { side: null, slot: "discard", card: e.card };
  const side = e.kind === "attack" ? e.side : sideOf(v, e.seat);
  const kind = KIND[e.card];
  const slot = kind === "distance" ? "distance" : kind === "safety" ? "safeties" : SPEED.has(e.card) ? "speed" : "battle";
  return { side, slot, card: e.card };
}

function slot(name, label, content, mark) {
  return el(
    "div",
    { class: `slot slot-${name}${mark ? " last-move" : ""}`, "data-slot": name },
    el("dt", { text: label }),
    el("dd", {}, content),
  );
}

function tableau(ctx, side, land) {
  const v = ctx.state.view;
  const tab = v.tableaus[side];
  const mine = side === v.side;
  const battle = top(tab.battle);
  const speed = top(tab.speed);
  const counts = {};
  for (const d of tab.distance) counts[d] = (counts[d] ?? 0) + 1;
  const breakdown = Object.entries(counts).map(([c, n]) => `${n} × ${cardName(ctx, c)}`).join(", ");
  const legalHere = selected && actionFor(ctx, selected.card, side).legal;
  const hint = ctx.hinted?.()?.info;
  const hinted = hint && (hint.verb === "play" || hint.verb === "attack") && hint.side === side;
  const marked = (name) => land && land.side === side && land.slot === name;
  const empty = (label) => el("span", { class: "empty", "data-label": label, text: t("mille.empty") });
  return el(
    "section",
    { class: `tableau${mine ? " mine" : ""}${legalHere ? " can-go" : ""}${hinted ? " hinted" : ""}${ctx.state.turn !== null && v.sides[side]?.includes(ctx.state.turn) ? " acting" : ""}`, "data-side": side, "aria-label": sideName(ctx, side) },
    el(
      "div",
      { class: "tab-head" },
      el("h3", {}, sideName(ctx, side), mine ? el("span", { class: "badge", text: t("mille.your_side") }) : null),
      el("strong", { class: "km-text", text: t("mille.km", { km: tab.km, target: v.target }) }),
    ),
    el("meter", { min: 0, max: v.target, value: tab.km, "aria-label": t("mille.distance_of", { km: tab.km, target: v.target }) }),
    el(
      "dl",
      { class: "piles" },
      slot("battle", t("mille.battle"), battle ? cardFace(ctx, battle, { small: true }) : empty(t("mille.battle")), marked("battle")),
      slot("speed", t("mille.speed"), speed ? cardFace(ctx, speed, { small: true }) : empty(t("mille.speed")), marked("speed")),
      // the distance pile as it lies: its top card, how many lie there, the 200s used; the
      // whole count by card for screen readers (and in the title)
      slot(
        "distance",
        t("mille.distance"),
        [
          tab.distance.length ? cardFace(ctx, tab.distance[tab.distance.length - 1], { small: true }) : empty(t("mille.distance")),
          el(
            "span",
            { class: "dist-count", title: breakdown },
            el("span", { "aria-hidden": "true", text: tab.distance.length ? `×${tab.distance.length}` : "" }),
            el("span", { class: "sr-only", text: breakdown }),
            el("span", { class: "d200" }, el("span", { "aria-hidden": "true", text: `${t("mille.d200")} ${tab.d200}/2` }), el("span", { class: "sr-only", text: `${t("mille.d200")}: ${t("mille.d200_used", { count: tab.d200 })}` })),
          ),
        ],
        marked("distance"),
      ),
      slot(
        "safeties",
        t("mille.safeties"),
        tab.safeties.length
          ? tab.safeties.map((s) =>
              el(
                "span",
                { class: "safety-played" },
                cardFace(ctx, s, { small: true }),
                tab.coups.includes(s) ? el("span", { class: "cf" }, el("span", { "aria-hidden": "true", text: t("mille.cf_short") }), el("span", { class: "sr-only", text: t("mille.cf_mark") })) : null,
              ),
            )
          : empty(t("mille.safeties")),
        marked("safeties"),
      ),
    ),
    targetButton(ctx, side),
  );
}

function scoreSheet(ctx, sheet) {
  const v = ctx.state.view;
  const sides = v.sides.map((_, i) => sideName(ctx, i));
  const rows = LINES.filter((k) => sheet.rows.some((r) => r[k])).map((k) =>
    el("tr", {}, el("th", { scope: "row", text: word(ctx, k) }), ...sheet.rows.map((r) => el("td", { text: String(r[k]) }))),
  );
  return el(
    "table",
    { class: "sheet" },
    el("caption", { text: `${word(ctx, "score_sheet")} · ${word(ctx, "hand")} ${sheet.hand + 1}` }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: word(ctx, "side") }), ...sides.map((s) => el("th", { scope: "col", text: s })))),
    el(
      "tbody",
      {},
      rows,
      el("tr", { class: "sum" }, el("th", { scope: "row", text: word(ctx, "hand_total") }), ...sheet.hand_totals.map((n) => el("td", { text: String(n) }))),
      el("tr", { class: "sum" }, el("th", { scope: "row", text: word(ctx, "total") }), ...sheet.totals.map((n) => el("td", { text: String(n) }))),
    ),
  );
}

// The hand's summary: who made the trip, the sheet line by line in the edition's words, the
// running totals, what comes next; at the match's end the winner, play again, the record.
// It stays until dismissed (remembered per table, so a reload before closing shows it again).
let summaryFor = null;
function handSummary(ctx, prev) {
  const v = ctx.state.view;
  const n = v.sheets.length;
  if (!n) return;
  const key = `rallye.summary.${ctx.code}`;
  const seen = Number(localStorage.getItem(key) ?? 0);
  const over = v.winners.length > 0;
  const fresh = prev ? prev.view.sheets.length < n : over || v.events.length === 0;
  if (seen >= n || summaryFor === n || !fresh) return;
  summaryFor = n;
  const sheet = v.sheets[n - 1];
  const names = (side) => (v.sides[side] ?? []).map((s) => ctx.name(s)).join(" & ");
  const lines = [];
  lines.push(sheet.completed_by !== null && sheet.completed_by !== undefined ? t("mille.summary_trip", { names: names(sheet.completed_by) }) : t("mille.summary_no_trip"));
  if (sheet.extended_by !== null && sheet.extended_by !== undefined) lines.push(t("mille.summary_extended", { names: names(sheet.extended_by) }));
  const totals = sheet.totals.map((p, i) => t("mille.summary_total", { names: names(i), points: p })).join(" · ");
  const target = edition(ctx).match_target;
  const next = over ? t("mille.winner", { names: v.winners.map((s) => names(s)).join(", ") }) : target ? t("mille.summary_next", { hand: v.hand_no + 1, points: target }) : t("mille.summary_next_hand", { hand: v.hand_no + 1 });
  const title = over ? t("mille.match_over") : t("mille.hand_over", { hand: sheet.hand + 1 });
  const rowsText = LINES.filter((k) => sheet.rows.some((r) => r[k])).map((k) => `${word(ctx, k)}: ${sheet.rows.map((r) => r[k]).join(" / ")}`);
  ctx.summary({
    title,
    body: [
      over ? el("p", { class: "winner", text: next }) : null,
      ...lines.map((l) => el("p", { text: l })),
      scoreSheet(ctx, sheet),
      el("p", { class: "totals-line", text: totals }),
      over ? null : el("p", { class: "next", text: next }),
    ].filter(Boolean),
    text: [title, ...lines, ...rowsText, totals, next].join(". "),
    actions: over ? [ctx.againButton(), ctx.replayLink?.(), ctx.recordLink()].filter(Boolean) : [],
    onClose: () => localStorage.setItem(key, String(n)),
  });
  ctx.sound(over ? "fanfare" : "end");
}

function choose(ctx, card, i) {
  selected = selected && selected.i === i ? null : { card, i };
  ctx.refresh();
  const first =
    document.querySelector(".tableau.mine button.target.legal") ??
    document.querySelector(".tableau button.target.legal") ??
    document.querySelector("button.target.legal") ??
    document.querySelector("button.target");
  if (selected && first) first.focus({ preventScroll: true });
}

export function render(ctx, parts) {
  const { view: v, legal = [] } = ctx.state;
  fillCardLanguage(ctx);
  const myTurn = ctx.state.turn === ctx.seat && ctx.seat !== null;
  if (selected && (v.hand ?? [])[selected.i] !== selected.card) {
    const i = (v.hand ?? []).indexOf(selected.card);
    selected = i >= 0 ? { card: selected.card, i } : null;
  }
  const land = landing(v);

  // The coup fourré turn that follows the moment: a steady banner while it lasts.
  if (v.cf_turn) {
    const cf = [...v.events].reverse().find((e) => e.kind === "coup_fourre");
    if (cf) {
      parts.moment.hidden = false;
      parts.moment.dataset.kind = "coup";
      parts.moment.textContent = t("mille.coup_fourre", { name: ctx.name(cf.seat), card: cardName(ctx, cf.card) });
    }
  }

  // The board: piles and every side's tableau, yours first.
  const discardTop = top(v.discard);
  const names = (side) => sideName(ctx, side);
  const target = edition(ctx).match_target;
  const piles = el(
    "section",
    { class: "piles-row", "aria-label": t("mille.piles") },
    el("div", { class: "pile draw" }, el("h3", { text: t("mille.draw_pile") }), el("p", { class: "count", text: String(v.draw_count) }), el("p", { class: "note sr-only", text: t("mille.cards_left", { count: v.draw_count }) })),
    el(
      "div",
      { class: `pile discard${selected && actionFor(ctx, selected.card, null).legal ? " can-go" : ""}${land?.slot === "discard" ? " last-move" : ""}${ctx.hinted?.()?.info?.verb === "discard" ? " hinted" : ""}` },
      el("h3", { text: t("mille.discard_pile") }),
      discardTop ? cardFace(ctx, discardTop, { small: true }) : el("p", { class: "empty", text: t("mille.empty") }),
      el("p", { class: "note sr-only", text: t("mille.cards_in", { count: v.discard.length }) }),
      targetButton(ctx, null),
    ),
    el("div", { class: "pile trip" }, el("h3", { text: t("mille.trip") }), el("p", { class: "count", text: t("mille.target", { km: v.target }) }), el("p", { class: "note", text: `${word(ctx, "hand")} ${v.hand_no + 1}` })),
    el(
      "div",
      { class: "pile totals" },
      el("h3", {}, word(ctx, "total"), el("span", { class: "hand-no", text: ` · ${word(ctx, "hand")} ${v.hand_no + 1}` })),
      el("ul", { class: v.totals.length > 3 ? "many" : null }, v.totals.map((n, i) => el("li", {}, el("span", { class: "who", text: names(i) }), " ", el("strong", { text: String(n) })))),
      target ? el("p", { class: "note", text: t("mille.match_to_short", { points: target }) }) : null,
    ),
  );
  const order = v.sides.map((_, i) => i);
  if (v.side !== null && v.side !== undefined) order.sort((a, b) => (a === v.side ? -1 : b === v.side ? 1 : a - b));
  parts.board.replaceChildren(piles, el("div", { class: `tableaus sides-${order.length}${order.length > 3 ? " many" : ""}` }, order.map((i) => tableau(ctx, i, land))));

  // The controls, docked at the bottom: the extension question, or the hand.
  const c = parts.controls;
  c.replaceChildren();
  const extend = legal.find((l) => l.info?.verb === "extend");
  const decline = legal.find((l) => l.info?.verb === "decline");
  // the coach: what it says above the hand, its button beside the hand's words
  const coach = ctx.coachBar?.();
  const hintedAction = ctx.hinted?.()?.action;
  if (coach) {
    // a card chosen: the hint's first line only, so every place it can go stays in sight
    coach.box.classList.toggle("brief", !!selected);
    c.append(coach.box);
  }
  if (extend || decline) {
    c.append(
      el(
        "div",
        { class: "question", role: "group", "aria-labelledby": "extend-q" },
        el("h2", { id: "extend-q", text: t("mille.extend_question", { from: v.target, to: edition(ctx).extension_to ?? 1000 }) }),
        el(
          "div",
          { class: "answers" },
          extend ? el("button", { type: "button", class: `primary${hintedAction === extend.action ? " hinted" : ""}`, "data-action": "extend", onclick: () => ctx.act(extend.action), text: t("mille.extend") }) : null,
          decline ? el("button", { type: "button", class: hintedAction === decline?.action ? "hinted" : null, "data-action": "decline", onclick: () => ctx.act(decline.action), text: t("mille.decline") }) : null,
          coach?.button,
        ),
      ),
    );
  }
  if (ctx.seat !== null && v.hand && !(extend || decline)) {
    // while a card is chosen: the question in sight, the rest of the hint for screen readers
    // (no word of the Escape key on a touch screen)
    const more = selected ? [t("mille.marked_allowed"), ctx.touch ? "" : t("mille.escape_cancels")].filter(Boolean).join(" ") : "";
    const hint = !myTurn ? t("mille.hand_wait") : selected ? t("mille.hand_where", { card: cardName(ctx, selected.card) }) : t("mille.hand_choose");
    const hintCard = ctx.hinted?.()?.info?.card;
    const hintAt = hintCard && !(extend || decline) ? v.hand.indexOf(hintCard) : -1;
    const hand = el(
      "ul",
      { class: "hand", "aria-labelledby": "hand-h" },
      v.hand.map((card, i) => {
        const uses = legalFor(ctx, card).length;
        const chosen = selected?.i === i;
        const hinted = i === hintAt;
        return el(
          "li",
          {},
          el(
            "button",
            {
              type: "button",
              class: `card-button${chosen ? " selected" : ""}${myTurn && uses ? " playable" : ""}${hinted ? " hinted" : ""}`,
              "aria-pressed": chosen ? "true" : "false",
              "aria-describedby": "hand-hint",
              "data-card": card,
              "data-i": i,
              onclick: () => choose(ctx, card, i),
            },
            cardFace(ctx, card),
            myTurn && uses ? el("span", { class: "sr-only", text: t("mille.can_play") }) : null,
            hinted ? el("span", { class: "hint-mark" }, el("span", { "aria-hidden": "true", text: "?" }), el("span", { class: "sr-only", text: t("coach.marked") })) : null,
          ),
        );
      }),
    );
    hand.style.setProperty("--n", String(Math.max(1, v.hand.length)));
    c.append(
      el(
        "div",
        { class: "dock-head" },
        el("h2", { id: "hand-h", text: t("mille.your_hand", { count: v.hand.length }) }),
        el("p", { class: "note", id: "hand-hint" }, hint, more ? el("span", { class: "sr-only", text: ` ${more}` }) : null),
        selected ? el("button", { type: "button", class: "cancel", onclick: () => { selected = null; ctx.refresh(); }, text: t("mille.cancel") }) : null,
        selected ? null : coach?.button,
      ),
      hand,
    );
  }

  // The score sheets below the board, the totals and the winner.
  if (v.sheets.length) {
    parts.result.hidden = false;
    const body = [];
    if (v.winners.length) {
      body.push(el("p", { class: "winner", text: t("mille.winner", { names: v.winners.map((s) => sideName(ctx, s)).join(", ") }) }));
      body.push(el("p", { class: "row" }, ctx.againButton(), ctx.replayLink?.(), ctx.recordLink()));
    }
    body.push(scoreSheet(ctx, v.sheets[v.sheets.length - 1]));
    if (v.sheets.length > 1) {
      body.push(el("details", {}, el("summary", { text: t("mille.earlier_hands") }), v.sheets.slice(0, -1).reverse().map((s) => scoreSheet(ctx, s))));
    }
    parts.resultBody.replaceChildren(...body);
  } else parts.result.hidden = true;
}
