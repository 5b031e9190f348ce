// The project's own pictures: every Mille Bornes card and Knight Rider's cars, drawn as SVG.
// Nothing here is copied from a box. A hazard, the remedy that cures it and the safety that
// guards against it share one symbol (a traffic light, a speed sign, a fuel can, a tyre, a
// car), told apart by the colour family (hazards red, remedies green, safeties blue and gold,
// distances yellow) and by a corner mark (a warning triangle, a tick, a star, the number), so
// a child sees which card answers which. The card's name is written on it in the chosen
// language; a long name wraps only between words (or at a compound or syllable break this
// file lists) and otherwise gets smaller, measured, so it never leaves the card.
// No inline styles (the page's CSP is style-src 'self'): fixed colours are presentation
// attributes, colours that follow light and dark are classes in static/css/cards.css.
import { svg } from "./common.js";

export const KIND = {
  D25: "distance", D50: "distance", D75: "distance", D100: "distance", D200: "distance",
  STOP: "hazard", SPEED_LIMIT: "hazard", OUT_OF_GAS: "hazard", FLAT_TIRE: "hazard", ACCIDENT: "hazard",
  ROLL: "remedy", END_OF_LIMIT: "remedy", GASOLINE: "remedy", SPARE_TIRE: "remedy", REPAIRS: "remedy",
  RIGHT_OF_WAY: "safety", EXTRA_TANK: "safety", PUNCTURE_PROOF: "safety", DRIVING_ACE: "safety",
};

export const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
// A narrower face for a long name, where the device has one (Android, iOS, Windows, Linux);
// else the same as FONT. Tried only when FONT would be smaller than READABLE, and taken
// when it buys a size at least NARROW_COST larger: the cards keep one face where they can.
export const NARROW = `"Roboto Condensed", sans-serif-condensed, "Avenir Next Condensed", "Arial Narrow", "Liberation Sans Narrow", "DejaVu Sans Condensed", ${FONT}`;
const NARROW_COST = 1;
const READABLE = 9; // px on a card drawn at its own size (a phone's hand)
const WEIGHT = 700;

// Where a long word of an edition's card names may be broken, per language: "|" between the
// parts of a compound (preferred), "·" between syllables; the line then ends with "-". Only
// real boundaries, at least two letters each side. A word not listed is never broken inside.
export const HYPHENS = {
  de: [
    "Ge·schwin·dig·keits|be·gren·zung", "Re·ser·ve|ka·nis·ter", "Rei·fen|pan·ne", "Re·ser·ve|rei·fen",
    "Mo·tor|pan·ne", "Selbst|hil·fe", "Blau|licht", "Fahr|zeug", "Vor|fahrt", "Tank|stel·le",
    "Ral·lye|ser·vice", "Werk|statt", "Schmet·ter·ling", "Ben·zin|man·gel", "Ben·zin|pan·ne", "Er·satz|rad",
    "Re·pa·ra·tu·ren", "Tank|wa·gen", "Un|ka·putt·bar", "Lenk|rads", "Er·satz|rei·fen", "Blech|scha·den",
    "Pan·nen|si·che·re", "Fah·rer", "Trai·ning", "Schwal·be", "Schne·cke", "Un|fall",
  ],
  hu: [
    "Se·bes·ség|kor·lá·to·zás", "Zöld|hul·lám", "Pót|gu·mik", "El·sőbb·ség", "Ben·zin|kút", "au·tó|gu·mi",
    "Au·tós|is·ko·la", "Üt·kö·zés", "Szer·viz", "biz·tos", "De·fekt",
  ],
  fr: [
    "Ré·pa·ra·tions", "Vé·hi·cule", "prio·ri·taire", "Cre·vai·son", "In·cre·vable", "se·cours", "Ci·terne",
    "d'es·sence", "vi·tesse",
  ],
  en: ["Gas·oline", "Punc·ture", "Ac·ci·dent", "Re·pairs"],
};
const BREAK_COST = { "|": 0.5, "·": 2.5 }; // font-size units a break must buy to be taken

const breaksOf = {};
// The breaks for `lang`'s words first, then the other languages' (an edition without names in
// the chosen language shows its own: their words keep their breaks).
function breakTable(lang) {
  if (!breaksOf[lang]) {
    const m = new Map();
    for (const l of [lang, ...Object.keys(HYPHENS)]) {
      for (const w of HYPHENS[l] ?? []) {
        // the syllables, each with the cost of breaking after it
        const parts = w.split(/([|·])/);
        const word = parts.filter((_, i) => i % 2 === 0);
        if (!m.has(word.join(""))) m.set(word.join(""), word.map((text, i) => ({ text, cost: BREAK_COST[parts[2 * i + 1]] ?? 0 })));
      }
    }
    breaksOf[lang] = m;
  }
  return breaksOf[lang];
}

let measurer = null;
const widths = new Map();
// The width of `text` in `font` at size 100 (scaled linearly for other sizes).
function width100(text, font) {
  const key = `${font}|${text}`;
  let w = widths.get(key);
  if (w === undefined) {
    measurer ??= document.createElement("canvas").getContext("2d");
    measurer.font = `${WEIGHT} 100px ${font}`;
    w = measurer.measureText(text).width;
    widths.set(key, w);
  }
  return w;
}
const SAFETY = 1.04; // canvas and SVG may round glyphs differently: keep a margin

// The pieces a name may be split into: each knows how it joins the next one ("space": a
// space, "hyphen": the word's own hyphen, kept; "soft": a syllable break, shown as "-").
function pieces(name, lang) {
  const table = breakTable(lang);
  const out = [];
  const words = name.split(/\s+/).filter(Boolean);
  // a lone dash stays with the word before it, never starts a line
  const glued = [];
  for (const w of words) {
    if (/^[–—-]$/.test(w) && glued.length) glued[glued.length - 1] += ` ${w}`;
    else glued.push(w);
  }
  for (const word of glued) {
    const parts = word.split(/(?<=-)(?=.)/); // after each hyphen inside the word
    parts.forEach((part, i) => {
      const m = part.match(/^([^\p{L}]*)([\p{L}'’]+)([^\p{L}]*)$/u);
      const syl = m ? table.get(m[2]) : null;
      const bits = syl ? syl.map((s, j) => ({ ...s, text: (j === 0 ? m[1] : "") + s.text + (j === syl.length - 1 ? m[3] : "") })) : [{ text: part, cost: 0 }];
      bits.forEach((b, j) => out.push({ text: b.text, cost: b.cost, join: j < bits.length - 1 ? "soft" : i < parts.length - 1 ? "hyphen" : "space" }));
    });
  }
  return out;
}

// The lines of the pieces at one size in at most `maxLines` lines, breaking where it costs
// least (a space or a word's own hyphen costs nothing, a compound break a little, a
// syllable break more; each line a hair, so fewer lines win a tie); null when none fits.
function layout(ps, font, size, maxWidth, maxLines) {
  const n = ps.length;
  const fits = (s) => (width100(s, font) * size * SAFETY) / 100 <= maxWidth;
  const lineText = (i, j) => {
    let s = ps[i].text;
    for (let k = i + 1; k <= j; k++) s += (ps[k - 1].join === "space" ? " " : "") + ps[k].text;
    return j < n - 1 && ps[j].join === "soft" ? `${s}-` : s;
  };
  const memo = new Map();
  const best = (i, left) => {
    if (i === n) return { cost: 0, lines: [] };
    if (left === 0) return null;
    const key = i * 64 + left;
    if (memo.has(key)) return memo.get(key);
    let found = null;
    for (let j = i; j < n; j++) {
      const text = lineText(i, j);
      if (!fits(text)) continue;
      const rest = best(j + 1, left - 1);
      if (!rest) continue;
      const end = j === n - 1 ? "end" : ps[j].join;
      const cost = (end === "soft" ? ps[j].cost : 0) + 0.01 + rest.cost;
      if (!found || cost < found.cost - 1e-9) found = { cost, lines: [{ text, end }, ...rest.lines] };
    }
    memo.set(key, found);
    return found;
  };
  return best(0, Math.min(maxLines, n));
}

export const LINE_HEIGHT = 1.12;

// Lines, a font and a size for `name` in a box: the size minus what its breaks cost (and
// the narrow face's) is the largest, so a break inside a word, at a point this file lists,
// is taken only when it buys more size than it costs; when nothing fits at `min`, the
// narrow face at the size that makes the widest piece fit.
export function fitName(name, lang, { width, height, max, min }) {
  const ps = pieces(name, lang);
  let best = null;
  for (const [font, extra] of [[FONT, 0], [NARROW, NARROW_COST]]) {
    if (font === NARROW && best && best.size >= READABLE) break;
    for (let size = max; size >= min - 1e-9; size -= 0.25) {
      if (best && best.score >= size - extra) break; // nothing smaller can do better
      const found = layout(ps, font, size, width, Math.floor(height / (size * LINE_HEIGHT) + 1e-9));
      if (!found) continue;
      const score = size - extra - found.cost + 0.01 * found.lines.length;
      if (!best || score > best.score) best = { font, size, lines: found.lines, score };
    }
  }
  if (best) return best;
  const widest = Math.max(...ps.map((p) => (width100(p.join === "soft" ? `${p.text}-` : p.text, NARROW) * SAFETY) / 100));
  const size = 0.999 * Math.min(width / widest, height / (ps.length * LINE_HEIGHT));
  const found = layout(ps, NARROW, size, width, ps.length);
  return { font: NARROW, size, lines: found.lines, score: 0 };
}

// ------------------------------------------------------------------------- the symbols
// Each draws into a 40 × 40 box (origin top left); fixed colours, dark outlines, so they read
// on the light and the dark card alike.
const INK = "#1d1d1f";
const RED = "#d32f2f";
const GREEN = "#2e9d46";
const GOLD = "#f2b705";
const GREY = "#8d939b";

function trafficLight(lit, x = 13, y = 2, s = 1) {
  const g = svg("g", { transform: `translate(${x},${y}) scale(${s})` });
  g.append(svg("rect", { class: "rc-edge", x: 0, y: 0, width: 14, height: 34, rx: 4, fill: "#2b2f36", stroke: INK, "stroke-width": 1 }));
  g.append(svg("rect", { x: 5.5, y: 34, width: 3, height: 4, fill: "#2b2f36" }));
  const colours = [["red", "#ff3b30", "#5a2222"], ["amber", "#ffb000", "#564319"], ["green", "#34c759", "#1f4a2a"]];
  colours.forEach(([name, on, off], i) => {
    g.append(svg("circle", { cx: 7, cy: 6.5 + i * 10.5, r: 4.2, fill: lit.includes(name) ? on : off, stroke: INK, "stroke-width": 0.6 }));
  });
  // a glow round the lit lamp
  colours.forEach(([name, on], i) => {
    if (lit.includes(name)) g.append(svg("circle", { cx: 7, cy: 6.5 + i * 10.5, r: 5.6, fill: "none", stroke: on, "stroke-width": 1, opacity: 0.7 }));
  });
  return g;
}

function speedSign(ended, cx = 20, cy = 20, r = 17) {
  const g = svg("g", {});
  g.append(svg("circle", { cx, cy, r, fill: "#fff", stroke: ended ? GREY : RED, "stroke-width": r * 0.22 }));
  g.append(svg("circle", { cx, cy, r: r * 1.04, fill: "none", stroke: INK, "stroke-width": 0.6 }));
  g.append(svg("text", { x: cx, y: cy + r * 0.36, "text-anchor": "middle", "font-family": FONT, "font-weight": 800, "font-size": r * 1.0, fill: ended ? GREY : INK }, "50"));
  if (ended) {
    // the end of a limit: the number struck through by diagonal bars
    for (const d of [-0.28, 0, 0.28]) {
      const o = d * r;
      g.append(svg("line", { x1: cx - r * 0.62 + o, y1: cy + r * 0.62 + o, x2: cx + r * 0.62 + o, y2: cy - r * 0.62 + o, stroke: INK, "stroke-width": r * 0.09, "stroke-linecap": "round" }));
    }
  }
  return g;
}

function fuelCan(full) {
  const g = svg("g", {});
  // a jerrycan: body, handle, spout; full = filled with fuel to the top, empty = hollow
  g.append(svg("path", { d: "M9 10 L25 10 L31 16 L31 37 Q31 38 30 38 L10 38 Q9 38 9 37 Z", fill: full ? GREEN : "#fff", stroke: INK, "stroke-width": 1.4, "stroke-linejoin": "round" }));
  g.append(svg("path", { d: "M12 10 L12 5 L21 5 L21 10", fill: "none", stroke: INK, "stroke-width": 2.2 }));
  g.append(svg("path", { d: "M27 12 L32 4 L35 5.5 L30 14", fill: "#ccc", stroke: INK, "stroke-width": 1.2, "stroke-linejoin": "round" }));
  g.append(svg("path", { d: "M13 18 L27 32 M27 18 L13 32", stroke: full ? "#ffffff" : "#c8ccd2", "stroke-width": 1.6, opacity: 0.8 }));
  if (!full) {
    // the gauge at empty
    g.append(svg("path", { d: "M12 34 A8 8 0 0 1 28 34", fill: "#fff", stroke: INK, "stroke-width": 1 }));
    g.append(svg("line", { x1: 20, y1: 34, x2: 14, y2: 30, stroke: RED, "stroke-width": 1.8, "stroke-linecap": "round" }));
  } else {
    g.append(svg("path", { d: "M20 17 Q25 24 25 27 A5 5 0 0 1 15 27 Q15 24 20 17 Z", fill: "#fff", stroke: INK, "stroke-width": 0.8 }));
  }
  return g;
}

function tyre(flat) {
  const g = svg("g", {});
  if (flat) {
    g.append(svg("path", { class: "rc-edge", d: "M5 24 A15 15 0 0 1 35 24 Q36 33 30 35 L10 35 Q4 33 5 24 Z", fill: "#2b2f36", stroke: INK, "stroke-width": 1 }));
    g.append(svg("ellipse", { cx: 20, cy: 24, rx: 7, ry: 6, fill: "#c9ced6", stroke: INK, "stroke-width": 0.8 }));
    // the nail, and the air going out
    g.append(svg("path", { d: "M29 30 L35 22", stroke: "#9aa0a6", "stroke-width": 1.8, "stroke-linecap": "round" }));
    g.append(svg("path", { d: "M33.5 21 L37 23.5", stroke: INK, "stroke-width": 1.6, "stroke-linecap": "round" }));
    g.append(svg("path", { d: "M2 12 Q5 10 4 7 M7 8 Q10 6 9 3", fill: "none", stroke: RED, "stroke-width": 1.4, "stroke-linecap": "round" }));
    g.append(svg("line", { x1: 2, y1: 36.5, x2: 38, y2: 36.5, stroke: INK, "stroke-width": 1.2 }));
  } else {
    g.append(svg("circle", { class: "rc-edge", cx: 20, cy: 20, r: 17, fill: "#2b2f36", stroke: INK, "stroke-width": 1 }));
    for (let i = 0; i < 12; i++) {
      const a = (i * Math.PI) / 6;
      g.append(svg("line", { x1: 20 + Math.cos(a) * 13.5, y1: 20 + Math.sin(a) * 13.5, x2: 20 + Math.cos(a) * 16.5, y2: 20 + Math.sin(a) * 16.5, stroke: "#5c636d", "stroke-width": 1.6 }));
    }
    g.append(svg("circle", { cx: 20, cy: 20, r: 8, fill: "#c9ced6", stroke: INK, "stroke-width": 0.8 }));
    g.append(svg("circle", { cx: 20, cy: 20, r: 2.4, fill: "#6b7280" }));
  }
  return g;
}

function carSide(crashed, colour = "#1e88e5") {
  const g = svg("g", crashed ? { transform: "rotate(-12 20 26)" } : {});
  g.append(svg("path", { d: "M3 27 L3 21 Q3 19 5 19 L10 19 L14 12 Q15 11 17 11 L27 11 Q29 11 30 13 L33 19 L36 20 Q38 21 38 23 L38 27 Z", fill: colour, stroke: INK, "stroke-width": 1.2, "stroke-linejoin": "round" }));
  g.append(svg("path", { d: "M15.5 18 L18 13.5 L22 13.5 L22 18 Z M24 18 L24 13.5 L27 13.5 L29.5 18 Z", fill: "#cfe9ff", stroke: INK, "stroke-width": 0.7 }));
  for (const cx of [11, 30]) {
    g.append(svg("circle", { cx, cy: 27, r: 4.6, fill: "#2b2f36", stroke: INK, "stroke-width": 0.8 }));
    g.append(svg("circle", { cx, cy: 27, r: 1.8, fill: "#c9ced6" }));
  }
  g.append(svg("circle", { cx: 36.2, cy: 22.6, r: 1.1, fill: GOLD, stroke: INK, "stroke-width": 0.4 }));
  return g;
}

function crash() {
  return svg("path", { d: "M31 2 L33 9 L39 6 L36 12 L40 15 L34 16 L35 22 L30 18 L26 23 L26 16 L20 15 L25 11 L22 5 L28 8 Z", fill: GOLD, stroke: RED, "stroke-width": 1.2, "stroke-linejoin": "round" });
}

function wrench() {
  const g = svg("g", { transform: "rotate(40 30 10)" });
  g.append(svg("path", { d: "M28 4 A5.5 5.5 0 1 0 32 4 L32 9 L28 9 Z", fill: "#c9ced6", stroke: INK, "stroke-width": 1 }));
  g.append(svg("rect", { x: 28.3, y: 14, width: 3.4, height: 14, rx: 1.4, fill: "#c9ced6", stroke: INK, "stroke-width": 1 }));
  return g;
}

function shield() {
  return svg("path", { class: "rc-shield", d: "M20 1 L37 6 Q37 27 20 39 Q3 27 3 6 Z", "stroke-width": 1.6, "stroke-linejoin": "round" });
}

function starPath(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? r * 0.45 : r;
    pts.push(`${(cx + Math.cos(a) * rr).toFixed(2)},${(cy + Math.sin(a) * rr).toFixed(2)}`);
  }
  return `M${pts.join(" L")} Z`;
}

function scaled(node, s, cx = 20, cy = 20) {
  return svg("g", { transform: `translate(${cx * (1 - s)},${cy * (1 - s)}) scale(${s})` }, node);
}

// The symbol of each card in the 40 × 40 box: partners share theirs.
const SYMBOLS = {
  STOP: () => [trafficLight(["red"])],
  ROLL: () => [trafficLight(["green"])],
  SPEED_LIMIT: () => [speedSign(false)],
  END_OF_LIMIT: () => [speedSign(true)],
  OUT_OF_GAS: () => [fuelCan(false)],
  GASOLINE: () => [fuelCan(true)],
  FLAT_TIRE: () => [tyre(true)],
  SPARE_TIRE: () => [tyre(false)],
  ACCIDENT: () => [carSide(true), crash()],
  REPAIRS: () => [carSide(false), wrench()],
  RIGHT_OF_WAY: () => [shield(), trafficLight(["green"], 7, 8.5, 0.62), speedSign(true, 27, 19, 7.5)],
  EXTRA_TANK: () => [shield(), scaled(fuelCan(true), 0.66, 20, 21)],
  PUNCTURE_PROOF: () => [shield(), scaled(tyre(false), 0.62, 20, 19)],
  DRIVING_ACE: () => [shield(), scaled(carSide(false), 0.72, 20, 23), svg("path", { d: starPath(20, 9, 5), fill: GOLD, stroke: INK, "stroke-width": 0.7 })],
};

function symbol(card) {
  return svg("g", { class: "rc-symbol" }, SYMBOLS[card]?.() ?? []);
}

const DISTANCE = { D25: 25, D50: 50, D75: 75, D100: 100, D200: 200 };

// A distance card's picture: the number, large, over a road; its chevrons count its speed.
function distanceSymbol(card) {
  const n = DISTANCE[card];
  const g = svg("g", { class: "rc-symbol" });
  g.append(svg("path", { class: "rc-road", d: "M2 40 L15 21 L25 21 L38 40 Z" }));
  const chevrons = [25, 50, 75, 100, 200].indexOf(n) + 1;
  for (let i = 0; i < chevrons; i++) {
    const y = 36.5 - i * 3.3;
    g.append(svg("path", { d: `M17 ${y + 1.8} L20 ${y} L23 ${y + 1.8}`, fill: "none", stroke: "#fff", "stroke-width": 1.3, "stroke-linecap": "round", "stroke-linejoin": "round" }));
  }
  g.append(svg("text", { class: "rc-number", x: 20, y: 19.5, "text-anchor": "middle", "font-family": FONT, "font-weight": 800, "font-size": n >= 100 ? 17 : 20 }, String(n)));
  return g;
}

// The corner mark of a kind, drawn in a 9 × 9 box: the kind by shape as well as colour.
function cornerMark(kind, card, right = false) {
  if (kind === "hazard") {
    return svg("g", {}, svg("path", { class: "rc-mark", d: "M4.5 0.3 L9.2 8.6 L-0.2 8.6 Z", "stroke-width": 0.6, "stroke-linejoin": "round" }),
      svg("path", { class: "rc-mark-ink", d: "M4.5 3.2 L4.5 5.6 M4.5 7.1 L4.5 7.2", "stroke-width": 1.3, "stroke-linecap": "round" }));
  }
  if (kind === "remedy") return svg("path", { class: "rc-mark", d: "M1 4.8 L3.6 7.4 L8.4 1.6", fill: "none", "stroke-width": 1.8, "stroke-linecap": "round", "stroke-linejoin": "round" });
  if (kind === "safety") return svg("path", { class: "rc-mark", d: starPath(4.5, 4.8, 4.6) });
  if (kind === "distance") return svg("text", { class: "rc-mark", x: right ? 9 : 0, y: 7.6, "text-anchor": right ? "end" : "start", "font-family": FONT, "font-weight": 800, "font-size": 8 }, String(DISTANCE[card] ?? ""));
  return svg("g", {});
}

// ------------------------------------------------------------------------- the cards

const W = 64; // the card's box: 64 × 90, its size in CSS px in a phone's hand
const H = 90;
const SW = 44; // a small card's box (a side's piles)
const SH = 54;

// The card's paper and frame, the kind's band across the top and its corner mark(s).
function frame(root, kind, card, w, h, { r, band, edge, mark, both }) {
  root.setAttribute("viewBox", `0 0 ${w} ${h}`);
  root.setAttribute("width", w);
  root.setAttribute("height", h);
  const e = edge / 2;
  root.append(svg("rect", { class: "rc-bg", x: e, y: e, width: w - edge, height: h - edge, rx: r, "stroke-width": edge }));
  root.append(svg("path", { class: "rc-band", d: `M${e} ${band + e} V${r + e} A${r} ${r} 0 0 1 ${r + e} ${e} H${w - r - e} A${r} ${r} 0 0 1 ${w - e} ${r + e} V${band + e} Z` }));
  const y = (band + e - 9 * mark) / 2 + e / 2;
  root.append(svg("g", { transform: `translate(${3.5 * mark + e},${y}) scale(${mark})` }, cornerMark(kind, card)));
  if (both) root.append(svg("g", { transform: `translate(${w - 9 * mark - 3.5 * mark - e},${y}) scale(${mark})` }, cornerMark(kind, card, true)));
}

function nameLines({ lines, size, font }, x, top, anchor) {
  const g = svg("g", { class: "rc-name", "font-family": font, "font-weight": WEIGHT, "font-size": size.toFixed(2), "text-anchor": anchor });
  lines.forEach((l, i) => {
    const y = top + size * (0.9 + i * LINE_HEIGHT);
    g.append(svg("text", { x, y: y.toFixed(2), "data-break": l.end }, l.text));
  });
  return g;
}

/**
 * A card as an SVG picture.
 * card: the card's code (STOP, D100, ...); name: its name in the chosen language; lang: that
 * language (for the syllable breaks); kindLabel: the page's word for its kind; small: a
 * one-row chip (a tableau's piles) instead of the upright card.
 */
export function cardSVG(card, { name: given, lang, kindLabel, small = false }) {
  const kind = KIND[card] ?? "other";
  const name = given || card;
  const label = kindLabel ? `${name} (${kindLabel})` : name;
  const root = svg("svg", {
    class: `card ${kind} rc${small ? " small" : ""}`,
    "data-card": card,
    "data-name": name,
    role: "img",
    "aria-label": label,
  });
  root.append(svg("title", {}, label));
  const body = kind === "distance" ? distanceSymbol(card) : symbol(card);
  if (small) {
    // a side's piles (about 32 to 51 px wide): the frame, the kind's band and mark, the symbol
    // as large as it goes; the name is in the label and the tooltip, too small to read here
    frame(root, kind, card, SW, SH, { r: 4.5, band: 9, edge: 1.5, mark: 0.85, both: false });
    root.append(svg("g", { transform: "translate(2,11.5)" }, body));
    return root;
  }
  frame(root, kind, card, W, H, { r: 6, band: 12, edge: 2, mark: 1, both: true });
  const fit = fitName(name, lang, { width: 56, height: 40, max: 11.5, min: 7.5 });
  const textH = fit.lines.length * fit.size * LINE_HEIGHT;
  const panelH = Math.max(16, textH + 5);
  const panelY = H - 2.5 - panelH;
  root.append(svg("rect", { class: "rc-panel", x: 3, y: panelY, width: W - 6, height: panelH, rx: 3.5 }));
  // the symbol fills what the name leaves, up to 1.3 times its box
  const top = 15;
  const room = panelY - 1.5 - top;
  const s = Math.min(1.3, room / 40, (W - 8) / 40);
  root.append(svg("g", { transform: `translate(${(W - 40 * s) / 2},${top + (room - 40 * s) / 2}) scale(${s.toFixed(3)})` }, body));
  root.append(nameLines(fit, W / 2, panelY + (panelH - textH) / 2, "middle"));
  return root;
}

// ------------------------------------------------------------------------- Knight Rider's cars

// Players' colours: from Okabe and Ito's palette for colour-blind eyes, no red (the villain's),
// each with the ink its number is written in. Every car also carries its number.
export const CAR_COLOURS = ["#0072b2", "#e69f00", "#009e73", "#f0e442", "#cc79a7"];
export const VILLAIN_COLOUR = "#d0021b";

// A car's outline seen from above, front up: a tapered, rounded nose for a player's car (so the
// heading reads at a glance), the same square-ish end at both sides for the villain's.
function carBody(L, Wd, front) {
  const rear = `M${-Wd} ${L - 1.6} Q${-Wd} ${L} ${-Wd + 1.6} ${L} L${Wd - 1.6} ${L} Q${Wd} ${L} ${Wd} ${L - 1.6}`;
  return front
    ? `${rear} L${Wd} ${-L + 5} Q${Wd} ${-L + 2} ${Wd - 1.8} ${-L + 0.6} Q0 ${-L - 0.7} ${-Wd + 1.8} ${-L + 0.6} Q${-Wd} ${-L + 2} ${-Wd} ${-L + 5} Z`
    : `${rear} L${Wd} ${-L + 1.6} Q${Wd} ${-L} ${Wd - 1.6} ${-L} L${-Wd + 1.6} ${-L} Q${-Wd} ${-L} ${-Wd} ${-L + 1.6} Z`;
}

/**
 * A player's car seen from above, for the board's cell size `cell`: its colour, its number
 * (upright whatever the heading), headlights and windscreen at the front. heading: 0 north,
 * 1 east, 2 south, 3 west. The group is placed at (x, y) and carries role="img" and `label`.
 */
export function carSVG({ player, heading = 0, roof = false, label, x = 0, y = 0, cell = 16 }) {
  const k = cell / 16;
  const L = 7.6;
  const Wd = 5.6;
  const colour = CAR_COLOURS[player % CAR_COLOURS.length];
  const g = svg("g", {
    class: `car kr-car car-${player}${roof ? " roof" : ""}`,
    "data-colour": colour,
    transform: `translate(${x},${y}) rotate(${heading * 90}) scale(${k})`,
    role: "img",
    "aria-label": label,
  });
  g.append(svg("title", {}, label));
  if (roof) {
    // on its roof: the wheels show
    for (const [wx, wy] of [[-1, -1], [1, -1], [-1, 1], [1, 1]]) g.append(svg("ellipse", { cx: wx * (Wd - 0.4), cy: wy * (L - 2.6), rx: 1.6, ry: 2.4, fill: INK }));
  }
  const d = carBody(L, Wd, true);
  g.append(svg("path", { class: "kr-halo", d, fill: "none", stroke: "#fff", "stroke-width": 2.6, "stroke-linejoin": "round" }));
  g.append(svg("path", { class: "kr-body", d, fill: colour, stroke: INK, "stroke-width": 0.9, "stroke-linejoin": "round", "stroke-dasharray": roof ? "2 1.2" : null }));
  if (!roof) {
    // the windscreen and the headlights at the front, a bumper at the back
    g.append(svg("path", { d: `M${-Wd + 1.3} ${-L + 6.2} L${Wd - 1.3} ${-L + 6.2} L${Wd - 2.1} ${-L + 3.6} Q0 ${-L + 2.8} ${-Wd + 2.1} ${-L + 3.6} Z`, fill: "#26313d", stroke: "#bfe3ff", "stroke-width": 0.5 }));
    for (const sx of [-1, 1]) g.append(svg("ellipse", { cx: sx * (Wd - 2.1), cy: -L + 1.5, rx: 1.3, ry: 0.8, fill: "#fff59d", stroke: INK, "stroke-width": 0.35 }));
    g.append(svg("line", { x1: -Wd + 1.4, y1: L - 0.9, x2: Wd - 1.4, y2: L - 0.9, stroke: INK, "stroke-width": 0.9, "stroke-linecap": "round" }));
  }
  // the number on the roof, upright
  const num = svg("g", { transform: `translate(0,2.3) rotate(${-heading * 90})` });
  num.append(svg("circle", { r: 4.3, fill: "#fff", stroke: INK, "stroke-width": 0.5 }));
  num.append(svg("text", { class: "kr-no", y: 2.6, "text-anchor": "middle", "font-family": FONT, "font-weight": 800, "font-size": 7.4, fill: INK }, String(player + 1)));
  g.append(num);
  return g;
}

/** The villain's red car: same shape but without a front (nobody knows where it heads), a mask. */
export function villainSVG({ label, x = 0, y = 0, cell = 16 }) {
  const k = cell / 16;
  const L = 7.8;
  const Wd = 5.8;
  const g = svg("g", { class: "villain kr-villain", "data-colour": VILLAIN_COLOUR, transform: `translate(${x},${y}) scale(${k})`, role: "img", "aria-label": label });
  g.append(svg("title", {}, label));
  const d = carBody(L, Wd, false);
  g.append(svg("path", { d, fill: "none", stroke: "#fff", "stroke-width": 2.6, "stroke-linejoin": "round" }));
  g.append(svg("path", { class: "kr-body", d, fill: VILLAIN_COLOUR, stroke: INK, "stroke-width": 1 }));
  for (const sy of [-1, 1]) g.append(svg("path", { d: `M${-Wd + 1.2} ${sy * (L - 4.6)} L${Wd - 1.2} ${sy * (L - 4.6)} L${Wd - 1.8} ${sy * (L - 1.8)} L${-Wd + 1.8} ${sy * (L - 1.8)} Z`, fill: "#3a0a10", stroke: INK, "stroke-width": 0.4 }));
  // a bandit's mask across the roof
  g.append(svg("path", { d: `M${-Wd + 0.4} -1.6 Q0 -3 ${Wd - 0.4} -1.6 L${Wd - 0.4} 1.6 Q0 0.2 ${-Wd + 0.4} 1.6 Z`, fill: INK }));
  for (const sx of [-1, 1]) g.append(svg("ellipse", { cx: sx * 2.2, cy: -0.4, rx: 1.3, ry: 0.8, fill: "#fff" }));
  return g;
}
