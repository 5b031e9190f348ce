// A Mille Bornes table: your hand as cards, every side's tableau, the discard and draw
// piles, the coup fourré moment, the extension question, the score sheets. The page holds
// no rule: where a card may go comes from the `legal` list the server sent (`info.side`).
import { el } from "./common.js";
import { KIND, cardSVG } from "./cards.js";
import { lang, t } from "./i18n.js";

const LINES = ["distance", "safeties", "all_four", "coup_fourre", "trip", "safe_trip", "delayed_action", "shutout", "extension", "hand_penalty"];

let selected = null; // the card chosen in hand (its id), until played or cancelled
let momentShownFor = null;

function edition(ctx) {
  const g = ctx.info.games ?? ctx.info;
  const list = g.editions ?? g.mille?.editions ?? [];
  const key = ctx.state?.view?.edition ?? ctx.table.edition;
  return list.find((e) => e.key === key || (e.aliases ?? []).includes(key)) ?? list[0];
}

function cardLanguage(ctx) {
  const saved = localStorage.getItem("rallye.cardlang");
  const ed = edition(ctx);
  if (saved && ed.names?.[saved]) return saved;
  return ed.language;
}

export function cardName(ctx, card) {
  const ed = edition(ctx);
  return ed.names?.[cardLanguage(ctx)]?.[card] ?? ed.names?.[ed.language]?.[card] ?? card;
}

function word(ctx, key) {
  const ed = edition(ctx);
  const pageLang = lang();
  return ed.score_words?.[pageLang]?.[key] ?? ed.score_words?.[ed.language]?.[key] ?? t(`mille.score.${key}`);
}

export async function setup(ctx) {
  const label = document.getElementById("cardlang-label");
  const sel = document.getElementById("cardlang");
  const ed = edition(ctx);
  const langs = Object.keys(ed.names ?? {});
  label.hidden = langs.length < 2;
  const fill = () => {
    sel.replaceChildren(...langs.map((l) => el("option", { value: l, text: t(`language.${l}`) })));
    sel.value = cardLanguage(ctx);
  };
  fill();
  sel.onchange = () => {
    localStorage.setItem("rallye.cardlang", sel.value);
    ctx.refresh();
  };
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && selected) {
      selected = null;
      ctx.refresh();
    }
  });
}

function sideName(ctx, side) {
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

export function stateChanged(ctx, msg) {
  // A coup fourré is the one move nobody chooses on their turn: say it aloud.
  const ev = msg.view.events ?? [];
  const last = ev[ev.length - 1];
  if (last?.kind === "coup_fourre" && ctx.state && msg.move_no !== ctx.state.move_no) {
    ctx.say(t("mille.coup_fourre", { name: ctx.name(last.seat), card: cardName(ctx, last.card) }));
  }
  if (ctx.state && msg.move_no !== ctx.state.move_no) selected = null;
}

function cardFace(ctx, card, { small = false } = {}) {
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

function targetButton(ctx, side) {
  if (!selected) return null;
  const { action, legal } = actionFor(ctx, selected, side);
  const where = side === null ? t("mille.discard_pile") : sideName(ctx, side);
  const label = t(legal ? "mille.put_here" : "mille.try_here", { card: cardName(ctx, selected), where });
  return el(
    "button",
    { type: "button", class: `target${legal ? " legal" : ""}`, "data-action": action, onclick: () => ctx.act(action) },
    legal ? el("span", { "aria-hidden": "true", text: "✓ " }) : null,
    label,
  );
}

function tableau(ctx, side) {
  const v = ctx.state.view;
  const tab = v.tableaus[side];
  const mine = side === v.side;
  const battle = top(tab.battle);
  const speed = top(tab.speed);
  const counts = {};
  for (const d of tab.distance) counts[d] = (counts[d] ?? 0) + 1;
  const legalHere = selected && actionFor(ctx, selected, side).legal;
  return el(
    "section",
    { class: `tableau${mine ? " mine" : ""}${legalHere ? " can-go" : ""}`, "data-side": side, "aria-label": sideName(ctx, side) },
    el("h3", {}, sideName(ctx, side), mine ? el("span", { class: "badge", text: t("mille.your_side") }) : null),
    el(
      "p",
      { class: "km" },
      el("meter", { min: 0, max: v.target, value: tab.km, "aria-label": t("mille.distance_of", { km: tab.km, target: v.target }) }),
      " ",
      el("strong", { text: t("mille.km", { km: tab.km, target: v.target }) }),
    ),
    el(
      "dl",
      { class: "piles" },
      el("dt", { text: t("mille.battle") }),
      el("dd", {}, battle ? cardFace(ctx, battle, { small: true }) : t("mille.empty")),
      el("dt", { text: t("mille.speed") }),
      el("dd", {}, speed ? cardFace(ctx, speed, { small: true }) : t("mille.empty")),
      el("dt", { text: t("mille.distance") }),
      el(
        "dd",
        {},
        Object.keys(counts).length
          ? Object.entries(counts).map(([c, n]) => el("span", { class: "dist" }, `${n} × ${cardName(ctx, c)}`))
          : t("mille.empty"),
      ),
      el("dt", { text: t("mille.d200") }),
      el("dd", { text: t("mille.d200_used", { count: tab.d200 }) }),
      el("dt", { text: t("mille.safeties") }),
      el(
        "dd",
        {},
        tab.safeties.length
          ? tab.safeties.map((s) =>
              el("span", { class: "safety-played" }, cardFace(ctx, s, { small: true }), tab.coups.includes(s) ? el("span", { class: "cf", text: t("mille.cf_mark") }) : null),
            )
          : t("mille.empty"),
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

export function render(ctx, parts) {
  const { view: v, legal = [] } = ctx.state;
  for (const o of document.querySelectorAll("#cardlang option")) o.textContent = t(`language.${o.value}`);
  const myTurn = ctx.state.turn === ctx.seat && ctx.seat !== null;
  if (selected && !(v.hand ?? []).includes(selected)) selected = null;

  // The coup fourré moment and the turn that follows it.
  const last = v.events[v.events.length - 1];
  if (last?.kind === "coup_fourre" || v.cf_turn) {
    const cf = [...v.events].reverse().find((e) => e.kind === "coup_fourre");
    parts.moment.hidden = !cf;
    if (cf) parts.moment.textContent = t("mille.coup_fourre", { name: ctx.name(cf.seat), card: cardName(ctx, cf.card) });
  } else parts.moment.hidden = true;

  // The board: piles and every side's tableau.
  const discardTop = top(v.discard);
  const piles = el(
    "section",
    { class: "piles-row", "aria-label": t("mille.piles") },
    el("div", { class: "pile" }, el("h3", { text: t("mille.draw_pile") }), el("p", { class: "count", text: t("mille.cards_left", { count: v.draw_count }) })),
    el(
      "div",
      { class: `pile discard${selected && actionFor(ctx, selected, null).legal ? " can-go" : ""}` },
      el("h3", { text: t("mille.discard_pile") }),
      discardTop ? cardFace(ctx, discardTop) : el("p", { text: t("mille.empty") }),
      el("p", { class: "note", text: t("mille.cards_in", { count: v.discard.length }) }),
      targetButton(ctx, null),
    ),
    el("div", { class: "pile" }, el("h3", { text: t("mille.trip") }), el("p", { class: "count", text: t("mille.target", { km: v.target }) }), el("p", { class: "note", text: `${word(ctx, "hand")} ${v.hand_no + 1}` })),
    el(
      "div",
      { class: "pile totals" },
      el("h3", { text: word(ctx, "total") }),
      el("ul", {}, v.totals.map((n, i) => el("li", {}, `${sideName(ctx, i)}: `, el("strong", { text: String(n) })))),
      edition(ctx).match_target ? el("p", { class: "note", text: t("mille.match_to", { points: edition(ctx).match_target }) }) : null,
    ),
  );
  const order = v.sides.map((_, i) => i);
  if (v.side !== null && v.side !== undefined) order.sort((a, b) => (a === v.side ? -1 : b === v.side ? 1 : a - b));
  parts.board.replaceChildren(piles, el("div", { class: "tableaus" }, order.map((i) => tableau(ctx, i))));

  // The controls: the extension question, or the hand.
  const c = parts.controls;
  c.replaceChildren();
  const extend = legal.find((l) => l.info?.verb === "extend");
  const decline = legal.find((l) => l.info?.verb === "decline");
  if (extend || decline) {
    c.append(
      el(
        "div",
        { class: "question", role: "group", "aria-labelledby": "extend-q" },
        el("h2", { id: "extend-q", text: t("mille.extend_question", { from: v.target, to: edition(ctx).extension_to ?? 1000 }) }),
        extend ? el("button", { type: "button", class: "primary", "data-action": "extend", onclick: () => ctx.act(extend.action), text: t("mille.extend") }) : null,
        " ",
        decline ? el("button", { type: "button", "data-action": "decline", onclick: () => ctx.act(decline.action), text: t("mille.decline") }) : null,
      ),
    );
  }
  if (ctx.seat !== null && v.hand) {
    const hint = !myTurn ? t("mille.hand_wait") : selected ? t("mille.hand_where", { card: cardName(ctx, selected) }) : t("mille.hand_choose");
    c.append(
      el("h2", { id: "hand-h", text: t("mille.your_hand", { count: v.hand.length }) }),
      el("p", { class: "note", id: "hand-hint", text: hint }),
      el(
        "ul",
        { class: "hand", "aria-labelledby": "hand-h" },
        v.hand.map((card, i) => {
          const uses = legalFor(ctx, card).length;
          return el(
            "li",
            {},
            el(
              "button",
              {
                type: "button",
                class: `card-button${selected === card ? " selected" : ""}${myTurn && uses ? " playable" : ""}`,
                "aria-pressed": selected === card ? "true" : "false",
                "aria-describedby": "hand-hint",
                "data-card": card,
                "data-i": i,
                onclick: () => {
                  selected = selected === card ? null : card;
                  ctx.refresh();
                  const first =
                    document.querySelector(".tableau.mine button.target.legal") ??
                    document.querySelector(".tableau button.target.legal") ??
                    document.querySelector("button.target.legal") ??
                    document.querySelector("button.target");
                  if (selected && first) first.focus({ preventScroll: true });
                },
              },
              cardFace(ctx, card),
              myTurn && uses ? el("span", { class: "sr-only", text: t("mille.can_play") }) : null,
            ),
          );
        }),
      ),
    );
    if (selected) c.append(el("button", { type: "button", onclick: () => { selected = null; ctx.refresh(); }, text: t("mille.cancel") }));
  }

  // The score sheets, the totals and the winner.
  if (v.sheets.length) {
    parts.result.hidden = false;
    const body = [];
    if (v.winners.length) {
      body.push(el("p", { class: "winner", text: t("mille.winner", { names: v.winners.map((s) => sideName(ctx, s)).join(", ") }) }));
      if (ctx.seat !== null) body.push(el("button", { type: "button", class: "primary", onclick: () => ctx.ws.send(JSON.stringify({ type: "again" })), text: t("table.again") }));
    }
    body.push(scoreSheet(ctx, v.sheets[v.sheets.length - 1]));
    if (v.sheets.length > 1) {
      body.push(el("details", {}, el("summary", { text: t("mille.earlier_hands") }), v.sheets.slice(0, -1).reverse().map((s) => scoreSheet(ctx, s))));
    }
    parts.resultBody.replaceChildren(...body);
  } else parts.result.hidden = true;
}
