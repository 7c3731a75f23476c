// How a finished game went, as the computer reads it (GET /api/games/{id}/analysis,
// docs/client.md): under the result on the game page and on the replay page. While it is
// queued, "Analysing…", asked again every 3 s; while the server reads it, "Analysing: 12 of
// 58 positions" and the chart filling in from the left, asked again every second (given up
// after 3 minutes without a position more). The chart: seat 0's chance of winning after
// each move (inline SVG drawn to its box's width, so that its words keep the page's size on
// a phone), each side of the even line in its player's colour and name, the mistakes as
// dots, and the list of them with the move the computer preferred. The game's end (`end`:
// its last version and winner) closes the line: the last move, a resignation too, is judged
// by the result. With `onPick` (the replay page), a mistake of the list or a point of the
// chart goes to the table after that move.
//
//   <Analysis gameId=${id} names=${[a, b]} catalog=${catalog} seat=${viewer}
//     end=${{ version, winner }} at=${seq} onPick=${fn} />
//
// The words come from words/en-analysis.js: whoever draws this loads them first
// (loadWords("analysis")).
import { html } from "htm/preact";
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { request } from "../api.js";
import { t } from "../words.js";
import { cardName, tokenName, wonderName } from "./describe.js";

const POLL_MS = 3000;
const READING_POLL_MS = 1000;  // while positions come in: the chart fills as they do
const GIVE_UP_MS = 3 * 60_000;

// One watch per game, whatever shows it (the result folded and shown again, say): its
// latest answer and who listens; asked again while the answer is "pending".
const watches = new Map();

function follow(gameId, listener) {
  let watch = watches.get(gameId);
  if (!watch) {
    watch = { state: { status: "pending" }, listeners: new Set(), since: Date.now() };
    watches.set(gameId, watch);
    ask(gameId, watch);
  }
  watch.listeners.add(listener);
  listener(watch.state);
  return () => watch.listeners.delete(listener);
}

async function ask(gameId, watch) {
  let state;
  try {
    state = await request("GET", `/api/games/${encodeURIComponent(gameId)}/analysis`);
  } catch (error) {
    // `not_over`: the game's end is still being written; a failure on the way: asked again.
    state = error?.code === "not_found" ? { status: "missing" } : { status: "pending" };
  }
  const before = watch.state;
  if ((state.read ?? 0) > (before.read ?? 0)) watch.since = Date.now();  // moving on: not late
  else if (state.status === "pending" && before.read) state = before;  // a failed ask: keep the chart
  if (state.status === "pending" && Date.now() - watch.since >= GIVE_UP_MS) state = { status: "late" };
  watch.state = state;
  for (const listener of watch.listeners) listener(state);
  if (state.status === "pending") setTimeout(() => ask(gameId, watch), state.total ? READING_POLL_MS : POLL_MS);
}

const percent = (chance) => Math.round(Math.max(0, Math.min(1, chance)) * 100);

// The move the computer preferred, in words, from its notation (docs/engine.md).
function moveText(notation, catalog, names) {
  const ctx = { catalog: catalog ?? {} };
  const [kind, first, second] = String(notation ?? "").split(":");
  switch (kind) {
    case "pick": return t("analysis.move.pick", { wonder: wonderName(ctx, first) });
    case "build": return t("analysis.move.build", { card: cardName(ctx, first) });
    case "discard": return t("analysis.move.discard", { card: cardName(ctx, first) });
    case "wonder": return t("analysis.move.wonder", { wonder: wonderName(ctx, first), card: cardName(ctx, second) });
    case "progress": return t("analysis.move.progress", { token: tokenName(ctx, first) });
    case "destroy": return t("analysis.move.destroy", { card: cardName(ctx, first) });
    case "mausoleum": return t("analysis.move.mausoleum", { card: cardName(ctx, first) });
    case "starter": return t("analysis.move.starter", { name: names[Number(first)] ?? first });
    default: return notation ?? "";
  }
}

const HEIGHT = { narrow: 150, wide: 180 };
const MARGIN = { left: 40, right: 10, top: 8, bottom: 22 };
const AXIS_GAP = 5;  // between a percentage and the plot
const AXIS_ROOM = AXIS_GAP + 4;  // the gap, and some air at the chart's left edge
const TICK_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200];

// A chart's label cannot wrap (SVG text): a name too long for the plot is shortened there,
// by as few letters as its width asks (measured in the label's own font), and shown whole in
// the caption and the list of mistakes.
function SideLabel({ className, x, y, name, room }) {
  const label = useRef(null);
  const [font, setFont] = useState("");
  useLayoutEffect(() => {
    const style = getComputedStyle(label.current);
    setFont(style.font || `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`);
  }, []);
  const text = useMemo(() => (font ? fitted(name, room, font) : ahead(name)), [name, room, font]);
  return html`<text ref=${label} class=${className} x=${x} y=${y}>${text}</text>`;
}

const ahead = (name) => t("analysis.ahead", { name });
let measure = null;  // a canvas's text measure: nothing drawn, nothing laid out
// A name's letters as one sees them (graphemes): a cut never leaves half of an emoji.
const graphemes = globalThis.Intl?.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
const letters = (text) => (graphemes ? [...graphemes.segment(text)].map((part) => part.segment) : [...text]);

function fitted(name, room, font) {
  measure ??= document.createElement("canvas").getContext("2d");
  measure.font = font;
  const fits = (text) => measure.measureText(text).width <= room;
  const shown = letters(name);
  if (shown.length < 2 || fits(ahead(name))) return ahead(name);
  const cut = (n) => ahead(`${shown.slice(0, n).join("").trimEnd()}…`);
  // The most letters whose label fits; one at least (a chart too narrow for even that is
  // narrower than any screen).
  let low = 1;
  let high = shown.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(cut(middle))) low = middle;
    else high = middle - 1;
  }
  return cut(low);
}

// `until`: the version the x axis ends at, while the positions read so far end before it.
function Chart({ gameId, positions, mistakes, names, side, at, onPick, until = null }) {
  const box = useRef(null);
  const [width, setWidth] = useState(0);
  // The widest percentage on the y axis, as drawn: a language (or the pseudo-locale) may
  // write it wider than the margin's room, which then grows to hold it whole.
  const [axisWidth, setAxisWidth] = useState(0);
  useLayoutEffect(() => {
    const element = box.current;
    const measure = () => setWidth(Math.floor(element.clientWidth));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  useLayoutEffect(() => {  // after every render: three labels, cheap to measure
    const labels = [...(box.current?.querySelectorAll(".an-y") ?? [])];
    const widest = Math.ceil(Math.max(0, ...labels.map((label) => label.getComputedTextLength())));
    if (widest !== axisWidth) setAxisWidth(widest);
  });
  if (!width) return html`<div class="an-chart" ref=${box}></div>`;

  const left = Math.max(MARGIN.left, axisWidth + AXIS_ROOM);
  const height = width < 480 ? HEIGHT.narrow : HEIGHT.wide;
  const plot = { width: Math.max(10, width - left - MARGIN.right), height: height - MARGIN.top - MARGIN.bottom };
  const first = positions[0].version;
  const lastRead = positions[positions.length - 1].version;
  const last = Math.max(lastRead, until ?? lastRead);
  const span = Math.max(1, last - first);
  const x = (version) => left + (plot.width * (version - first)) / span;
  const y = (chance) => MARGIN.top + plot.height * (1 - chance);
  const even = y(0.5);
  const line = positions.map((p) => `${x(p.version).toFixed(1)},${y(p.seat0).toFixed(1)}`).join(" ");
  // The area between the line and the even line, each half in the colour of its side.
  const area = `${x(first).toFixed(1)},${even} ${line} ${x(lastRead).toFixed(1)},${even}`;
  const step = TICK_STEPS.find((s) => span / s <= plot.width / 48) ?? span;
  const ticks = [];
  for (let v = Math.ceil(first / step) * step; v <= last; v += step) ticks.push(v);
  const chances = positions.map((p) => percent(p.seat0));
  const ids = { title: `an-title-${gameId}`, desc: `an-desc-${gameId}`, top: `an-top-${gameId}`, bottom: `an-bottom-${gameId}` };
  const byVersion = new Map(positions.map((p) => [p.version, p]));

  const pick = (event) => {
    if (!onPick) return;
    const bounds = event.currentTarget.getBoundingClientRect();
    const px = ((event.clientX - bounds.left) * width) / bounds.width;
    const version = Math.round(first + ((px - left) / plot.width) * span);
    onPick(Math.max(first, Math.min(last, version)));
  };

  return html`<div class="an-chart" ref=${box}>
    <svg width=${width} height=${height} viewBox=${`0 0 ${width} ${height}`} role="img"
        class=${onPick ? "is-pickable" : ""} aria-labelledby=${`${ids.title} ${ids.desc}`}
        data-first=${first} data-last=${last} onClick=${pick}>
      <title id=${ids.title}>${t("analysis.chart", { name: names[0] })}</title>
      <desc id=${ids.desc}>${t("analysis.desc", { name: names[0], n: lastRead, first: chances[0],
        last: chances[chances.length - 1], low: Math.min(...chances), high: Math.max(...chances) })}</desc>
      <defs>
        <clipPath id=${ids.top}><rect x=${left} y=${MARGIN.top} width=${plot.width} height=${plot.height / 2} /></clipPath>
        <clipPath id=${ids.bottom}><rect x=${left} y=${even} width=${plot.width} height=${plot.height / 2} /></clipPath>
      </defs>
      <rect class=${`an-band ${side(0)}`} x=${left} y=${MARGIN.top} width=${plot.width} height=${plot.height / 2} />
      <rect class=${`an-band ${side(1)}`} x=${left} y=${even} width=${plot.width} height=${plot.height / 2} />
      <polygon class=${`an-area ${side(0)}`} points=${area} clip-path=${`url(#${ids.top})`} />
      <polygon class=${`an-area ${side(1)}`} points=${area} clip-path=${`url(#${ids.bottom})`} />
      ${ticks.map((v) => html`<line class="an-grid" x1=${x(v)} x2=${x(v)} y1=${MARGIN.top} y2=${MARGIN.top + plot.height} />
        <text class="an-axis" x=${x(v)} y=${height - 6} text-anchor="middle">${v}</text>`)}
      ${[1, 0.5, 0].map((chance) => html`<text class="an-axis an-y" x=${left - AXIS_GAP} y=${y(chance) + 4}
        text-anchor="end">${t("analysis.percent", { n: chance * 100 })}</text>`)}
      <line class="an-even" x1=${left} x2=${left + plot.width} y1=${even} y2=${even} />
      ${at !== null && at >= first && at <= last ? html`<line class="an-at" x1=${x(at)} x2=${x(at)} y1=${MARGIN.top} y2=${MARGIN.top + plot.height} />` : null}
      <polyline class="an-line" points=${line} />
      ${mistakes.filter((m) => byVersion.has(m.version)).map((m) => html`<circle class=${`an-mistake ${side(m.seat)}`}
          cx=${x(m.version)} cy=${y(byVersion.get(m.version).seat0)} r="5" data-version=${m.version}>
        <title>${t("analysis.marked", { n: m.version, name: names[m.seat], drop: percent(m.drop) })}</title></circle>`)}
      <${SideLabel} className=${`an-side ${side(0)}`} x=${left + 6} y=${MARGIN.top + 14}
        name=${names[0]} room=${plot.width - 12} />
      <${SideLabel} className=${`an-side ${side(1)}`} x=${left + 6} y=${MARGIN.top + plot.height - 6}
        name=${names[1]} room=${plot.width - 12} />
    </svg>
  </div>`;
}

export function Analysis({ gameId, names, catalog, seat = null, end = null, at = null, onPick = null, heading = "h3" }) {
  const [state, setState] = useState(() => watches.get(gameId)?.state ?? { status: "pending" });
  useEffect(() => follow(gameId, setState), [gameId]);
  const Heading = heading;
  const title = html`<${Heading} id=${`an-heading-${gameId}`} class="an-title">${t("analysis.title")}<//>`;
  const frame = (...body) => html`<section class="an" id="analysis" aria-labelledby=${`an-heading-${gameId}`}
      data-status=${state.status}>${title}${body}</section>`;
  // Each seat's colour as the table shows it: the viewer's below, the other's above.
  const bottom = seat ?? 0;
  const side = (s) => (s === bottom ? "an-bottom" : "an-top");
  switch (state.status) {
    case "pending":
      if (!state.total) {
        return frame(html`<p class="an-status" role="status"><span class="spinner" aria-hidden="true"></span> ${t("analysis.pending")}</p>`);
      }
      return frame(
        html`<p class="an-status an-progress" role="status"><span class="spinner" aria-hidden="true"></span>
          ${t("analysis.progress", { read: state.read, n: state.total })}
          <progress max=${state.total} value=${state.read} aria-hidden="true"></progress></p>`,
        state.positions?.length ? html`<p class="an-caption">${t("analysis.caption", { name: names[0] })}</p>
          <${Chart} gameId=${gameId} positions=${state.positions} mistakes=${[]} names=${names} side=${side}
            at=${at} onPick=${onPick} until=${end?.version ?? state.total} />` : null,
      );
    case "failed":
    case "too_short":
    case "late":
      return frame(html`<p class="an-status" role="status">${t(`analysis.${state.status}`)}</p>`);
    case "done":
      break;
    default:
      return null;  // no such game, or an answer this page does not know
  }
  const positions = [...(state.positions ?? [])];
  const lastSeen = positions[positions.length - 1]?.version ?? 0;
  if (end && end.version > lastSeen) {  // the game over: seat 0's result
    positions.push({ version: end.version, seat0: end.winner === 0 ? 1 : end.winner === 1 ? 0 : 0.5 });
  }
  if (positions.length < 2) return frame(html`<p class="an-status">${t("analysis.too_short")}</p>`);
  const mistakes = state.mistakes ?? [];
  const line = (m) => t("analysis.mistake", {
    n: m.version, name: names[m.seat], drop: percent(m.drop), best: m.best ? moveText(m.best, catalog, names) : "",
  });
  return frame(
    html`<p class="an-caption">${t("analysis.caption", { name: names[0] })}</p>`,
    html`<${Chart} gameId=${gameId} positions=${positions} mistakes=${mistakes} names=${names} side=${side} at=${at} onPick=${onPick} />`,
    mistakes.length
      ? html`<p class="an-sub">${t("analysis.mistakes")}${onPick ? html` <span class="an-hint">${t("analysis.pick_hint")}</span>` : null}</p>
        <ol class="an-mistakes">${mistakes.map((m) => html`<li key=${m.version} class=${side(m.seat)} data-version=${m.version}>
          ${onPick ? html`<button type="button" class="link-button an-pick" data-version=${m.version}
              aria-current=${at === m.version ? "step" : null} onClick=${() => onPick(m.version)}>${line(m)}</button>` : line(m)}</li>`)}</ol>`
      : html`<p class="an-sub">${t("analysis.no_mistakes")}</p>`,
  );
}
