// What makes a move felt: a card flying to where it lands, a moment's banner, short sounds.
// Motion is skipped under prefers-reduced-motion; sounds are off until the player switches
// them on (one switch, remembered), and are made here with WebAudio: no sound files.

const reduced = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

// A copy of `face` flies from the screen rectangle `from` to where `to` is now drawn.
export function fly(face, from, to) {
  if (!face || !from || !to || reduced() || !to.isConnected) return null;
  const end = to.getBoundingClientRect();
  if (!end.width || !from.width) return null;
  const ghost = face.cloneNode(true);
  ghost.classList.remove("last-move", "card-landed");
  ghost.classList.add("flying");
  ghost.setAttribute("aria-hidden", "true");
  ghost.removeAttribute("id");
  ghost.style.left = `${end.left}px`;
  ghost.style.top = `${end.top}px`;
  ghost.style.width = `${end.width}px`;
  ghost.style.height = `${end.height}px`;
  document.body.append(ghost);
  const dx = from.left + from.width / 2 - (end.left + end.width / 2);
  const dy = from.top + from.height / 2 - (end.top + end.height / 2);
  const s = Math.max(0.4, Math.min(2.5, from.width / end.width));
  to.classList.add("arriving");
  const anim = ghost.animate(
    [
      { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: 0.9 },
      { transform: "translate(0, 0) scale(1)", opacity: 1 },
    ],
    { duration: 380, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
  const done = () => {
    ghost.remove();
    to.classList.remove("arriving");
  };
  anim.onfinish = done;
  anim.oncancel = done;
  return anim;
}

// The banner of a moment everyone at the table sees (it also goes to the live region).
let momentTimer = null;
export function showMoment(box, text, kind = "info") {
  box.textContent = text;
  box.dataset.kind = kind;
  box.hidden = false;
  box.classList.remove("pop");
  void box.offsetWidth; // restart the entrance animation
  box.classList.add("pop");
  clearTimeout(momentTimer);
  momentTimer = setTimeout(() => {
    box.hidden = true;
  }, 4500);
}

// ---------------------------------------------------------------- sounds (off by default)
const KEY = "rallye.sound";
let audio = null;

export function soundOn() {
  return localStorage.getItem(KEY) === "on";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) context();
}

function context() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!audio) audio = new AC();
  if (audio.state === "suspended") audio.resume();
  return audio;
}

function tone(ac, freq, start, length, { type = "sine", gain = 0.18, slide = 0 } = {}) {
  const o = ac.createOscillator();
  const g = ac.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, start);
  if (slide) o.frequency.exponentialRampToValueAtTime(freq * slide, start + length);
  g.gain.setValueAtTime(0.0001, start);
  g.gain.exponentialRampToValueAtTime(gain, start + 0.015);
  g.gain.exponentialRampToValueAtTime(0.0001, start + length);
  o.connect(g).connect(ac.destination);
  o.start(start);
  o.stop(start + length + 0.02);
}

function noise(ac, start, length, { freq = 2000, gain = 0.25 } = {}) {
  const n = Math.floor(ac.sampleRate * length);
  const buf = ac.createBuffer(1, n, ac.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < n; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / n);
  const src = ac.createBufferSource();
  src.buffer = buf;
  const f = ac.createBiquadFilter();
  f.type = "bandpass";
  f.frequency.value = freq;
  const g = ac.createGain();
  g.gain.value = gain;
  src.connect(f).connect(g).connect(ac.destination);
  src.start(start);
}

const SOUNDS = {
  card: (ac, t0) => noise(ac, t0, 0.12, { freq: 2600, gain: 0.35 }),
  turn: (ac, t0) => {
    tone(ac, 660, t0, 0.16);
    tone(ac, 880, t0 + 0.12, 0.22);
  },
  attack: (ac, t0) => tone(ac, 220, t0, 0.3, { type: "square", gain: 0.08, slide: 0.6 }),
  fanfare: (ac, t0) => [523, 659, 784, 1047].forEach((f, i) => tone(ac, f, t0 + i * 0.11, 0.28, { type: "triangle", gain: 0.16 })),
  dice: (ac, t0) => {
    for (let i = 0; i < 5; i++) noise(ac, t0 + i * 0.06, 0.04, { freq: 1200 + i * 300, gain: 0.4 });
  },
  siren: (ac, t0) => {
    tone(ac, 700, t0, 0.25, { type: "sawtooth", gain: 0.05, slide: 1.4 });
    tone(ac, 980, t0 + 0.25, 0.25, { type: "sawtooth", gain: 0.05, slide: 0.7 });
  },
  end: (ac, t0) => [784, 659, 523].forEach((f, i) => tone(ac, f, t0 + i * 0.16, 0.35, { type: "triangle", gain: 0.15 })),
};

export function playSound(name) {
  if (!soundOn() || !SOUNDS[name]) return;
  const ac = context();
  if (!ac) return;
  SOUNDS[name](ac, ac.currentTime + 0.01);
}
