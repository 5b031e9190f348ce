// A Knight Rider table: the board drawn as SVG from the tiles in the view (each tile's
// opening mask decides its road cells), the cars with their headings, the villain,
// detours, the centre with the escape cards; building (the drawn tile, where it fits,
// rotate and place) and the chase (the dice, every legal move as a path with its cost and
// what happens there, K.I.T.T. and detour cards). Legal actions come from the server only.
import { carSVG, villainSVG } from "./cards.js";
import { el, svg } from "./common.js";
import { t, tIn } from "./i18n.js";

const C = 16; // one cell in SVG units; a tile is 3 × 3 cells
const DIRS = "NESW";
const DXY = [[0, -1], [1, 0], [0, 1], [-1, 0]];
const ARM = [[1, 0], [2, 1], [1, 2], [0, 1]]; // local cell of each side's opening
const KITT = ["MANTLE", "TURBO1", "TURBO2", "JUMP"];
const DETOURS = ["STRAIGHT", "DEADEND", "ROADBLOCK", "RIGHT", "LEFT"];

// The sides a detour card joins to the middle field, as printed on it (turned by rot).
function detourSides(kind, rot) {
  const h = rot / 90;
  const bit = (d) => 1 << ((h + d) % 4);
  if (kind === "STRAIGHT") return bit(0) | bit(2);
  if (kind === "DEADEND") return bit(0);
  if (kind === "RIGHT") return bit(2) | bit(1);
  if (kind === "LEFT") return bit(2) | bit(3);
  return 15;
}

const ui = { rot: null, dest: null, detour: null, detourSq: null, focus: null, centredFor: null, zoom: null, trail: null, summaryShown: false, hintCentred: null, hintShownFor: null };

// The board's scale: CSS px per cell. On a touch screen a cell is big enough for a finger
// (every destination at least 44 px) and the map is panned and pinched; on a wide screen
// with a mouse the whole map fits the width (no sideways scrolling).
const TOUCH_CELL = 48;
const MIN_CELL = 10;
const MAX_CELL = 96;

// Card names, directions and the ram and oil tables: the game's own catalog (i18n/catalogs/kr),
// the same words as the terminal's.
export function cardName(card) {
  return tIn("kr", `card.${card}`) ?? card;
}

function dirName(d) {
  return tIn("kr", `dir.${DIRS[d]}`) ?? DIRS[d];
}

export function seatNote(ctx, seat) {
  const v = ctx.state?.view;
  if (!v) return "";
  const car = v.cars[seat];
  const bits = [];
  if (car?.roof) bits.push(t("kr.on_roof"));
  if (car?.mantle) bits.push(cardName("MANTLE"));
  if (v.targets.length) bits.push(t("kr.targets_reached", { count: car?.reached.length ?? 0, all: v.targets.length }));
  const [k, d] = v.hand_sizes[seat] ?? [0, 0];
  bits.push(t("kr.cards_held", { kitt: k, detour: d }));
  return bits.join(" · ");
}

export function describe(ctx, entry) {
  const who = ctx.name(entry.seat);
  const a = entry.action;
  let m;
  if ((m = a.match(/^place(?: (\d+))? at (-?\d+),(-?\d+) rot (\d+)/))) return t("kr.log.place", { name: who, tile: m[1] ?? "", x: m[2], y: m[3], rot: m[4] });
  if ((m = a.match(/^start at (-?\d+),(-?\d+)/))) return t("kr.log.start", { name: who, x: m[1], y: m[2] });
  if ((m = a.match(/^enter ([NESW])/))) return t("kr.log.enter", { name: who, dir: dirName(DIRS.indexOf(m[1])) });
  if ((m = a.match(/^move (?:to )?.*?(-?\d+),(-?\d+)([NESW])\*? =(\d+)( jump)?$/)))
    return t(m[5] ? "kr.log.move_jump" : "kr.log.move", { name: who, x: m[1], y: m[2], dir: dirName(DIRS.indexOf(m[3])), count: Number(m[4]) });
  if ((m = a.match(/^kitt (\w+)/))) return t("kr.log.kitt", { name: who, card: cardName(m[1]) });
  if ((m = a.match(/^detour (\w+) at (-?\d+),(-?\d+)/))) return t("kr.log.detour", { name: who, card: cardName(m[1]), x: m[2], y: m[3] });
  if (a === "end") return t("kr.log.end", { name: who });
  if (a === "recover") return t("kr.log.recover", { name: who });
  return `${who}: ${a}`;
}

// The coach's hint in words: the move (a legal entry), and a reason's card params by name.
export function hintMove(ctx, entry) {
  const i = entry.info ?? {};
  if (i.kind === "move") return t("kr.hint.move", { where: moveLabel(ctx, i) });
  if (i.kind === "place") return t("kr.place_here", { tile: i.tile, x: i.x, y: i.y, rot: i.rot });
  if (i.kind === "start") return t("kr.start_here", { x: i.x, y: i.y });
  if (i.kind === "enter") return t("kr.enter_at", { dir: dirName(i.side) });
  if (i.kind === "kitt") return t("kr.play_card", { card: cardName(i.card) });
  if (i.kind === "detour") {
    const sides = [0, 1, 2, 3].filter((d) => (i.sides >> d) & 1).map(dirName).join(" – ");
    return `${t("kr.detour_here", { card: cardName(i.card), x: i.x, y: i.y })} (${t("kr.detour_rot", { rot: i.rot, sides })})`;
  }
  if (i.kind === "end") return t("kr.end_turn");
  if (i.kind === "recover") return t("kr.recover");
  return entry.action;
}

const CARD_PARAMS = new Set(["kitt", "detour"]); // rallye.analysis.coach.KR_CARD_PARAMS
export function hintParam(ctx, key, value) {
  return CARD_PARAMS.has(key) ? cardName(value) : value;
}

// The hinted move on the map and in the controls: its path, its square or field, its button.
function markHint(ctx, parts, scroller) {
  const hint = ctx.hinted?.();
  if (!hint) return;
  const i = hint.info ?? {};
  const marks = [...document.querySelectorAll("#board [data-action], #controls [data-action]")].filter((e) => e.dataset.action === hint.action);
  if (i.kind === "move") marks.push(...scroller.querySelectorAll(`g.choice.dest[data-dest="${squareKey(...i.to)}"]`));
  if (i.kind === "detour") {
    marks.push(...scroller.querySelectorAll(`g.choice[data-square="${squareKey(i.x, i.y)}"]`));
    marks.push(...parts.controls.querySelectorAll(`.kr-hand button[data-card="${i.card}"]`));
  }
  for (const e of marks) e.classList.add("hinted");
  if (i.kind === "move") {
    const path = svg("polyline", { class: "path hint-path", points: pathPoints(i), "aria-hidden": "true" });
    scroller.querySelector("g.choices")?.prepend(path);
  }
  if (ui.hintCentred !== ctx.hint.move_no) {
    // the hinted place comes into the map's window (a phone shows part of the map)
    ui.hintCentred = ctx.hint.move_no;
    centreOn(scroller, scroller.querySelector(".hinted"));
  }
}

function eventText(ctx, e) {
  const key = `kr.event.${e.kind}`;
  const effect = e.kind === "ram" || e.kind === "oil" ? (tIn("kr", `${e.kind}.${e.value}`) ?? "") : "";
  const s = t(key, { name: e.player === null ? "" : ctx.name(e.player), value: e.value ?? "", count: e.value ?? 0, effect });
  return s === key ? e.text : s;
}

export function stateChanged(ctx, msg) {
  if (ctx.state && msg.move_no !== ctx.state.move_no) {
    ui.dest = null;
    ui.detourSq = null;
    ui.focus = null;
    if (!(msg.legal ?? []).some((l) => l.info?.kind === "detour" && l.info.card === ui.detour)) ui.detour = null;
    if (!(msg.legal ?? []).some((l) => l.info?.kind === "place")) ui.rot = null;
    // The table's rolls and what they did, for everyone; a ram or oil roll and the
    // villain's escape are moments of their own.
    const moment = (msg.view.events ?? []).filter((e) => MOMENTS[e.kind]);
    for (const e of msg.view.events ?? []) {
      if (MOMENTS[e.kind]) continue;
      if (["roll", "ram_fail", "villain_move", "villain_stays", "roof", "skid", "spin", "villain_roll", "start_player"].includes(e.kind)) ctx.say(eventText(ctx, e));
    }
    if (moment.length) {
      const kind = MOMENTS[moment[moment.length - 1].kind];
      ctx.moment(moment.map((e) => eventText(ctx, e)).join(" "), kind);
      ctx.sound(kind === "roll" ? "dice" : kind === "escape" ? "siren" : "fanfare");
    }
    // the last move's path, drawn on the board until the next one
    const last = (msg.log ?? [])[msg.log.length - 1];
    const steps = last && /^move /.test(last.action) ? [...last.action.matchAll(/(-?\d+),(-?\d+)[NESW]/g)].map((m) => [Number(m[1]), Number(m[2])]) : null;
    const from = last ? ctx.state.view.cars[last.seat]?.field : null;
    ui.trail = steps ? { player: last.seat, points: from ? [from, ...steps] : steps } : null;
    ui.placed = last && /^(place|detour)/.test(last.action) ? last.action : null;
  }
}

const MOMENTS = { ram: "roll", oil: "roll", escape: "escape", win: "trip" };

function squareKey(x, y) {
  return `${x},${y}`;
}

function button(attrs, label, onActivate) {
  // An SVG element that behaves like a button: focusable, Enter/Space, a text label.
  return svg("g", {
    ...attrs,
    role: "button",
    tabindex: "0",
    "aria-label": label,
    onclick: onActivate,
    onkeydown: (ev) => {
      if (ev.key === "Enter" || ev.key === " ") {
        ev.preventDefault();
        onActivate();
      }
    },
  }, svg("title", {}, label));
}

function drawTile(x, y, mask, { ghost = false, number = null } = {}) {
  const g = svg("g", { class: ghost ? "tile ghost" : "tile", transform: `translate(${x * 3 * C},${y * 3 * C})` });
  g.append(svg("rect", { class: "built", x: 0, y: 0, width: 3 * C, height: 3 * C }));
  g.append(svg("rect", { class: "road", x: C, y: C, width: C, height: C }));
  for (let d = 0; d < 4; d++) {
    if (!((mask >> d) & 1)) continue;
    const [lx, ly] = ARM[d];
    g.append(svg("rect", { class: "road", x: lx * C, y: ly * C, width: C, height: C }));
    g.append(svg("line", { class: "lane", x1: 1.5 * C, y1: 1.5 * C, x2: (lx + 0.5) * C + DXY[d][0] * C * 0.5, y2: (ly + 0.5) * C + DXY[d][1] * C * 0.5 }));
  }
  if (number) g.append(svg("text", { class: "tile-no", x: 2, y: 7, "aria-hidden": "true" }, String(number)));
  return g;
}

function bounds(v, legal) {
  const pts = [...v.tiles.map((t) => [t.x, t.y]), ...v.centre];
  for (const l of legal) if (l.info && "x" in l.info && l.info.kind !== "detour") pts.push([l.info.x, l.info.y]);
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return { x0: Math.min(...xs) - 1, x1: Math.max(...xs) + 1, y0: Math.min(...ys) - 1, y1: Math.max(...ys) + 1 };
}

function cellCentre([cx, cy]) {
  return [(cx + 0.5) * C, (cy + 0.5) * C];
}

function drawCar(car, offset, label) {
  const [px, py] = cellCentre(car.field);
  const ox = offset * C * 0.22;
  return carSVG({ player: car.player, heading: car.heading, roof: car.roof, label, x: px + ox, y: py + ox, cell: C });
}

function pathPoints(info) {
  const pts = [];
  if (info.from) pts.push(cellCentre(info.from));
  for (const [x, y] of info.path) pts.push(cellCentre([x, y]));
  return pts.map((p) => p.join(",")).join(" ");
}

function effectWords(ctx, info) {
  return info.effects.map((e) => t(`kr.effect.${e.kind}`, { name: e.player === null ? "" : ctx.name(e.player) }));
}

function moveLabel(ctx, info) {
  const words = [t("kr.move_to", { x: info.to[0], y: info.to[1], dir: dirName(info.heading), count: info.cost }), ...effectWords(ctx, info)];
  if (info.left > 0 && !info.effects.some((e) => e.kind === "ram")) words.push(t("kr.pips_left", { count: info.left }));
  return words.join(" · ");
}

function board(ctx) {
  const { view: v, legal = [] } = ctx.state;
  const b = bounds(v, legal);
  const w = (b.x1 - b.x0 + 1) * 3 * C;
  const h = (b.y1 - b.y0 + 1) * 3 * C;
  // a cell is drawn at least 20 px wide, so a phone scrolls the map rather than shrink it past tapping
  const root = svg("svg", { viewBox: `${b.x0 * 3 * C} ${b.y0 * 3 * C} ${w} ${h}`, class: "kr-board", role: "group", "aria-label": t("kr.board_label", { count: v.tiles.length }) });
  root.dataset.cells = String(w / C);
  const base = svg("g", { "aria-hidden": "true" });
  root.append(base);
  // the centre: face-down tiles, later the escape cards
  const cx = Math.min(...v.centre.map((c) => c[0]));
  const cy = Math.min(...v.centre.map((c) => c[1]));
  base.append(svg("rect", { class: "centre", x: cx * 3 * C, y: cy * 3 * C, width: 6 * C, height: 6 * C, rx: 4 }));
  base.append(svg("text", { class: "centre-text", x: (cx + 1) * 3 * C, y: (cy + 1) * 3 * C - 2 }, v.centre_face_down ? t("kr.centre_face_down") : t("kr.escape_pile", { count: v.escape_left })));
  const lastEscape = v.escape_turned[v.escape_turned.length - 1];
  if (lastEscape && !v.centre_face_down) {
    // the escape card last turned: the villain's tile in the middle, the arrow to where it fled
    const ox = (cx + 1) * 3 * C;
    const oy = (cy + 1) * 3 * C + C * 1.2;
    const s = C * 0.5;
    const { dx, dy } = lastEscape;
    const moves = [dy ? `${Math.abs(dy)} ${dirName(dy < 0 ? 0 : 2)}` : "", dx ? `${Math.abs(dx)} ${dirName(dx > 0 ? 1 : 3)}` : ""].filter(Boolean).join(", ");
    const label = t("kr.escape_last", { id: lastEscape.id, moves });
    const card = svg("g", { class: "escape-card", role: "img", "aria-label": label }, svg("title", {}, label));
    for (let r = -1; r <= 1; r++) for (let c = -2; c <= 2; c++) card.append(svg("rect", { class: r === 0 && c === 0 ? "v" : r === lastEscape.dy && c === lastEscape.dx ? "x" : "", x: ox + c * s - s / 2, y: oy + r * s - s / 2, width: s - 1, height: s - 1 }));
    card.append(svg("line", { x1: ox, y1: oy, x2: ox + lastEscape.dx * s, y2: oy + lastEscape.dy * s }));
    root.append(card);
  }
  for (const tile of v.tiles) base.append(drawTile(tile.x, tile.y, tile.openings, { number: tile.number }));
  if (v.start_tile) base.append(svg("rect", { class: "start-mark", x: v.start_tile[0] * 3 * C + 1, y: v.start_tile[1] * 3 * C + 1, width: 3 * C - 2, height: 3 * C - 2 }));
  for (const [x, y] of v.targets) base.append(svg("rect", { class: "target-mark", x: x * 3 * C + 2, y: y * 3 * C + 2, width: 3 * C - 4, height: 3 * C - 4 }));
  const detourLayer = svg("g", {});
  root.append(detourLayer);
  const topDetour = {};
  for (const d of v.detours) topDetour[squareKey(d.x, d.y)] = d;
  for (const d of Object.values(topDetour)) {
    // the card as it lies: a bar to each side it keeps joined to the middle, a cross for a roadblock
    const label = t("kr.detour_at", { card: cardName(d.kind), x: d.x, y: d.y, name: ctx.name(d.player) });
    const g = svg("g", { class: `detour ${d.kind.toLowerCase()}`, transform: `translate(${(3 * d.x + 1.5) * C},${(3 * d.y + 1.5) * C})`, role: "img", "aria-label": label },
      svg("title", {}, label), svg("rect", { x: -C * 0.45, y: -C * 0.45, width: C * 0.9, height: C * 0.9, rx: 2 }));
    const sides = detourSides(d.kind, d.rot);
    const r = C * 0.45;
    if (d.kind === "ROADBLOCK") {
      g.append(svg("line", { x1: -r * 0.7, y1: -r * 0.7, x2: r * 0.7, y2: r * 0.7 }), svg("line", { x1: -r * 0.7, y1: r * 0.7, x2: r * 0.7, y2: -r * 0.7 }));
    } else {
      for (let side = 0; side < 4; side++) {
        if ((sides >> side) & 1) g.append(svg("line", { x1: 0, y1: 0, x2: DXY[side][0] * r, y2: DXY[side][1] * r }));
      }
    }
    detourLayer.append(g);
  }
  // labels for screen readers: what lies where
  const things = svg("g", {});
  root.append(things);
  if (v.villain) {
    const [px, py] = cellCentre(v.villain);
    const label = t("kr.villain_at", { x: v.villain[0], y: v.villain[1] });
    things.append(villainSVG({ label, x: px, y: py, cell: C }));
  }
  const perField = {};
  for (const car of v.cars) {
    if (!car.field && v.start_tile && car.side >= 0) {
      // waiting beside the start tile, at its opening, facing in
      const [lx, ly] = ARM[car.side];
      const at = [3 * v.start_tile[0] + lx + DXY[car.side][0], 3 * v.start_tile[1] + ly + DXY[car.side][1]];
      const label = t("kr.car_waits", { name: ctx.name(car.player), dir: dirName(car.side) });
      const k = squareKey(...at);
      const i = (perField[k] = (perField[k] ?? -1) + 1);
      things.append(drawCar({ ...car, field: at }, i === 0 ? 0 : 1, label));
      continue;
    }
    if (!car.field) continue;
    const k = squareKey(...car.field);
    const i = (perField[k] = (perField[k] ?? -1) + 1);
    const label = t("kr.car_at", { name: ctx.name(car.player), x: car.field[0], y: car.field[1], dir: dirName(car.heading) }) + (car.roof ? ` · ${t("kr.on_roof")}` : "");
    things.append(drawCar(car, i === 0 ? 0 : 1, label));
  }
  // the last move: its path, or the tile or detour card just laid
  if (ui.trail && ui.trail.points.length) {
    const pts = ui.trail.points.map((p) => cellCentre(p).join(",")).join(" ");
    root.insertBefore(svg("polyline", { class: `last-path car-line-${ui.trail.player}`, points: pts, "aria-hidden": "true" }), things);
  }
  const laid = ui.placed && ui.placed.match(/at (-?\d+),(-?\d+)/);
  if (laid) {
    const [x, y] = [Number(laid[1]), Number(laid[2])];
    root.insertBefore(svg("rect", { class: "last-move-mark", x: x * 3 * C + 1, y: y * 3 * C + 1, width: 3 * C - 2, height: 3 * C - 2, "aria-hidden": "true" }), things);
  }
  // what the player to act may do on the board
  const overlay = svg("g", { class: "choices" });
  root.append(overlay);
  const places = legal.filter((l) => l.info?.kind === "place");
  if (places.length) {
    const rots = [...new Set(places.map((l) => l.info.rot))].sort((a, b) => a - b);
    if (ui.rot === null || !rots.includes(ui.rot)) ui.rot = rots[0];
    for (const l of places.filter((p) => p.info.rot === ui.rot)) {
      const { x, y } = l.info;
      const label = t("kr.place_here", { tile: l.info.tile, x, y, rot: ui.rot });
      const g = button({ class: "choice square", "data-action": l.action, "data-square": squareKey(x, y) }, label, () => ctx.act(l.action));
      g.append(drawTile(x, y, l.info.openings, { ghost: true }));
      g.append(svg("rect", { class: "hit", x: x * 3 * C + 1, y: y * 3 * C + 1, width: 3 * C - 2, height: 3 * C - 2 }));
      overlay.append(g);
    }
  }
  for (const l of legal.filter((l) => l.info?.kind === "start")) {
    const { x, y } = l.info;
    const g = button({ class: "choice square", "data-action": l.action }, t("kr.start_here", { x, y }), () => ctx.act(l.action));
    g.append(svg("rect", { class: "hit", x: x * 3 * C + 1, y: y * 3 * C + 1, width: 3 * C - 2, height: 3 * C - 2 }));
    overlay.append(g);
  }
  for (const l of legal.filter((l) => l.info?.kind === "enter" && l.info.field)) {
    const [px, py] = cellCentre(l.info.field);
    const g = button({ class: "choice field", "data-action": l.action }, t("kr.enter_at", { dir: dirName(l.info.side) }), () => ctx.act(l.action));
    g.append(svg("circle", { class: "hit", cx: px, cy: py, r: C * 0.48 }));
    overlay.append(g);
  }
  if (ui.detour) {
    const here = legal.filter((l) => l.info?.kind === "detour" && l.info.card === ui.detour);
    const squares = [...new Map(here.map((l) => [squareKey(l.info.x, l.info.y), l.info])).values()];
    for (const s of squares) {
      const g = button({ class: `choice square${ui.detourSq === squareKey(s.x, s.y) ? " chosen" : ""}`, "data-square": squareKey(s.x, s.y) }, t("kr.detour_here", { card: cardName(ui.detour), x: s.x, y: s.y }), () => {
        ui.detourSq = squareKey(s.x, s.y);
        ctx.refresh();
        document.querySelector("#controls .rotations button")?.focus();
      });
      g.append(svg("rect", { class: "hit", x: s.x * 3 * C + 1, y: s.y * 3 * C + 1, width: 3 * C - 2, height: 3 * C - 2 }));
      overlay.append(g);
    }
  }
  const moves = legal.filter((l) => l.info?.kind === "move");
  const shown = ui.focus ? [ui.focus] : ui.dest ? moves.filter((l) => squareKey(...l.info.to) === ui.dest).map((l) => l.info) : [];
  for (const info of shown) overlay.append(svg("polyline", { class: `path${info.effects.length ? " eventful" : ""}`, points: pathPoints(info), "aria-hidden": "true" }));
  const costs = svg("g", { class: "costs", "aria-hidden": "true" });
  const byDest = new Map();
  for (const l of moves) {
    const k = squareKey(...l.info.to);
    if (!byDest.has(k)) byDest.set(k, []);
    byDest.get(k).push(l);
  }
  for (const [k, ls] of byDest) {
    const info = ls[0].info;
    const [px, py] = cellCentre(info.to);
    const label = ls.length === 1 ? moveLabel(ctx, info) : t("kr.moves_to", { x: info.to[0], y: info.to[1], count: ls.length });
    const eventful = ls.some((l) => l.info.effects.length);
    const g = button({ class: `choice field dest${eventful ? " eventful" : ""}${ui.dest === k ? " chosen" : ""}`, "data-dest": k, "data-action": ls.length === 1 ? ls[0].action : null }, label, () => {
      if (ls.length === 1) ctx.act(ls[0].action);
      else {
        ui.dest = k;
        ctx.refresh();
        document.querySelector("#controls .dest-choices button")?.focus();
      }
    });
    g.append(svg("circle", { class: "hit", cx: px, cy: py, r: C * 0.48 }));
    // the cost (or "!") is drawn on a layer of its own: the button's name says it in words
    costs.append(svg("text", { class: "dest-cost", x: px, y: py + C * 0.2 }, eventful ? "!" : String(Math.min(...ls.map((l) => l.info.cost)))));
    g.addEventListener("mouseenter", () => showPath(root, ls[0].info));
    g.addEventListener("focus", () => showPath(root, ls[0].info));
    overlay.append(g);
  }
  root.append(costs);
  return root;
}

function showPath(root, info) {
  root.querySelector("polyline.hover")?.remove();
  root.querySelector("g.choices").prepend(svg("polyline", { class: "path hover", points: pathPoints(info), "aria-hidden": "true" }));
}

function tilePreview(mask, number, rot) {
  const s = svg("svg", { viewBox: `0 0 ${3 * C} ${3 * C}`, class: "tile-preview", role: "img", "aria-label": t("kr.drawn_tile", { tile: number, rot }) });
  s.append(drawTile(0, 0, mask, { number }));
  return s;
}

function controls(ctx, c) {
  const { view: v, legal = [] } = ctx.state;
  const byKind = (k) => legal.filter((l) => l.info?.kind === k);
  const myTurn = ctx.state.turn === ctx.seat && ctx.seat !== null;
  c.replaceChildren();
  // the phase and the die
  const phase = v.phase === "build" || v.drawn ? t("kr.phase.build", { count: v.face_down }) : v.over ? t("kr.phase.over") : t("kr.phase.chase", { turn: v.turn });
  c.append(el("h2", { text: phase }));
  if (v.roll) c.append(el("p", { class: "dice" }, el("span", { class: "die", "aria-hidden": "true", text: "⚀⚁⚂⚃⚄⚅"[Math.min(v.roll, 6) - 1] ?? "" }), " ", t("kr.roll", { roll: v.roll, pips: v.pips, used: v.used })));
  // the coach: its button, and what it says once asked
  const coach = ctx.coachBar?.();
  if (coach) c.append(el("div", { class: "coach-row" }, coach.button), coach.box);
  // building
  const places = byKind("place");
  if (places.length) {
    const rots = [...new Set(places.map((l) => l.info.rot))].sort((a, b) => a - b);
    const cur = places.find((l) => l.info.rot === ui.rot) ?? places[0];
    const fits = places.filter((l) => l.info.rot === cur.info.rot).length;
    c.append(
      el("div", { class: "drawn" }, tilePreview(cur.info.openings, cur.info.tile, cur.info.rot),
        el("p", { text: t("kr.drawn_tile", { tile: cur.info.tile, rot: cur.info.rot }) }),
        el("p", { class: "note", id: "fits", text: t("kr.fits", { count: fits }) })),
      el("button", { type: "button", id: "rotate", disabled: rots.length < 2 ? true : null, onclick: () => {
        ui.rot = rots[(rots.indexOf(cur.info.rot) + 1) % rots.length];
        ctx.refresh();
        document.getElementById("rotate")?.focus();
      }, text: t("kr.rotate") }),
      el("p", { class: "note", text: t("kr.place_hint") }),
      el("ul", { class: "choice-list", tabindex: "0", "aria-label": t("kr.where_to_place") }, places.filter((l) => l.info.rot === cur.info.rot).map((l) =>
        el("li", {}, el("button", { type: "button", "data-action": l.action, onclick: () => ctx.act(l.action), text: t("kr.place_here", { tile: l.info.tile, x: l.info.x, y: l.info.y, rot: l.info.rot }) })))),
    );
  } else if (v.drawn === 0 && v.phase === "build" && !myTurn) c.append(el("p", { class: "note", text: t("kr.build_wait") }));
  for (const l of [...byKind("start"), ...byKind("enter")]) {
    const text = l.info.kind === "start" ? t("kr.start_here", { x: l.info.x, y: l.info.y }) : t("kr.enter_at", { dir: dirName(l.info.side) });
    c.append(el("button", { type: "button", "data-action": l.action, onclick: () => ctx.act(l.action), text }));
  }
  // moving
  const moves = byKind("move");
  if (ui.dest) {
    const here = moves.filter((l) => squareKey(...l.info.to) === ui.dest);
    c.append(el("div", { class: "dest-choices", role: "group", "aria-label": t("kr.choose_way") }, el("h3", { text: t("kr.choose_way") }),
      here.map((l) => el("button", { type: "button", "data-action": l.action, onclick: () => ctx.act(l.action), onfocus: () => { ui.focus = l.info; }, text: moveLabel(ctx, l.info) })),
      el("button", { type: "button", onclick: () => { ui.dest = null; ctx.refresh(); }, text: t("kr.back") })));
  }
  if (moves.length) {
    c.append(el("details", { class: "all-moves" }, el("summary", { text: t("kr.all_moves", { count: moves.length }) }),
      el("ul", { class: "choice-list", tabindex: "0", "aria-label": t("kr.all_moves", { count: moves.length }) }, moves.map((l) => el("li", {}, el("button", { type: "button", "data-action": l.action, onclick: () => ctx.act(l.action), text: moveLabel(ctx, l.info) }))))));
    c.append(el("p", { class: "note", text: t("kr.move_hint") }));
  }
  // cards
  if (ctx.seat !== null && v.hand_kitt) {
    const kitt = byKind("kitt");
    c.append(el("h3", { text: t("kr.kitt_cards") }), el("ul", { class: "kr-hand" }, KITT.map((k, i) => {
      const n = v.hand_kitt[i] ?? 0;
      if (!n) return null;
      const play = kitt.find((l) => l.info.card === k);
      const label = `${cardName(k)}${n > 1 ? ` × ${n}` : ""}`;
      return el("li", {}, play
        ? el("button", { type: "button", class: "kr-card playable", "data-action": play.action, onclick: () => ctx.act(play.action), text: t("kr.play_card", { card: label }) })
        : el("span", { class: "kr-card", text: label }));
    })));
    const detours = byKind("detour");
    c.append(el("h3", { text: t("kr.detour_cards") }), el("ul", { class: "kr-hand" }, DETOURS.map((k, i) => {
      const n = v.hand_detour[i] ?? 0;
      if (!n) return null;
      const can = detours.some((l) => l.info.card === k);
      const label = `${cardName(k)}${n > 1 ? ` × ${n}` : ""}`;
      return el("li", {}, can
        ? el("button", { type: "button", class: `kr-card playable${ui.detour === k ? " selected" : ""}`, "data-card": k, "aria-pressed": ui.detour === k ? "true" : "false", onclick: () => { ui.detour = ui.detour === k ? null : k; ui.detourSq = null; ctx.refresh(); }, text: label })
        : el("span", { class: "kr-card", text: label }));
    })));
    if (ui.detour) {
      c.append(el("p", { class: "note", text: t("kr.detour_hint", { card: cardName(ui.detour) }) }));
      if (ui.detourSq) {
        const rots = detours.filter((l) => l.info.card === ui.detour && squareKey(l.info.x, l.info.y) === ui.detourSq);
        c.append(el("div", { class: "rotations", role: "group", "aria-label": t("kr.detour_turn") }, rots.map((l) =>
          el("button", { type: "button", "data-action": l.action, onclick: () => ctx.act(l.action), text: t("kr.detour_rot", { rot: l.info.rot, sides: [0, 1, 2, 3].filter((d) => (l.info.sides >> d) & 1).map(dirName).join(" – ") }) }))));
      }
    }
  }
  for (const l of byKind("recover")) c.append(el("button", { type: "button", class: "primary", "data-action": l.action, onclick: () => ctx.act(l.action), text: t("kr.recover") }));
  for (const l of byKind("end")) c.append(el("button", { type: "button", class: "primary end", "data-action": l.action, onclick: () => ctx.act(l.action), text: t("kr.end_turn") }));
  // the turned escape cards and the last events
  if (v.escape_turned.length) c.append(el("p", { class: "note", text: t("kr.escape_turned", { count: v.escape_turned.length, left: v.escape_left }) }));
  if (v.events.length) c.append(el("h3", { text: t("kr.what_happened") }), el("ul", { class: "events" }, v.events.map((e) => el("li", { text: eventText(ctx, e) }))));
  // the two tables a roll is read on, for whoever does not know them by heart
  const table = (kind) =>
    el("table", { class: "sheet" }, el("caption", { text: t(`kr.table_${kind}`) }),
      el("tbody", {}, [1, 2, 3, 4, 5, 6].map((r) => el("tr", {}, el("th", { scope: "row", text: String(r) }), el("td", { text: tIn("kr", `${kind}.${r}`) ?? "" })))));
  c.append(el("details", { class: "roll-tables" }, el("summary", { text: t("kr.roll_tables") }), table("ram"), table("oil")));
}

// The map's size: the cell size chosen (touch) or the width of the screen (mouse).
function sizeBoard(scroller) {
  const root = scroller.querySelector("svg.kr-board");
  if (!root) return;
  const cells = Number(root.dataset.cells);
  if (ui.zoom === null) ui.zoom = matchMedia("(pointer: coarse)").matches ? TOUCH_CELL : 0;
  if (ui.zoom) {
    root.style.width = `${cells * ui.zoom}px`;
    root.style.maxHeight = "none";
  } else {
    root.style.width = "";
    root.style.maxHeight = "";
  }
}

function centreOn(scroller, target) {
  if (!target) return;
  const a = target.getBoundingClientRect();
  const box = scroller.getBoundingClientRect();
  scroller.scrollLeft += a.left + a.width / 2 - (box.left + box.width / 2);
  scroller.scrollTop += a.top + a.height / 2 - (box.top + box.height / 2);
}

function zoomBy(scroller, factor, around = null) {
  const root = scroller.querySelector("svg.kr-board");
  if (!root) return;
  const cur = ui.zoom || root.getBoundingClientRect().width / Number(root.dataset.cells);
  const next = Math.max(MIN_CELL, Math.min(MAX_CELL, cur * factor));
  const box = scroller.getBoundingClientRect();
  const [fx, fy] = around ?? [box.left + box.width / 2, box.top + box.height / 2];
  // keep the point under the fingers where it is
  const px = scroller.scrollLeft + fx - box.left;
  const py = scroller.scrollTop + fy - box.top;
  ui.zoom = next;
  sizeBoard(scroller);
  const k = next / cur;
  scroller.scrollLeft = px * k - (fx - box.left);
  scroller.scrollTop = py * k - (fy - box.top);
}

// Two fingers pinch the map; one finger pans it (the browser's own scrolling).
function pinchable(scroller) {
  const touches = new Map();
  let start = null;
  const spread = () => {
    const [a, b] = [...touches.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y), at: [(a.x + b.x) / 2, (a.y + b.y) / 2] };
  };
  scroller.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType !== "touch") return;
    touches.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (touches.size === 2) start = spread();
  });
  scroller.addEventListener("pointermove", (ev) => {
    if (!touches.has(ev.pointerId)) return;
    touches.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (touches.size === 2 && start && start.d > 0) {
      const now = spread();
      zoomBy(scroller, now.d / start.d, now.at);
      start = now;
    }
  });
  const end = (ev) => {
    touches.delete(ev.pointerId);
    if (touches.size < 2) start = null;
  };
  scroller.addEventListener("pointerup", end);
  scroller.addEventListener("pointercancel", end);
}

function mapTools(scroller) {
  const tool = (cls, label, text, fn) => el("button", { type: "button", class: `map-tool ${cls}`, "aria-label": label, title: label, onclick: fn }, el("span", { "aria-hidden": "true", text }));
  return el(
    "div",
    { class: "map-tools" },
    tool("zoom-out", t("kr.zoom_out"), "−", () => zoomBy(scroller, 1 / 1.25)),
    tool("zoom-in", t("kr.zoom_in"), "+", () => zoomBy(scroller, 1.25)),
    tool("centre", t("kr.centre_me"), "◎", () => centreOn(scroller, scroller.querySelector(".car.mine") ?? scroller.querySelector("g.choice"))),
  );
}

export function render(ctx, parts) {
  const v = ctx.state.view;
  let scroller = document.querySelector("#board .kr-scroll");
  if (!scroller) {
    scroller = el("div", { class: "kr-scroll", tabindex: "0", "aria-label": t("kr.map") });
    pinchable(scroller);
    parts.board.replaceChildren(mapTools(scroller), scroller);
  }
  scroller.setAttribute("aria-label", t("kr.map"));
  for (const b of parts.board.querySelectorAll(".map-tool")) {
    const label = t(b.classList.contains("zoom-in") ? "kr.zoom_in" : b.classList.contains("zoom-out") ? "kr.zoom_out" : "kr.centre_me");
    b.setAttribute("aria-label", label);
    b.title = label;
  }
  const hint = ctx.hinted?.();
  if (hint && ui.hintShownFor !== ctx.hint.move_no) {
    // a hint just come: the map shows its choice (the tile turned as it says, its detour card's squares)
    ui.hintShownFor = ctx.hint.move_no;
    if (hint.info?.kind === "place") ui.rot = hint.info.rot;
    if (hint.info?.kind === "detour") ui.detour = hint.info.card;
  }
  const keep = [scroller.scrollLeft, scroller.scrollTop];
  scroller.replaceChildren(board(ctx));
  for (const car of scroller.querySelectorAll(`g.car-${ctx.seat}`)) car.classList.add("mine");
  sizeBoard(scroller);
  [scroller.scrollLeft, scroller.scrollTop] = keep;
  const mine = ctx.state.turn === ctx.seat && ctx.seat !== null;
  if (ui.centredFor !== ctx.state.move_no && (scroller.scrollWidth > scroller.clientWidth + 1 || scroller.scrollHeight > scroller.clientHeight + 1)) {
    // a new state on a map larger than the screen: on your turn your car (or, building, the
    // places the tile fits) comes to the middle; else what moved, else the car to move next
    // (a replay or a spectator opens on a player's car, not on the villain alone)
    ui.centredFor = ctx.state.move_no;
    const car = scroller.querySelector(`g.car-${ctx.seat}`);
    const next = ctx.state.turn === null || ctx.state.turn === undefined ? null : scroller.querySelector(`g.car-${ctx.state.turn}`);
    const focus = mine ? (car && !scroller.querySelector("g.choice.square") ? car : scroller.querySelector("g.choice") ?? car) : scroller.querySelector(".last-path") ?? next ?? scroller.querySelector("g.villain");
    centreOn(scroller, focus);
  }
  controls(ctx, parts.controls);
  markHint(ctx, parts, scroller);
  if (v.over) {
    parts.result.hidden = false;
    const text = v.winner === null ? t("kr.no_winner") : t("kr.winner", { name: ctx.name(v.winner) });
    parts.resultBody.replaceChildren(el("p", { class: "winner", text }),
      el("p", { class: "row" }, ctx.againButton("primary"), ctx.replayLink?.(), ctx.recordLink()));
  } else parts.result.hidden = true;
}

// The end of the game: the winner, play again and the record, until dismissed.
export function afterRender(ctx, prev) {
  const v = ctx.state.view;
  const key = `rallye.summary.${ctx.code}`;
  if (!v.over || ui.summaryShown || localStorage.getItem(key) === "over") return;
  ui.summaryShown = true;
  const text = v.winner === null ? t("kr.no_winner") : t("kr.winner", { name: ctx.name(v.winner) });
  const turns = t("kr.summary_turns", { count: v.turn });
  ctx.summary({
    title: t("table.over"),
    body: [el("p", { class: "winner", text }), el("p", { text: turns })],
    text: `${t("table.over")}. ${text} ${turns}`,
    actions: [ctx.againButton(), ctx.replayLink?.(), ctx.recordLink()].filter(Boolean),
    onClose: () => localStorage.setItem(key, "over"),
  });
  if (prev) ctx.sound("fanfare");
}
