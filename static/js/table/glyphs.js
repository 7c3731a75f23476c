// Original vector artwork for the table (drawn for Duel, online; no third-party art):
// resources, science symbols, shields, coins, points, chain links, card backs, colour
// emblems, wonder tiles, progress tokens and the military track pieces.
//
// Every shape carries its colours as presentation attributes, so it looks right with no
// stylesheet; each drawing's svg carries its gl-* classes (kind and variant), by which
// static/css/glyphs.css sizes it and a theme may restyle it (CSS beats presentation
// attributes). Sizes come from CSS only (no width/height attributes).
import { html } from "htm/preact";
import { pure } from "./pure.js";

export const RESOURCE_KINDS = ["wood", "clay", "stone", "glass", "papyrus"];
export const SCIENCE_SYMBOLS = ["globe", "wheel", "sundial", "mortar", "plumb_line", "quill", "law"];

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

function glyph(classes, viewBox, body, key, extra = {}) {
  return html`<svg key=${key} class=${`gl ${classes}`} viewBox=${viewBox} aria-hidden="true"
    focusable="false" ...${extra}>${body}</svg>`;
}

// Two decimals are plenty for generated coordinates and keep the markup short.
const round2 = (n) => Math.round(n * 100) / 100;

// A count prop as a whole number in 0..20 (anything unreadable counts as one).
function wholeCount(count) {
  const n = Math.floor(Number(count));
  if (!Number.isFinite(n)) return 1;
  return Math.min(20, Math.max(0, n));
}

// One svg for a count of one, else an array of them (each one 1em wide, side by side).
function repeated(count, draw) {
  const n = wholeCount(count);
  if (n === 1) return draw(undefined);
  return Array.from({ length: n }, (_, i) => draw(i));
}

// A table entry by its own key only, so props like "constructor" fall back, not crash.
const own = (table, key) => (typeof key === "string" || typeof key === "number") && Object.hasOwn(table, key) ? table[key] : undefined;

// A safe fragment for building ids out of props (ids must never clash or break url(#…)).
const idPart = (value) => String(value ?? "none").replace(/[^A-Za-z0-9_-]/g, "_");

// A bold centred figure; y is placed by hand because dominant-baseline is unevenly supported.
function figure(text, cx, cy, size, fill) {
  return html`<text x=${cx} y=${round2(cy + size * 0.36)} font-size=${size}
    font-family="inherit" font-weight="bold" text-anchor="middle" fill=${fill}>${text}</text>`;
}

function figureSize(text, one, two, more) {
  const len = String(text).length;
  return len <= 1 ? one : len === 2 ? two : more;
}

// The neutral stand-in for unknown kinds: a grey disc with a dash.
function neutralBody() {
  return html`<circle cx="10" cy="10" r="7.5" fill="#c9c4bb" stroke="#7d776c" stroke-width="1"/>
    <path d="M6.5 10h7" stroke="#7d776c" stroke-width="1.6" stroke-linecap="round"/>`;
}

// ---------------------------------------------------------------------------------------
// Resources
// ---------------------------------------------------------------------------------------

const RESOURCE_ART = {
  // A log lying on its side: bark, end grain with rings, a knot.
  wood: () => html`<g transform="rotate(-24 10 10)">
      <rect x="1.5" y="6" width="15.5" height="8.6" rx="2.4" fill="#b8672c" stroke="#6e3a14" stroke-width="0.9"/>
      <path d="M3.8 8.7h7.5M5.2 11.9h7.8" stroke="#7d4218" stroke-width="0.9" stroke-linecap="round" fill="none"/>
      <ellipse cx="16.2" cy="10.3" rx="2.9" ry="4.3" fill="#edb872" stroke="#6e3a14" stroke-width="0.9"/>
      <ellipse cx="16.2" cy="10.3" rx="1.3" ry="2" fill="none" stroke="#b8672c" stroke-width="0.8"/>
    </g>`,
  // A brick in three-quarter view: lit top, front, shaded end.
  clay: () => html`<path d="M2 9.2 6.2 5h11.8l-4.2 4.2Z" fill="#e9855a"/>
    <path d="M2 9.2h11.8v7H2Z" fill="#c4532c"/>
    <path d="M13.8 9.2 18 5v7l-4.2 4.2Z" fill="#8f3518"/>
    <path d="M2 9.2 6.2 5h11.8v7l-4.2 4.2H2ZM2 9.2h11.8L18 5M13.8 9.2v7" fill="none" stroke="#5e220e" stroke-width="0.8" stroke-linejoin="round"/>`,
  // A rough-hewn block with three faceted faces.
  stone: () => html`<path d="M2.8 8.2 7.2 3.6l7.3-.5 3.7 4.6-7 1.8Z" fill="#c3c7cc"/>
    <path d="M2.8 8.2l8.4 1.3v8.2l-7-2.1Z" fill="#8f949b"/>
    <path d="M11.2 9.5l7-1.8-.8 7.7-6.2 2.3Z" fill="#696e75"/>
    <path d="M2.8 8.2 7.2 3.6l7.3-.5 3.7 4.6-.8 7.7-6.2 2.3-7-2.1ZM2.8 8.2l8.4 1.3 7-1.8M11.2 9.5v8.2" fill="none" stroke="#43474c" stroke-width="0.8" stroke-linejoin="round"/>`,
  // A round-bottomed flask, part filled.
  glass: () => html`<path d="M8 2.6h4v4.6a5.6 5.6 0 1 1-4 0Z" fill="#c6eef9" stroke="#17688a" stroke-width="0.9" stroke-linejoin="round"/>
    <path d="M4.7 12.2a5.3 5.3 0 0 0 10.6 0Z" fill="#27a6d8"/>
    <rect x="7" y="1.3" width="6" height="1.9" rx="0.7" fill="#7fd0ea" stroke="#17688a" stroke-width="0.8"/>
    <path d="M6.6 10.4a3.9 3.9 0 0 1 1.8-2.2" fill="none" stroke="#ffffff" stroke-width="1" stroke-linecap="round"/>`,
  // An open sheet between two rolled ends, with lines of writing.
  papyrus: () => html`<rect x="4" y="4.2" width="12" height="11.6" fill="#f3e4b8" stroke="#8a6a35" stroke-width="0.8"/>
    <path d="M6.8 7.6h6.4M6.8 10h6.4M6.8 12.4h4" stroke="#a8874f" stroke-width="0.9" stroke-linecap="round"/>
    <rect x="1.8" y="2.6" width="3.4" height="14.8" rx="1.7" fill="#dcc07f" stroke="#8a6a35" stroke-width="0.8"/>
    <rect x="14.8" y="2.6" width="3.4" height="14.8" rx="1.7" fill="#dcc07f" stroke="#8a6a35" stroke-width="0.8"/>`,
};

function drawResource({ kind, count = 1 }) {
  const art = own(RESOURCE_ART, kind);
  const classes = `gl-resource gl-resource-${art ? kind : "unknown"}`;
  return repeated(count, (key) => glyph(classes, "0 0 20 20", art ? art() : neutralBody(), key));
}

// ---------------------------------------------------------------------------------------
// Science symbols: cream line glyphs on a green badge
// ---------------------------------------------------------------------------------------

const SCIENCE_ART = {
  globe: html`<circle cx="10" cy="9.2" r="4.6"/><ellipse cx="10" cy="9.2" rx="1.9" ry="4.6"/>
    <path d="M5.4 9.2h9.2M10 13.8v1.6M7.4 15.6h5.2"/>`,
  wheel: html`<circle cx="10" cy="10" r="5.4"/><path d="M10 4.6v10.8M5.3 7.3l9.4 5.4M5.3 12.7l9.4-5.4"/>
    <circle cx="10" cy="10" r="1.3" fill="#f6f1d8"/>`,
  sundial: html`<path d="M4.6 13.2a5.4 5.4 0 0 1 10.8 0Z"/><path d="M10 13.2 13 6.8v6.4" fill="#f6f1d8"/>
    <path d="M5.8 9.8l1.3.9M7.8 8.3l.6 1.3M3.8 15.3h12.4"/>`,
  mortar: html`<path d="M4.2 9.6h11.6c0 3.2-2.6 5.3-5.8 5.3s-5.8-2.1-5.8-5.3Z"/>
    <path d="M7.6 15.7h4.8"/><path d="M10.6 9.4 14.6 4" stroke-width="2.2"/>`,
  plumb_line: html`<path d="M4.8 15.8 10 4.2l5.2 11.6M6.8 11.5h6.4M10 4.2v8.4"/>
    <path d="M10 12.4 11.2 14.3 10 16 8.8 14.3Z" fill="#f6f1d8"/>`,
  quill: html`<path d="M15.2 3.6C10.6 4.2 7.4 8 6.4 13.2 10.3 12.6 13.8 9.4 15.2 3.6Z" fill="#f6f1d8" fill-opacity="0.35"/>
    <path d="M13.4 5.6 6.4 13.2 4.6 16.4"/>`,
  law: html`<path d="M10 4.6v10.2M7 15.4h6M4.6 6.4h10.8M4.6 6.4 3.2 10.4M4.6 6.4 6 10.4M15.4 6.4 14 10.4M15.4 6.4l1.4 4"/>
    <path d="M2.8 10.4h3.6a1.8 1.6 0 0 1-3.6 0ZM13.6 10.4h3.6a1.8 1.6 0 0 1-3.6 0Z" fill="#f6f1d8"/>
    <circle cx="10" cy="4.4" r="0.9" fill="#f6f1d8"/>`,
};

function drawScience({ symbol }) {
  const art = own(SCIENCE_ART, symbol);
  return glyph(`gl-science gl-science-${art ? symbol : "unknown"}`, "0 0 20 20", html`
    <circle cx="10" cy="10" r="9.3" fill="#2e8b4f" stroke="#1b5c32" stroke-width="0.8"/>
    <g fill="none" stroke="#f6f1d8" stroke-width="1.35" stroke-linecap="round" stroke-linejoin="round">
      ${art ?? html`<circle cx="10" cy="10" r="3"/>`}
    </g>`);
}

// ---------------------------------------------------------------------------------------
// Shields, coins, points, chain links
// ---------------------------------------------------------------------------------------

function shieldBody() {
  return html`<path d="M10 1.6 16.6 4v5.6c0 4-2.9 7-6.6 8.6-3.7-1.6-6.6-4.6-6.6-8.6V4Z" fill="#c3362a" stroke="#6e1910" stroke-width="0.9" stroke-linejoin="round"/>
    <path d="M10 3.5v12.8c-2.7-1.4-4.8-3.8-4.8-6.8V5.3Z" fill="#e35f4c"/>
    <path d="M10 3.5v12.8" stroke="#f3c9a8" stroke-width="0.8"/>`;
}

function drawShield({ count = 1 }) {
  return repeated(count, (key) => glyph("gl-shield", "0 0 20 20", shieldBody(), key));
}

function drawCoin({ amount }) {
  const shown = amount === null || amount === undefined ? null : String(amount);
  return glyph("gl-coin", "0 0 20 20", html`
    <circle cx="10" cy="10" r="9.1" fill="#e9b83a" stroke="#98690d" stroke-width="0.9"/>
    <circle cx="10" cy="10" r="7.3" fill="none" stroke="#c18f1c" stroke-width="0.7"/>
    ${shown === null
      ? html`<circle cx="10" cy="10" r="2.6" fill="#c18f1c"/>`
      : figure(shown, 10, 10, figureSize(shown, 11.5, 9.5, 7), "#4d3105")}`);
}

// The wreath: two stems climbing from the bottom, each with pairs of leaves pointing up
// and out, computed once.
const LAUREL = (() => {
  const [cx, cy, r] = [10, 10.2, 7.4];
  const at = (side, t) => [cx + side * r * Math.sin(t), cy + r * Math.cos(t)];
  const leaves = [];
  const stems = [];
  for (const side of [-1, 1]) {
    const [sx, sy] = at(side, 0.35);
    const [ex, ey] = at(side, 2.75);
    stems.push(`M${round2(sx)} ${round2(sy)}A${r} ${r} 0 0 ${side < 0 ? 1 : 0} ${round2(ex)} ${round2(ey)}`);
    for (const [t, spread] of [[0.75, 0.75], [1.3, 0.75], [1.85, 0.75], [2.4, 0.75], [2.75, 0]]) {
      const [x, y] = at(side, t);
      const tangent = [side * Math.cos(t), -Math.sin(t)]; // up along the stem
      const outward = [side * Math.sin(t), Math.cos(t)];
      for (const lean of spread ? [1, -1] : [0]) {
        const dx = tangent[0] + lean * spread * outward[0];
        const dy = tangent[1] + lean * spread * outward[1];
        const len = Math.hypot(dx, dy);
        const reach = lean ? 1.5 : 1.9;
        const lx = x + (dx / len) * reach;
        const ly = y + (dy / len) * reach;
        leaves.push({ x: round2(lx), y: round2(ly), angle: round2((Math.atan2(dy, dx) * 180) / Math.PI) });
      }
    }
  }
  return { leaves, stems: stems.join("") };
})();

function drawLaurel({ points }) {
  const shown = points === null || points === undefined ? null : String(points);
  return glyph("gl-laurel", "0 0 20 20", html`
    <path d=${LAUREL.stems} fill="none" stroke="#2c6a2a" stroke-width="0.8" stroke-linecap="round"/>
    <g fill="#3f9a3a">
      ${LAUREL.leaves.map((leaf) => html`<ellipse cx=${leaf.x} cy=${leaf.y} rx="1.9" ry="0.9" transform=${`rotate(${leaf.angle} ${leaf.x} ${leaf.y})`}/>`)}
    </g>
    ${shown === null ? null : figure(shown, 10, 10, figureSize(shown, 9.5, 7.5, 6), "#1d4a1f")}`);
}

function drawChainLink() {
  return glyph("gl-chain-link", "0 0 20 20", html`
    <g transform="rotate(-35 10 10)" fill="none" stroke-width="2.1">
      <rect x="1.6" y="6.8" width="10.2" height="6.4" rx="3.2" stroke="#5a6470"/>
      <rect x="8.2" y="6.8" width="10.2" height="6.4" rx="3.2" stroke="#8b96a3"/>
      <path d="M8.2 13.2h.4a3.2 3.2 0 0 0 3.2-3.2" stroke="#5a6470" stroke-linecap="round"/>
    </g>`);
}

// ---------------------------------------------------------------------------------------
// Card backs (viewBox 60 x 90; stretched to the card box, so no circles that must stay round
// are essential: the medallion copes with a slightly different ratio)
// ---------------------------------------------------------------------------------------

const CARD_BACKS = {
  age1: { base: "#8c541f", deep: "#5c3410", light: "#f2c57c", numeral: 1 },
  age2: { base: "#4e6a80", deep: "#2d4254", light: "#d3e4f1", numeral: 2 },
  age3: { base: "#74508f", deep: "#48295f", light: "#ecdaf7", numeral: 3 },
  guild: { base: "#3d1b57", deep: "#220d33", light: "#e3c266", numeral: 0 },
};
const CARD_BACK_FALLBACK = { base: "#7a7368", deep: "#4e483f", light: "#e6e0d4", numeral: 0 };

// Sun rays behind the medallion: alternating wedges cut off at a rectangle just inside the
// card's rounded corners (so nothing shows outside the card).
const CARD_RAYS = (() => {
  const [cx, cy, x0, y0, x1, y1] = [30, 45, 2.5, 2.5, 57.5, 87.5];
  const edgePoint = (a) => {
    const dx = Math.cos(a);
    const dy = Math.sin(a);
    const tx = dx > 0 ? (x1 - cx) / dx : dx < 0 ? (x0 - cx) / dx : Infinity;
    const ty = dy > 0 ? (y1 - cy) / dy : dy < 0 ? (y0 - cy) / dy : Infinity;
    const t = Math.min(tx, ty);
    return [cx + t * dx, cy + t * dy];
  };
  const norm = (a) => (a + Math.PI * 2) % (Math.PI * 2);
  const corners = [[x1, y1], [x0, y1], [x0, y0], [x1, y0]]
    .map(([x, y]) => ({ x, y, a: norm(Math.atan2(y - cy, x - cx)) }));
  const count = 16;
  let d = "";
  for (let i = 0; i < count; i += 2) {
    const a0 = (i / count) * Math.PI * 2;
    const a1 = ((i + 1) / count) * Math.PI * 2;
    const points = [edgePoint(a0), ...corners.filter((c) => c.a > a0 && c.a < a1).map((c) => [c.x, c.y]), edgePoint(a1)];
    d += `M${cx} ${cy}${points.map(([x, y]) => `L${round2(x)} ${round2(y)}`).join("")}Z`;
  }
  return d;
})();

// A roman numeral built from serifed bars (shapes, not text, so it stays crisp and centred).
function romanBars(n, fill) {
  const gap = 7;
  const first = 30 - ((n - 1) * gap) / 2;
  return Array.from({ length: n }, (_, i) => {
    const x = first + i * gap;
    return html`<path d=${`M${x - 1.7} 39h3.4v12h-3.4ZM${x - 3.2} 37.4h6.4v1.8h-6.4ZM${x - 3.2} 50.8h6.4v1.8h-6.4Z`} fill=${fill}/>`;
  });
}

function guildCrest(light, deep) {
  return html`<path d="M30 35.5 37.5 38v6.2c0 4.6-3.4 7.6-7.5 9.3-4.1-1.7-7.5-4.7-7.5-9.3V38Z" fill=${light} stroke=${deep} stroke-width="0.8"/>
    <path d="M23.6 43.4 30 39.6l6.4 3.8v2.4L30 42l-6.4 3.8Z" fill=${deep}/>
    <circle cx="30" cy="48" r="1.8" fill=${deep}/>
    <path d="M24.5 33.6 26.6 35.8 30 32.4l3.4 3.4 2.1-2.2.6 3.2h-12.2Z" fill=${light}/>`;
}

function drawCardBack({ back }) {
  const style = own(CARD_BACKS, back) ?? CARD_BACK_FALLBACK;
  const known = own(CARD_BACKS, back) ? back : "unknown";
  const corner = (x, y) => html`<path d=${`M${x} ${y - 2.4}l2.4 2.4-2.4 2.4-2.4-2.4Z`} fill=${style.light}/>`;
  return glyph(`gl-card-back gl-card-back-${known}`, "0 0 60 90", html`
    <rect x="0.5" y="0.5" width="59" height="89" rx="4" fill=${style.base} stroke=${style.deep} stroke-width="1"/>
    <path d=${CARD_RAYS} fill=${style.deep} fill-opacity="0.35"/>
    <rect x="4.5" y="4.5" width="51" height="81" rx="2.5" fill="none" stroke=${style.light} stroke-width="1.1"/>
    <rect x="7" y="7" width="46" height="76" rx="1.5" fill="none" stroke=${style.light} stroke-opacity="0.45" stroke-width="0.6"/>
    ${corner(4.5, 4.5)}${corner(55.5, 4.5)}${corner(4.5, 85.5)}${corner(55.5, 85.5)}
    <path d="M18 17 30 11l12 6ZM18 73l12 6 12-6Z" fill=${style.light} fill-opacity="0.7"/>
    <circle cx="30" cy="45" r="15" fill=${style.deep} stroke=${style.light} stroke-width="1.4"/>
    <circle cx="30" cy="45" r="12.6" fill="none" stroke=${style.light} stroke-opacity="0.5" stroke-width="0.6"/>
    <g>
      ${style.numeral ? romanBars(style.numeral, style.light)
        : back === "guild" ? guildCrest(style.light, style.deep)
          : html`<circle cx="30" cy="45" r="4" fill=${style.light}/>`}
    </g>`, undefined, { preserveAspectRatio: "none" });
}

// ---------------------------------------------------------------------------------------
// Card colour emblems: a light emblem on a rounded square of the colour
// ---------------------------------------------------------------------------------------

const LIGHT = "#fbf4e2";
const COLOR_EMBLEMS = {
  // Raw materials: a pickaxe.
  brown: {
    fill: "#8b5a2b", edge: "#5a3816",
    art: html`<path d="M5 16.2 12 5.6" stroke=${LIGHT} stroke-width="1.7" stroke-linecap="round"/>
      <path d="M6.4 6.8Q11.4 2.4 16.4 8.6" fill="none" stroke="#d9dde2" stroke-width="2.1" stroke-linecap="round"/>`,
  },
  // Manufactured goods: an amphora.
  grey: {
    fill: "#7b8087", edge: "#4c5056",
    art: html`<path d="M8.6 3.6h2.8v2.6c2.9.8 4.4 3.4 3.6 6.2-.6 1.8-2.2 3.2-5 4.6-2.8-1.4-4.4-2.8-5-4.6-.8-2.8.7-5.4 3.6-6.2Z" fill=${LIGHT}/>
      <path d="M8.6 4.6H7.2Q5.4 4.6 5.6 6.6l.5 1.8M11.4 4.6h1.4q1.8 0 1.6 2l-.5 1.8" fill="none" stroke=${LIGHT} stroke-width="1.1" stroke-linecap="round"/>
      <path d="M6.2 11.2q3.8 1.2 7.6 0" fill="none" stroke="#7b8087" stroke-width="0.7"/>`,
  },
  // Civilian buildings: a columned temple.
  blue: {
    fill: "#2f63a6", edge: "#1c3d68",
    art: html`<path d="M3.4 7.4 10 3.4l6.6 4ZM4 8.2h12v1.3H4ZM3.4 15h13.2v1.6H3.4Z" fill=${LIGHT}/>
      <path d="M5.6 10.2v4.2M8.5 10.2v4.2M11.5 10.2v4.2M14.4 10.2v4.2" stroke=${LIGHT} stroke-width="1.4"/>`,
  },
  // Science: an open book.
  green: {
    fill: "#2e8b4f", edge: "#1b5c32",
    art: html`<path d="M10 6.4C8 5 5.6 4.9 3.4 5.5v9c2.2-.6 4.6-.4 6.6 1ZM10 6.4c2-1.4 4.4-1.5 6.6-.9v9c-2.2-.6-4.6-.4-6.6 1Z" fill=${LIGHT}/>
      <path d="M10 6.4v9M5 8c1.2-.2 2.4 0 3.4.5M5 10.4c1.2-.2 2.4 0 3.4.5M11.6 8.5c1-.5 2.2-.7 3.4-.5M11.6 10.9c1-.5 2.2-.7 3.4-.5" fill="none" stroke="#2e8b4f" stroke-width="0.7"/>`,
  },
  // Commerce: a stack of coins.
  yellow: {
    fill: "#d9a21e", edge: "#8a6206",
    art: html`${[13.4, 10.6, 7.8].map((y) => html`<path d=${`M5.2 ${y}v2.2a4.8 1.7 0 0 0 9.6 0V${y}`} fill="#f6d66a" stroke="#6e4c04" stroke-width="0.7"/>
      <ellipse cx="10" cy=${y} rx="4.8" ry="1.7" fill="#fff0b0" stroke="#6e4c04" stroke-width="0.7"/>`)}`,
  },
  // Military: crossed swords.
  red: {
    fill: "#b3312a", edge: "#6e1910",
    art: html`<path d="M4.6 4.6 13.4 13.4M15.4 4.6 6.6 13.4" stroke=${LIGHT} stroke-width="1.6" stroke-linecap="round"/>
      <path d="M11.4 15.4l4-4M4.6 11.4l4 4" stroke="#f2c14e" stroke-width="1.6" stroke-linecap="round"/>
      <path d="M14.6 14.6 16 16M5.4 14.6 4 16" stroke="#f2c14e" stroke-width="1.8" stroke-linecap="round"/>`,
  },
  // Guilds: a banner on a pole.
  purple: {
    fill: "#6a3a98", edge: "#3f1f5e",
    art: html`<path d="M6 4v12.6" stroke=${LIGHT} stroke-width="1.4" stroke-linecap="round"/>
      <circle cx="6" cy="3.6" r="1.1" fill="#f0c75e"/>
      <path d="M6.6 4.8h8.6l-2.3 3.1 2.3 3.1H6.6Z" fill="#f0c75e"/>`,
  },
};

function drawColorEmblem({ color }) {
  const emblem = own(COLOR_EMBLEMS, color);
  return glyph(`gl-color-emblem gl-color-emblem-${emblem ? color : "unknown"}`, "0 0 20 20", html`
    <rect x="1" y="1" width="18" height="18" rx="4" fill=${emblem?.fill ?? "#b7b1a6"} stroke=${emblem?.edge ?? "#77715f"} stroke-width="0.8"/>
    ${emblem ? emblem.art : html`<circle cx="10" cy="10" r="3" fill=${LIGHT}/>`}`);
}

// ---------------------------------------------------------------------------------------
// Wonder tiles (viewBox 120 x 64). Each scene gets its own id prefix (wa-<wonder id>-…).
// ---------------------------------------------------------------------------------------

function skyGradient(prefix, top, bottom) {
  return html`<linearGradient id=${`${prefix}-sky`} x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color=${top}/><stop offset="1" stop-color=${bottom}/></linearGradient>`;
}

function skyRect(prefix, height = 64) {
  return html`<rect width="120" height=${height} fill=${`url(#${prefix}-sky)`}/>`;
}

function cypress(x, baseY, height, width, fill = "#2f5b33") {
  const h = height;
  const w = width;
  return html`<path d=${`M${x} ${baseY}C${x - w} ${baseY - h * 0.3} ${x - w * 0.6} ${baseY - h * 0.8} ${x} ${baseY - h}C${x + w * 0.6} ${baseY - h * 0.8} ${x + w} ${baseY - h * 0.3} ${x} ${baseY}Z`} fill=${fill}/>`;
}

function palm(x, baseY, height, lean = 2) {
  const tx = x + lean;
  const ty = baseY - height;
  const frond = (dx, dy) => `M${tx} ${ty}Q${tx + dx * 0.5} ${ty - 3} ${tx + dx} ${ty + dy}`;
  return html`<g>
    <path d=${`M${x} ${baseY}Q${x + lean * 1.4} ${baseY - height / 2} ${tx} ${ty}`} fill="none" stroke="#7a5230" stroke-width="1.6" stroke-linecap="round"/>
    <path d=${[frond(-7, 3), frond(-5, -1.5), frond(7, 3), frond(5, -1.5), frond(-1, 4.5), frond(1.5, 4)].join("")} fill="none" stroke="#3d7d34" stroke-width="1.7" stroke-linecap="round"/>
  </g>`;
}

function wavePath(y, x0, x1, step = 6, amp = 1) {
  let d = `M${x0} ${y}`;
  for (let x = x0; x < x1; x += step) d += `q${step / 4} ${-amp} ${step / 2} 0t${step / 2} 0`;
  return d;
}

function waves(rows, stroke = "#9fd0ef", opacity = 0.7) {
  return html`<path d=${rows.map(([y, x0, x1, step]) => wavePath(y, x0, x1, step)).join("")} fill="none" stroke=${stroke} stroke-opacity=${opacity} stroke-width="0.7" stroke-linecap="round"/>`;
}

function sun(cx, cy, r, fill = "#fff3bf", glow = 0.35) {
  return html`<circle cx=${cx} cy=${cy} r=${r * 1.8} fill=${fill} fill-opacity=${glow}/>
    <circle cx=${cx} cy=${cy} r=${r} fill=${fill}/>`;
}

// A row of column shafts (each lit on the left, shaded on the right).
function columns(xs, top, bottom, width, lit, shade) {
  return xs.map((x) => html`<rect x=${round2(x - width / 2)} y=${top} width=${width} height=${bottom - top} fill=${lit}/>
    <rect x=${round2(x + width * 0.1)} y=${top} width=${round2(width * 0.4)} height=${bottom - top} fill=${shade}/>`);
}

const range = (from, to, step) => {
  const out = [];
  for (let v = from; v <= to + 1e-6; v += step) out.push(round2(v));
  return out;
};

// Courses of paving across the Appian Way, closer together towards the horizon, and two
// lines running to the vanishing point.
const APPIAN_PAVING = (() => {
  const edge = (y) => [56.5 - (42.5 * (y - 31)) / 33, 60.5 + (41 * (y - 31)) / 33];
  const rows = [33, 35.4, 38.6, 43, 49, 57].map((y) => {
    const [l, r] = edge(y);
    return `M${round2(l)} ${y}H${round2(r)}`;
  });
  return `${rows.join("")}M57.9 31 42.2 64M59.1 31 73.4 64`;
})();

// Stripes on the two lappets of the sphinx's headdress, following its slanted edges.
const SPHINX_STRIPES = range(26, 40, 2.3).map((y) => {
  const slant = (2 * (y - 24)) / 17;
  return `M${round2(37.7 - slant)} ${y}H41.2M50.8 ${y}H${round2(54.3 + slant)}`;
}).join("");

const WONDER_SCENES = {
  the_appian_way: (p) => html`
    <defs>${skyGradient(p, "#6fb1e4", "#e9f3f4")}</defs>${skyRect(p)}
    ${sun(100, 12, 5)}
    <path d="M0 33Q18 25 38 31T78 29T120 30V64H0Z" fill="#94bb74"/>
    <path d="M72 24.5h46v2.2H72Z" fill="#c8b493"/>
    <path d="M74 26.7h1.6v4.8H74ZM80 26.7h1.6v4.2H80ZM86 26.7h1.6v3.6H86ZM92 26.7h1.6v3.4H92ZM98 26.7h1.6v3.4H98ZM104 26.7h1.6v3.6H104ZM110 26.7h1.6v3.8H110ZM116 26.7h1.6v4H116Z" fill="#c8b493"/>
    <path d="M0 40Q60 33 120 40V64H0Z" fill="#6d9d4f"/>
    <path d="M56.5 31h4l41 33H14Z" fill="#bdb097"/>
    <path d=${APPIAN_PAVING} stroke="#9a8d76" stroke-width="0.6"/>
    <path d="M56.5 31 14 64M60.5 31l41 33" stroke="#7a6d58" stroke-width="1"/>
    ${[[71, 38, 1.5, 3.2], [80, 46, 2.6, 5.6], [96, 59, 4.4, 9]].map(([x, y, w, h]) => html`
      <path d=${`M${x} ${y}v${-h + w / 2}a${w / 2} ${w / 2} 0 0 1 ${w} 0V${y}Z`} fill="#e7e0d0" stroke="#6f6658" stroke-width="0.5"/>
      <path d=${`M${x} ${y - h * 0.55}h${w}`} stroke="#8d806b" stroke-width="0.4"/>`)}
    ${cypress(34, 36, 9, 2)}${cypress(28, 39, 13, 2.6)}${cypress(18, 44, 19, 3.6)}${cypress(8, 50, 26, 4.5, "#284f2c")}
    ${cypress(114, 48, 20, 3.6)}`,

  circus_maximus: (p) => html`
    <defs>${skyGradient(p, "#f2b56c", "#fce7c2")}</defs>${skyRect(p)}
    ${sun(22, 14, 5, "#fff4cc")}
    <path d="M0 26Q30 18 60 24T120 22V64H0Z" fill="#a8b47a"/>
    <path d="M0 30h120v34H0Z" fill="#b7a577"/>
    <path d="M7 40a53 15.5 0 0 0 106 0v5a53 15.5 0 0 1-106 0Z" fill="#9c7447"/>
    <path d="M7.5 43a52.5 15.5 0 0 0 105 0" fill="none" stroke="#5a3d1f" stroke-width="2.2" stroke-dasharray="1.6 2.2"/>
    <ellipse cx="60" cy="40" rx="53" ry="15.5" fill="#c9a274" stroke="#8a6843" stroke-width="0.6"/>
    <ellipse cx="60" cy="40" rx="47" ry="12.6" fill="#dcbd8e"/>
    <ellipse cx="60" cy="40" rx="47" ry="12.6" fill="none" stroke="#b08a5e" stroke-width="0.5" stroke-dasharray="1 1.5"/>
    <ellipse cx="60" cy="40.5" rx="41" ry="9.6" fill="#ecd9ad"/>
    <rect x="30" y="39.2" width="60" height="2.6" rx="1.3" fill="#b3956b" stroke="#8a6843" stroke-width="0.4"/>
    <path d="M30 40.5l-2.4-3.4h1.6l.8-2 .8 2h1.6ZM90 40.5l-2.4-3.4h1.6l.8-2 .8 2h1.6Z" fill="#8a6843"/>
    <path d="M58.8 40.2 59.3 27.8 60 26.6l.7 1.2.5 12.4Z" fill="#9b7a50"/>
    <path d="M44 46.6h5l1.5-1.4M72 33.8h5l1.5-1.4" stroke="#7a4a22" stroke-width="0.5" fill="none"/>
    <path d="M41 46.4h4.2v1.6H41ZM69 33.6h4.2v1.6H69Z" fill="#b2372b"/>
    <ellipse cx="48" cy="46.6" rx="2.2" ry="0.9" fill="#5e3b1d"/><ellipse cx="76" cy="33.8" rx="2.2" ry="0.9" fill="#5e3b1d"/>
    <path d="M34 47.4q2-1.2 5-.6M62 34.6q2-1.2 5-.6" stroke="#f7ecd2" stroke-width="0.8" fill="none" stroke-linecap="round"/>`,

  the_colossus: (p) => html`
    <defs>${skyGradient(p, "#7cc0ee", "#f7e6c3")}</defs>${skyRect(p)}
    ${sun(16, 16, 4.5)}
    <path d="M0 44h120v20H0Z" fill="#2f7db4"/>
    <path d="M0 44q10-4 18-3h8l4 3Z" fill="#c9b48e"/>
    <path d="M92 44l3-4h4v-3h4v3h3l2-2h12v6Z" fill="#d7c7a3"/>
    ${waves([[50, 2, 30, 6], [56, 10, 50, 7], [61, 60, 110, 7], [53, 86, 118, 6]])}
    <path d="M28 45h20v5H28ZM72 45h20v5H72Z" fill="#b9a27c" stroke="#7d6a4b" stroke-width="0.5"/>
    <path d="M34 38h10v7H34ZM76 38h10v7H76Z" fill="#e2d3b2" stroke="#7d6a4b" stroke-width="0.5"/>
    <g transform="translate(60 38) scale(0.9) translate(-60 -38)">
      <path d="M36.2 38h6.2l8-6.4 10-7.2-8.2-4.2-7.8 9ZM83.8 38h-6.2l-8-6.4-10-7.2 8.2-4.2 7.8 9Z" fill="#b9702f"/>
      <path d="M39.6 38h2.8l8-6.4 10-7.2-4-2-8.8 8ZM80.4 38h-2.8l-8-6.4-10-7.2 4-2 8.8 8Z" fill="#8a4f1e"/>
      <path d="M59 7.4h2v3h-2Z" fill="#9a5a22"/>
      <path d="M52.6 22.4h14.8l2.2-12q-9.6-2-19.2 0Z" fill="#c47a36"/>
      <path d="M60 9.2q5 .2 9.6 1.2l-2.2 12H60Z" fill="#9a5a22"/>
      <path d="M54.6 14.6q2.7 1.6 5.4 0 2.7 1.6 5.4 0" fill="none" stroke="#7a4218" stroke-width="0.6"/>
      <path d="M52.4 21.6h15.2l-2.6 5.4H55Z" fill="#e5c27d"/>
      <path d="M51.4 11.4 47 22.8" stroke="#b9702f" stroke-width="3" stroke-linecap="round"/>
      <path d="M68.6 11.4 74.4 3.8" stroke="#9a5a22" stroke-width="3" stroke-linecap="round"/>
      <circle cx="60" cy="5.6" r="3.3" fill="#c47a36"/>
      <path d="M55.8 3.4 54.8 1.2M58.6 2.2 58.4-.2M61.4 2.2l.2-2.4M64.2 3.4l1-2.2" stroke="#e5c27d" stroke-width="0.8" stroke-linecap="round"/>
      <path d="M73.4 3.4h2.4l-.4 2h-1.6Z" fill="#6b3d16"/>
      <path d="M74.6 3.4c-1.6-1.2-.8-2.8.6-3.4-.2 1 .6 1.2 1 .4.8 1 .6 2.4-.8 3Z" fill="#ffb13b"/>
    </g>
    <g>
      <path d="M50 49h20l-3 4.4H53.4Z" fill="#6b4022"/>
      <path d="M60 49V38.6" stroke="#4a2c16" stroke-width="0.8"/>
      <path d="M55.2 39.4h9.6l-.6 7.4h-8.4Z" fill="#f4ecd8"/>
      <path d="M55.6 42.4h8.8" stroke="#c0392b" stroke-width="1"/>
    </g>`,

  the_great_library: (p) => html`
    <defs>${skyGradient(p, "#f0bd7c", "#fdf0d6")}</defs>${skyRect(p)}
    ${sun(104, 11, 4, "#fff7d8")}
    <path d="M0 52Q60 46 120 52V64H0Z" fill="#d9b57a"/>
    <path d="M26 27h68v25H26Z" fill="#a97c45"/>
    ${[36, 48, 60, 72, 84].map((x) => html`
      <path d=${`M${x - 4} 34h8M${x - 4} 41h8M${x - 4} 48h8`} stroke="#6f4d25" stroke-width="0.7"/>
      ${[31.6, 38.6, 45.6].map((y) => html`<circle cx=${x - 2} cy=${y} r="1.4" fill="#f6e4b4" stroke="#8a6a35" stroke-width="0.4"/>
        <circle cx=${x + 2} cy=${y} r="1.4" fill="#f6e4b4" stroke="#8a6a35" stroke-width="0.4"/>`)}`)}
    ${columns([30, 42, 54, 66, 78, 90], 27, 51, 3.8, "#f3e8d0", "#d8c7a4")}
    <path d="M23 22.6h74v4.6H23Z" fill="#eadcbc" stroke="#9b8461" stroke-width="0.5"/>
    <path d="M22 22.6 60 10.4l38 12.2Z" fill="#f3e8d0" stroke="#9b8461" stroke-width="0.6" stroke-linejoin="round"/>
    <circle cx="60" cy="18.2" r="2.4" fill="#e6d3a8" stroke="#b08d57" stroke-width="0.7"/>
    <path d="M22 51h76v2.4H22ZM18 53.4h84v2.4H18Z" fill="#e4d4b2" stroke="#9b8461" stroke-width="0.4"/>
    ${palm(9, 56, 24, 3)}${palm(110, 56, 20, -2)}`,

  the_great_lighthouse: (p) => html`
    <defs>${skyGradient(p, "#172552", "#7b5c8e")}
      <radialGradient id=${`${p}-glow`}><stop offset="0" stop-color="#ffe7a0" stop-opacity="0.9"/><stop offset="1" stop-color="#ffe7a0" stop-opacity="0"/></radialGradient>
    </defs>${skyRect(p)}
    <path d="M10 8h.1M22 16h.1M32 5h.1M88 9h.1M100 4h.1M108 15h.1M16 25h.1M112 27h.1M42 14h.1M80 20h.1" stroke="#fff6d8" stroke-width="1.1" stroke-linecap="round"/>
    <path d="M60 6 0 0v15ZM60 6l60-4v15Z" fill="#ffe7a0" fill-opacity="0.22"/>
    <path d="M0 47h120v17H0Z" fill="#1e3a66"/>
    <path d="M58 48h4l2 16h-8Z" fill="#ffe7a0" fill-opacity="0.2"/>
    ${waves([[52, 4, 40, 6], [58, 20, 54, 7], [55, 70, 116, 6], [61, 66, 104, 7]], "#8fb3dd", 0.5)}
    <path d="M34 50q6-5 14-4h24q8-1 14 4Z" fill="#3c3a44"/>
    <g>
      <path d="M46 47.5l2.4-20h23.2l2.4 20Z" fill="#efe4cc"/>
      <path d="M60 27.5h11.6l2.4 20H60Z" fill="#c8b795"/>
      <path d="M47 27.5h26v1.6H47Z" fill="#a8977a"/>
      <path d="M51.4 27.5l1.2-11h14.8l1.2 11Z" fill="#efe4cc"/>
      <path d="M60 16.5h7.4l1.2 11H60Z" fill="#c8b795"/>
      <path d="M51 16.5h18v1.4H51Z" fill="#a8977a"/>
      <path d="M55.2 16.5l.6-7h8.4l.6 7Z" fill="#efe4cc"/>
      <path d="M60 9.5h4.2l.6 7H60Z" fill="#c8b795"/>
      <path d="M54.8 9h10.4v1.2H54.8Z" fill="#a8977a"/>
      <path d="M54.6 38h2.4v4h-2.4ZM63 38h2.4v4H63ZM58.8 31h2.4v3.6h-2.4ZM58.8 20h2.4v3.2h-2.4Z" fill="#5a4a6a"/>
    </g>
    <circle cx="60" cy="6" r="10" fill=${`url(#${p}-glow)`}/>
    <path d="M60 9c-3 0-3.6-2.6-2-4.6.4 1 1 1.2 1.2.4.2-1.6 1.2-2.8 2.4-3.4-.4 1.4.4 2.2 1 2.8 1.4 1.6.6 4.8-2.6 4.8Z" fill="#ffb13b"/>
    <path d="M60 8.4c-1.2 0-1.6-1.2-.8-2.2.4.6.8.4.8-.2.8.6 1.4 2.4 0 2.4Z" fill="#fff1a8"/>
    <path d="M92 53h10l-1.6 2h-7ZM96.6 53v-6l3.4 5Z" fill="#120f1e"/>`,

  the_hanging_gardens: (p) => {
    const terraces = [[16, 104, 46, 54], [26, 94, 38, 46], [36, 84, 30, 38], [46, 74, 22, 30]];
    return html`
    <defs>${skyGradient(p, "#8fcbe6", "#fbeecb")}</defs>${skyRect(p)}
    ${sun(102, 12, 4.5)}
    <path d="M0 50Q60 44 120 50V64H0Z" fill="#cda96b"/>
    <path d="M0 58q30-3 60 0t60 0V64H0Z" fill="#4b9fc9"/>
    ${waves([[61, 6, 50, 7], [60.5, 68, 114, 7]], "#bfe3f5", 0.8)}
    ${terraces.map(([x0, x1, top, bottom]) => html`
      <path d=${`M${x0} ${top}H${x1}V${bottom}H${x0}Z`} fill="#d7ac72" stroke="#94683a" stroke-width="0.5"/>
      <path d=${`M${x0 + 2} ${bottom - 1.6}H${x1 - 1}`} stroke="#8a5e32" stroke-width="3" stroke-dasharray="2 2.4"/>
      <path d=${`M${x0 + 1} ${top + 0.6}H${x1 - 1}`} stroke="#3f8f3a" stroke-width="1.4" stroke-dasharray="0.8 3.2" stroke-dashoffset="-1" transform=${`translate(0 ${2.4})`}/>
      ${range(x0 + 2.5, x1 - 2.5, 4.4).map((x, i) => html`<circle cx=${x} cy=${top - 0.6} r=${i % 2 ? 2.2 : 2.8} fill=${i % 3 === 0 ? "#3f8f3a" : i % 3 === 1 ? "#5aaa48" : "#2f7432"}/>`)}`)}
    ${palm(44, 22, 10, -1.5)}${palm(76, 22, 12, 2)}${palm(60, 14, 8, 0)}
    ${palm(8, 52, 18, 2)}${palm(113, 52, 16, -2)}`;
  },

  the_mausoleum: (p) => html`
    <defs>${skyGradient(p, "#9ccdee", "#eef4ef")}</defs>${skyRect(p)}
    ${sun(16, 12, 4)}
    <path d="M0 52Q60 46 120 52V64H0Z" fill="#a9bb7c"/>
    <path d="M34 34.5h52V54H34Z" fill="#e8decb"/>
    <path d="M62 34.5h24V54H62Z" fill="#cdbfa4"/>
    <path d="M34 40h52M34 46h52M42 34.5V40M54 40v6M66 34.5V40M78 40v6M48 46v8M72 46v8" stroke="#b3a384" stroke-width="0.4"/>
    <path d="M30 54h60v3H30Z" fill="#d9cdb4" stroke="#9b8a69" stroke-width="0.4"/>
    ${columns(range(37.5, 82.5, 5.625), 24.5, 34.5, 2.4, "#f7f1e3", "#d9ccb0")}
    <path d="M33 22h54v3H33Z" fill="#e8decb" stroke="#9b8a69" stroke-width="0.4"/>
    <path d="M35 22v-3h50v3ZM39 19v-3h42v3ZM43 16v-3h34v3ZM47 13v-3h26v3ZM51 10V7h18v3Z" fill="#ddd0b4" stroke="#9b8a69" stroke-width="0.4"/>
    <path d="M54.6 7V5.2l1.4-1.8 1 .8.6-1.2 1 .8.6-1.4 1 1 .6-1.2 1.2 1.2V7ZM62.6 7V3.4h2.2l1 1.4V7Z" fill="#7a5530"/>
    ${cypress(22, 54, 20, 3.4)}${cypress(14, 56, 15, 2.8)}${cypress(98, 54, 22, 3.6)}${cypress(106, 56, 14, 2.6)}`,

  piraeus: (p) => html`
    <defs>${skyGradient(p, "#86c2ea", "#eef3ef")}</defs>${skyRect(p)}
    <path d="M0 26q14-10 30-7t26 7Z" fill="#9bb07a"/>
    <path d="M4 24h6v-3h6v3h4v-4h7v4h5v-2h6v4H4Z" fill="#f4efe4"/>
    <path d="M4 21l3-2.4L10 21ZM10 21l3-2.4L16 21ZM20 20l3.5-2.6L27 20ZM32 22l3-2 3 2Z" fill="#c0573a"/>
    <path d="M0 28h120v36H0Z" fill="#367fb7"/>
    <path d="M0 26h56l-6 4H0Z" fill="#d4c29e"/>
    <path d="M78 30h42v-4h-42ZM80 26l2.6-2.4 2.6 2.4 2.6-2.4 2.6 2.4 2.6-2.4 2.6 2.4 2.6-2.4 2.6 2.4 2.6-2.4 2.6 2.4 2.6-2.4 2.6 2.4 2.6-2.4 2.6 2.4 2.6-2.4 2.6 2.4Z" fill="#e8dcc0" stroke="#9b8a69" stroke-width="0.4"/>
    <path d="M84 30v-2.6M89 30v-2.6M94 30v-2.6M99 30v-2.6M104 30v-2.6M109 30v-2.6M114 30v-2.6" stroke="#6a5a44" stroke-width="0.8"/>
    <path d="M0 47.6 38 44.4l3 .8L0 49.6Z" fill="#e2d3b1"/>
    <path d="M0 49.6 41 45.2v2.4L0 52.4Z" fill="#b9a27c"/>
    <path d="M0 52.4 41 47.6M0 50.9 41 46.4" stroke="#8f7b58" stroke-width="0.5"/>
    <path d="M0 51 41 46.4" stroke="#8f7b58" stroke-width="2.6" stroke-dasharray="0.4 4"/>
    ${waves([[36, 10, 44, 6], [41, 60, 100, 6], [58, 4, 30, 7], [61, 90, 118, 7], [46, 96, 118, 6]], "#bfe0f5", 0.6)}
    <g>
      <path d="M50 50h40c-1 3-3.4 5.4-8 5.4H58c-4 0-6.6-2-8-5.4Z" fill="#7a4a26"/>
      <path d="M90 50q3-1 3.4-4" fill="none" stroke="#7a4a26" stroke-width="1.4" stroke-linecap="round"/>
      <path d="M50.4 51.4l-3 .8" stroke="#7a4a26" stroke-width="1.2" stroke-linecap="round"/>
      <path d="M56 55l-2 4M61 55.4l-1.6 4M66 55.4l-1.2 4M71 55.4l-.8 4M76 55.4l-.4 4M81 55.2v4" stroke="#5a3518" stroke-width="0.7"/>
      <path d="M70 50V31" stroke="#4a2c16" stroke-width="1"/>
      <path d="M61.6 33h16.8q1.2 6 0 13H61.6q-1.2-7 0-13Z" fill="#f4ead2" stroke="#b9a57c" stroke-width="0.4"/>
      <path d="M61.4 38.6h17.2" stroke="#c0392b" stroke-width="1.6"/>
      <path d="M50 50h40" stroke="#c9a25a" stroke-width="0.8"/>
    </g>
    <g transform="translate(-4 14) scale(0.45)">
      <path d="M50 50h40c-1 3-3.4 5.4-8 5.4H58c-4 0-6.6-2-8-5.4Z" fill="#6b3f22"/>
      <path d="M70 50V33" stroke="#4a2c16" stroke-width="1.6"/>
      <path d="M62 35h16q1 5 0 11H62q-1-6 0-11Z" fill="#f4ead2"/>
    </g>
    <path d="M36 12l2 1.4 2-1.4M44 8l1.6 1.2 1.6-1.2M98 14l2 1.4 2-1.4" fill="none" stroke="#45525e" stroke-width="0.6" stroke-linecap="round"/>`,

  the_pyramids: (p) => html`
    <defs>${skyGradient(p, "#f3a64e", "#fde5ae")}</defs>${skyRect(p)}
    ${sun(96, 16, 8, "#fff3c6", 0.3)}
    <path d="M0 44Q30 38 60 43T120 40V64H0Z" fill="#e3b56b"/>
    <g>
      <path d="M82 22 64 46h20Z" fill="#ebc47c"/><path d="M82 22l22 24H84Z" fill="#b9874a"/>
      <path d="M104 34 94 46h11Z" fill="#e6bd75"/><path d="M104 34l12 12h-11Z" fill="#b3823f"/>
      <path d="M46 8 18 50h32Z" fill="#f0cb84"/><path d="M46 8l34 42H50Z" fill="#bf8d4c"/>
      <path d="M43.4 12 48 12.2M39 18.6l7.6.4M34.4 25.6l11.6.6M30 32.4l15.4.8M25.4 39.4l19.6.8M21 46.2l24 1" stroke="#d7ae68" stroke-width="0.5"/>
    </g>
    <path d="M0 50Q40 44 70 49T120 47V64H0Z" fill="#d9a45a"/>
    <path d="M0 58q50-6 120-2V64H0Z" fill="#cf984f"/>
    <path d="M88 52.2h4.6l.6-2 1 .6-.6 1.8v2.4h-.8v-2h-3.6v2h-.8ZM95.6 53.2h4l.6-1.8.8.4-.4 1.6v2h-.7v-1.7h-3.2v1.7h-.7Z" fill="#7a5126"/>
    ${palm(10, 56, 14, 2)}${palm(16, 57, 11, -1.5)}`,

  the_sphinx: (p) => html`
    <defs>${skyGradient(p, "#ee9e5e", "#f9dfaa")}</defs>${skyRect(p)}
    ${sun(22, 14, 5, "#fff1c2")}
    <path d="M98 14 76 42h22Z" fill="#e9bf7a"/><path d="M98 14l24 28H98Z" fill="#b88748"/>
    <path d="M0 44Q60 38 120 43V64H0Z" fill="#dcae68"/>
    <g>
      <path d="M97 50q5-1 4.4-6.4" fill="none" stroke="#a06d34" stroke-width="1.4" stroke-linecap="round"/>
      <path d="M38 52 41 41q2-5 10-5h29q12 0 15.6 8l2.4 8Z" fill="#c58b48" stroke="#8f5e2a" stroke-width="0.4"/>
      <path d="M73 52q0-10 11-11 10 0 12 7l1.4 4Z" fill="#b07a3c"/>
      <path d="M50 55.6H24q-3 0-3-2.6t3-2.6h13.4l2.6-6.4q3-3.4 8-1.8Z" fill="#cf9753" stroke="#8f5e2a" stroke-width="0.4" stroke-linejoin="round"/>
      <path d="M21.8 53.6h2.6M21.8 52h2.4" stroke="#8f5e2a" stroke-width="0.4" stroke-linecap="round"/>
      <path d="M35.4 41 37.4 24Q39 14 46 14t8.6 10l2 17Z" fill="#c79349"/>
      <path d=${SPHINX_STRIPES} stroke="#ecc985" stroke-width="0.9"/>
      <path d="M41.4 20.6h9.2v8.2q0 5.4-4.6 6.6-4.6-1.2-4.6-6.6Z" fill="#e4b570"/>
      <path d="M41.4 20.9h9.2" stroke="#ecc985" stroke-width="1.1"/>
      <path d="M43 24.6h2.1M46.9 24.6H49" stroke="#5a3a18" stroke-width="0.8" stroke-linecap="round"/>
      <path d="M46 25.4v3.4l-.8.4M44.8 31.2h2.4" fill="none" stroke="#a9763a" stroke-width="0.6" stroke-linecap="round"/>
      <path d="M45.1 35.2h1.8V39h-1.8Z" fill="#a9763a"/>
      <circle cx="46" cy="15.6" r="0.9" fill="#ecc985"/>
    </g>
    <path d="M12 56h96l4 3H8Z" fill="#c99652"/>
    <path d="M0 60q60-3 120 0V64H0Z" fill="#d19c55"/>`,

  the_statue_of_zeus: (p) => html`
    <defs>${skyGradient(p, "#2b1e18", "#7a5430")}
      <linearGradient id=${`${p}-light`} x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffe3a0" stop-opacity="0.45"/><stop offset="1" stop-color="#ffe3a0" stop-opacity="0"/></linearGradient>
    </defs>${skyRect(p)}
    <path d="M46 0h28l14 56H32Z" fill=${`url(#${p}-light)`}/>
    <path d="M0 54h120v10H0Z" fill="#4a3424"/>
    <path d="M30 57h60l4 5H26Z" fill="#1f2c3a" stroke="#c9a35a" stroke-width="0.5"/>
    <path d="M50 58.4h4M64 60h8" stroke="#d9b869" stroke-opacity="0.6" stroke-width="0.6"/>
    ${columns([6, 18, 102, 114], 4, 54, 6, "#d9c7a2", "#a8936c")}
    <path d="M2 2h20v3H2ZM98 2h20v3H98Z" fill="#bba57c"/>
    <path d="M38 49h44v6H38Z" fill="#a88d62" stroke="#6d5634" stroke-width="0.5"/>
    <path d="M44 14h4v10h24V14h4v35H44Z" fill="#6b3f1a" stroke="#d9a93a" stroke-width="0.8"/>
    <path d="M46 12h2v-2h-2ZM72 12h2v-2h-2Z" fill="#d9a93a"/>
    <g>
      <path d="M53.4 18h13.2l1.4 17H52Z" fill="#f1e2c4"/>
      <path d="M55 20l11 14h2.2L66.6 18Z" fill="#d9a93a"/>
      <path d="M49 34h22l1.6 11.6H47.4Z" fill="#d9a93a"/>
      <path d="M52 36.6l7 9M58 35.4l6 10.2M64 35l4.4 10.6" stroke="#b3832a" stroke-width="0.6"/>
      <path d="M52.4 46h5v3h-5ZM62.6 46h5v3h-5Z" fill="#f1e2c4"/>
      <path d="M54 20 49 29l1.6 1.4" fill="none" stroke="#f1e2c4" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/>
      <path d="M66.4 20 70.4 26" stroke="#f1e2c4" stroke-width="2.4" stroke-linecap="round"/>
      <path d="M71 6v42" stroke="#f0c75e" stroke-width="1.2"/>
      <circle cx="71" cy="5.6" r="1.4" fill="#f0c75e"/>
      <circle cx="60" cy="13" r="4.2" fill="#f1e2c4"/>
      <path d="M56.2 14.4q3.8 7 7.6 0Z" fill="#d9a93a"/>
      <path d="M55.6 11.6q4.4-4.6 8.8 0" fill="none" stroke="#5d9a48" stroke-width="1.1"/>
      <path d="M48.6 30.4q-.2-1.6 1.2-2.2l1.4 2.4Zm.8-3.6a1.1 1.1 0 1 1 0 .01Z" fill="#f0c75e"/>
    </g>`,

  the_temple_of_artemis: (p) => {
    const xs = range(17, 103, 86 / 9);
    return html`
    <defs>${skyGradient(p, "#7ebdea", "#edf5f0")}</defs>${skyRect(p)}
    ${sun(104, 10, 3.6)}
    <path d="M0 50Q60 44 120 50V64H0Z" fill="#8dbb66"/>
    <path d="M0 58Q60 54 120 58V64H0Z" fill="#7aab56"/>
    <path d="M46 27h28v23H46Z" fill="#6f5d48"/>
    ${columns(xs, 27, 49, 3.6, "#f8f3e8", "#dcd2bf")}
    ${xs.map((x) => html`<path d=${`M${round2(x - 2.6)} 25.6h5.2`} stroke="#e9e0cd" stroke-width="1.4"/>
      <circle cx=${round2(x - 2.3)} cy="26.4" r="0.9" fill="none" stroke="#9b8a69" stroke-width="0.45"/>
      <circle cx=${round2(x + 2.3)} cy="26.4" r="0.9" fill="none" stroke="#9b8a69" stroke-width="0.45"/>
      <path d=${`M${round2(x - 2.4)} 49h4.8v1.2h-4.8Z`} fill="#e9e0cd"/>`)}
    <path d="M11 20h98v4.8H11Z" fill="#efe8d8" stroke="#9b8a69" stroke-width="0.5"/>
    <path d="M11.5 23.6h97" stroke="#9b8a69" stroke-width="1" stroke-dasharray="1 1"/>
    <path d="M9 20 60 7l51 13Z" fill="#f6f0e2" stroke="#9b8a69" stroke-width="0.6" stroke-linejoin="round"/>
    <path d="M20 18.4 60 8.6l40 9.8Z" fill="#e6dcc6"/>
    <path d="M60 7V4.6M9 20l-1.6-2.2M111 20l1.6-2.2" stroke="#c9a35a" stroke-width="1.2" stroke-linecap="round"/>
    <path d="M10 50.2h100v2.2H10ZM7 52.4h106v2.2H7ZM4 54.6h112v2.2H4Z" fill="#e8e0ce" stroke="#a89878" stroke-width="0.35"/>
    ${cypress(4, 50, 16, 2.8)}`;
  },
};

function fallbackScene(p) {
  return html`<defs>${skyGradient(p, "#a9c4d6", "#eef1ee")}</defs>${skyRect(p)}
    <path d="M0 46Q60 40 120 46V64H0Z" fill="#a6ad8c"/>
    <path d="M44 46V26l16-8 16 8v20Z" fill="#c9c4bb" stroke="#7d776c" stroke-width="0.8"/>`;
}

function drawWonderArt({ id }) {
  const scene = own(WONDER_SCENES, id);
  const prefix = `wa-${idPart(scene ? id : "unknown")}`;
  return glyph(`gl-wonder-art gl-wonder-art-${scene ? id : "unknown"}`, "0 0 120 64",
    scene ? scene(prefix) : fallbackScene(prefix), undefined, { preserveAspectRatio: "xMidYMid slice" });
}

// ---------------------------------------------------------------------------------------
// Progress tokens (viewBox 48 x 48): cream and gold emblems on a green disc
// ---------------------------------------------------------------------------------------

const CREAM = "#fbf3d5";
const GOLD = "#ecc35a";
const DEEP = "#1d5b33";

const TOKEN_EMBLEMS = {
  // A sheaf of wheat tied in the middle: stalks fan out above and below the tie.
  agriculture: () => {
    const tie = [24, 32];
    const stalks = [-2, -1, 0, 1, 2].map((k) => {
      const a = k * 0.38; // lean of the stalk, in radians
      const dir = [Math.sin(a), -Math.cos(a)];
      const at = (d, side = 0) => [tie[0] + dir[0] * d - dir[1] * side, tie[1] + dir[1] * d + dir[0] * side];
      return { k, a, at };
    });
    const stems = stalks.map(({ k, at }) => {
      const [tx, ty] = at(15.6);
      return `M${round2(24 + k * 1.8)} 39L${tie[0]} ${tie[1]}L${round2(tx)} ${round2(ty)}`;
    }).join("");
    const grains = stalks.flatMap(({ a, at }) => [10.2, 12.7, 15.2].flatMap((d) => [-1, 1].map((side) => {
      const [x, y] = at(d, side * 1.05);
      const angle = round2((a * 180) / Math.PI + side * 28);
      return html`<ellipse cx=${round2(x)} cy=${round2(y)} rx="0.95" ry="1.9" fill=${CREAM} transform=${`rotate(${angle} ${round2(x)} ${round2(y)})`}/>`;
    })).concat((() => {
      const [x, y] = at(17.2);
      return html`<ellipse cx=${round2(x)} cy=${round2(y)} rx="0.9" ry="1.8" fill=${CREAM} transform=${`rotate(${round2((a * 180) / Math.PI)} ${round2(x)} ${round2(y)})`}/>`;
    })()));
    return html`<path d=${stems} fill="none" stroke=${GOLD} stroke-width="1.1" stroke-linecap="round" stroke-linejoin="round"/>
      ${grains}
      <path d="M20.6 32.4h6.8" stroke=${GOLD} stroke-width="2.6" stroke-linecap="round"/>`;
  },
  // An arch of voussoirs with a set square in front.
  architecture: () => html`<path d="M14.5 37V25a9.5 9.5 0 0 1 19 0v12" fill="none" stroke=${CREAM} stroke-width="3.6"/>
    <path d="M14.5 37V25a9.5 9.5 0 0 1 19 0v12" fill="none" stroke=${DEEP} stroke-width="3.8" stroke-dasharray="0.5 4.4"/>
    <path d="M22 13.2h4l-.6 3.4h-2.8Z" fill=${GOLD}/>
    <path d="M21 38V26l12 12Zm3-3h3.6L24 31.4Z" fill=${GOLD} fill-rule="evenodd" stroke="#a07a1e" stroke-width="0.5"/>`,
  // A purse and a stack of coins.
  economy: () => html`<path d="M13 36.5c-2.6-4-1-10.4 4.2-13.4l-2-3.4h8l-2 3.4c5.2 3 6.8 9.4 4.2 13.4Z" fill=${CREAM}/>
    <path d="M15.6 22.6h7.4" stroke="#b08d57" stroke-width="1.2" stroke-linecap="round"/>
    ${[33.6, 29.8, 26, 22.2].map((y) => html`<path d=${`M28 ${y}v2.6a5 1.8 0 0 0 10 0V${y}`} fill="#d7a83a" stroke="#8a6206" stroke-width="0.6"/>
      <ellipse cx="33" cy=${y} rx="5" ry="1.8" fill=${GOLD} stroke="#8a6206" stroke-width="0.6"/>`)}`,
  // Scales of justice on a pillar.
  law: () => html`<path d="M24 12.5v22M18.5 36h11M12.5 16.5h23M12.5 16.5l-3.3 9.5M12.5 16.5l3.3 9.5M35.5 16.5l-3.3 9.5M35.5 16.5l3.3 9.5" fill="none" stroke=${CREAM} stroke-width="1.4" stroke-linecap="round"/>
    <path d="M8.4 26h8.2a4.1 3.4 0 0 1-8.2 0ZM31.4 26h8.2a4.1 3.4 0 0 1-8.2 0Z" fill=${GOLD}/>
    <path d="M17 37.4h14v-2.6H17Z" fill=${CREAM}/>
    <circle cx="24" cy="12" r="1.8" fill=${GOLD}/>`,
  // A trowel over a little wall of bricks.
  masonry: () => html`<path d="M11 30h12v4H11ZM23.6 30h13v4h-13ZM11 34.6h6v4h-6ZM17.6 34.6h12v4h-12ZM30.2 34.6h6.8v4h-6.8Z" fill="#d7764e" stroke="#8f3518" stroke-width="0.6"/>
    <path d="M17 27.4 28.6 12l6 9.6Z" fill=${CREAM} stroke="#8a8f96" stroke-width="0.6" stroke-linejoin="round"/>
    <path d="M30 19.6 34.4 14.4" stroke="#8a8f96" stroke-width="1.2"/>
    <path d="M34.2 14.6 37.4 10.8" stroke=${GOLD} stroke-width="2.6" stroke-linecap="round"/>`,
  // Dividers over a right triangle and a circle.
  mathematics: () => html`<path d="M11 37h16.5L11 20.5Z" fill="none" stroke=${GOLD} stroke-width="1.6" stroke-linejoin="round"/>
    <path d="M11 33h4v4" fill="none" stroke=${GOLD} stroke-width="1"/>
    <circle cx="31" cy="28" r="6" fill="none" stroke=${CREAM} stroke-width="1" stroke-dasharray="1.6 1.4"/>
    <path d="M29 12.4 20 35.6M29 12.4 37 35.2" stroke=${CREAM} stroke-width="1.8" stroke-linecap="round"/>
    <circle cx="29" cy="12" r="2" fill=${CREAM}/>
    <path d="M22.8 28.4q6.2 2 11.8.2" fill="none" stroke=${CREAM} stroke-width="0.9"/>`,
  // An owl.
  philosophy: () => html`<path d="M15 16l3.6 3.6q5.4-2.4 10.8 0L33 16v13c0 6-4 9.4-9 9.4S15 35 15 29Z" fill=${CREAM}/>
    <path d="M18.4 30.6q5.6 5.2 11.2 0M19.4 34q4.6 3.6 9.2 0" fill="none" stroke="#b08d57" stroke-width="0.9"/>
    <circle cx="20" cy="24.4" r="3.6" fill=${GOLD}/><circle cx="28" cy="24.4" r="3.6" fill=${GOLD}/>
    <circle cx="20" cy="24.4" r="1.5" fill=${DEEP}/><circle cx="28" cy="24.4" r="1.5" fill=${DEEP}/>
    <path d="M24 27l-1.4 1.6L24 31l1.4-2.4Z" fill="#b08d57"/>
    <path d="M14 38.6h20" stroke=${GOLD} stroke-width="1.6" stroke-linecap="round"/>`,
  // A chess knight.
  strategy: () => html`<path d="M16 38.2h17v-3.2H16Z" fill=${GOLD}/>
    <path d="M18 35c.4-5 2.6-7.6 5.4-10.6-2 .4-3.6.4-5 1.6l-2.4 1.2c-1.2-.4-1.8-1.4-1.4-2.6l4.4-7.4c.6-1.2 1.6-2.2 2.6-2.8l.2-2.8 2.2 2.2c5.6.4 9.6 5 9.6 12.2 0 3.8-.8 6.6-1.6 9Z" fill=${CREAM}/>
    <circle cx="21.4" cy="17.8" r="1" fill=${DEEP}/>
    <path d="M25.6 16.4c3 1 4.8 4 4.8 8.4" fill="none" stroke="#b08d57" stroke-width="1" stroke-linecap="round"/>`,
  // An altar with a flame.
  theology: () => html`<path d="M16 26h16v2H16ZM18 28h12v8H18ZM15 36h18v2.6H15Z" fill=${CREAM}/>
    <path d="M20 30.4h8M20 33.6h8" stroke="#b08d57" stroke-width="0.7"/>
    <path d="M24 25.4c-4.6 0-5.6-4-3-7.4.4 1.4 1.2 1.8 1.6.8.4-2.6 2-4.6 3.8-5.8-.6 2.2.6 3.6 1.4 4.6 2.2 2.6 1 7.8-3.8 7.8Z" fill=${GOLD}/>
    <path d="M24 25c-1.8 0-2.4-1.8-1.2-3.4.6.8 1.2.6 1.2-.2 1.4.8 2.2 3.6 0 3.6Z" fill="#fff1a8"/>`,
  // A city skyline with a dome and a tower.
  urbanism: () => html`<path d="M10 37V27h5v-3h4v13ZM19.5 37V21h4.5l-.5-4h2l-.5 4h4v16ZM29.5 37V29q3-5 7-.8V37Z" fill=${CREAM}/>
    <path d="M31 29.6q2-3.6 4.2 0" fill="none" stroke="#b08d57" stroke-width="0.8"/>
    <path d="M21.5 24h1.6v2.4h-1.6ZM26 24h1.6v2.4H26ZM21.5 29h1.6v2.4h-1.6ZM26 29h1.6v2.4H26ZM12 30h1.4v2H12ZM16 28h1.4v2H16ZM31.5 31h1.4v2h-1.4ZM35 31h1.4v2H35Z" fill=${DEEP}/>
    <path d="M9 37.6h30" stroke=${GOLD} stroke-width="1.6" stroke-linecap="round"/>
    <path d="M23 33.6h2.6V37H23Z" fill=${GOLD}/>`,
};

function drawTokenArt({ id }) {
  const emblem = own(TOKEN_EMBLEMS, id);
  const prefix = `ta-${idPart(emblem ? id : "unknown")}`;
  return glyph(`gl-token-art gl-token-art-${emblem ? id : "unknown"}`, "0 0 48 48", html`
    <defs><radialGradient id=${`${prefix}-disc`} cx="0.38" cy="0.32" r="0.75">
      <stop offset="0" stop-color="#4fb06c"/><stop offset="1" stop-color="#23723f"/></radialGradient></defs>
    <circle cx="24" cy="24" r="22.6" fill=${`url(#${prefix}-disc)`} stroke="#14492a" stroke-width="1.4"/>
    <circle cx="24" cy="24" r="19.6" fill="none" stroke="#a8d8b0" stroke-opacity="0.7" stroke-width="0.8"/>
    <g>${emblem ? emblem() : html`<circle cx="24" cy="24" r="6" fill=${CREAM}/>`}</g>`);
}

// ---------------------------------------------------------------------------------------
// Military track pieces
// ---------------------------------------------------------------------------------------

function drawPawn() {
  return glyph("gl-pawn", "0 0 20 20", html`
    <path d="M10 .8 16.4 10 10 19.2 3.6 10Z" fill="#c3362a" stroke="#5e140c" stroke-width="0.9" stroke-linejoin="round"/>
    <path d="M10 .8 3.6 10H10Z" fill="#ea6b55"/>
    <path d="M10 10h6.4L10 19.2Z" fill="#8e2016"/>
    <circle cx="10" cy="10" r="2" fill="#f2c14e" stroke="#5e140c" stroke-width="0.6"/>`);
}

const LOOT_STYLES = {
  2: { plate: "#ead7ad", edge: "#8a5a22", trim: "#c9a46a", text: "#5a2a10" },
  5: { plate: "#9c2f22", edge: "#4e130b", trim: "#f0c75e", text: "#fff3d6" },
};

function drawMilitaryToken({ value }) {
  const style = own(LOOT_STYLES, value);
  const known = Boolean(style);
  const look = style ?? { plate: "#d9d4ca", edge: "#77715f", trim: "#b7b1a6", text: "#3a3630" };
  const number = Number(value);
  const shown = Number.isFinite(number) ? `\u2212${Math.abs(number)}` : null;
  return glyph(`gl-military-token gl-military-token-${known ? value : "unknown"}`, "0 0 36 20", html`
    <rect x="0.8" y="0.8" width="34.4" height="18.4" rx="3" fill=${look.plate} stroke=${look.edge} stroke-width="1"/>
    <rect x="2.6" y="2.6" width="30.8" height="14.8" rx="1.8" fill="none" stroke=${look.trim} stroke-width="0.8"/>
    <circle cx="10" cy="10" r="5.4" fill="#e9b83a" stroke="#98690d" stroke-width="0.8"/>
    <circle cx="10" cy="10" r="3.6" fill="none" stroke="#c18f1c" stroke-width="0.6"/>
    ${shown ? figure(shown, 24.4, 10, 10.5, look.text) : null}`);
}

function drawCapital() {
  return glyph("gl-capital", "0 0 20 20", html`
    <path d="M1.8 18V5.4h1.5V3.8h1.3v1.6h1.2V3.8h1.3v1.6h1.5v3.8h1.1V7.8h1.3v1.4h1.1V5.4h1.5V3.8h1.3v1.6h1.2V3.8h1.3v1.6h1.5V18Z" fill="#d5c29b" stroke="#6b5535" stroke-width="0.8" stroke-linejoin="round"/>
    <path d="M8 18v-4a2 2 0 0 1 4 0v4Z" fill="#4a3a28"/>
    <path d="M4.3 8.4h1v2h-1ZM14.7 8.4h1v2h-1Z" fill="#4a3a28"/>
    <path d="M10 7.8V1.4l3.2 1.4L10 4.2" fill="#c3362a" stroke="#6b5535" stroke-width="0.6" stroke-linejoin="round"/>`);
}

// Each drawing depends on its props only (pure.js): an update that passes the same props
// leaves it alone.
export const Resource = pure(drawResource);
export const Science = pure(drawScience);
export const Shield = pure(drawShield);
export const Coin = pure(drawCoin);
export const Laurel = pure(drawLaurel);
export const ChainLink = pure(drawChainLink);
export const CardBack = pure(drawCardBack);
export const ColorEmblem = pure(drawColorEmblem);
export const WonderArt = pure(drawWonderArt);
export const TokenArt = pure(drawTokenArt);
export const Pawn = pure(drawPawn);
export const MilitaryToken = pure(drawMilitaryToken);
export const Capital = pure(drawCapital);
