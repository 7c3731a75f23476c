// Motion that tells the story of a move: a taken card travels from the structure to its
// city (its colour's stack, or the wonder it is tucked under) or to the discard pile, a
// revealed card flips (CSS, .is-new), the pawn slides (CSS transition), counts roll.
// Nothing moves on the first paint or after a reconnect (only for a live `update`), and
// nothing at all when the player asks for reduced motion.
import { html } from "htm/preact";
import { Component, createRef } from "preact";

const reduced = typeof matchMedia === "function"
  ? matchMedia("(prefers-reduced-motion: reduce)") : { matches: true };

export function motionAllowed() {
  return !reduced.matches && typeof Element.prototype.animate === "function";
}

const TRAVEL_MS = 520;
const ROLL_MS = 450;

// Where the cards a move takes are, before the update is drawn (and removes them).
export function snapshot(root, events) {
  const places = new Map();
  if (!motionAllowed()) return places;
  for (const e of events) {
    if (!["card_built", "card_discarded", "wonder_built"].includes(e.type)) continue;
    const key = `card:${e.card}`;
    const element = root.querySelector(`[data-motion-key="${CSS.escape(key)}"]`);
    if (element) places.set(key, { rect: element.getBoundingClientRect(), element });
  }
  return places;
}

// Where each event's card goes, as the key of the element it lands on.
function destination(e) {
  switch (e.type) {
    case "card_built": return e.color ? `stack:${e.seat}:${e.color}` : null;
    case "card_discarded": return "discard";
    case "wonder_built": return `wonder:${e.wonder}`;
    default: return null;
  }
}

// After an update is drawn: each card the move took flies from where it was to where it
// went. `before` is snapshot(root) taken before drawing; `colorOf(card)` gives a card's
// colour (to find its stack).
export function playMove(root, before, events, colorOf) {
  if (!motionAllowed() || !before) return;
  for (const e of events) {
    // A card turned face up flips over.
    if (e.type !== "card_revealed") continue;
    const card = root.querySelector(`[data-motion-key="${CSS.escape(`card:${e.card}`)}"]`);
    card?.animate([{ transform: "rotateY(90deg)" }, { transform: "rotateY(0deg)" }],
      { duration: 380, delay: TRAVEL_MS / 2, easing: "ease-out", fill: "backwards" });
  }
  for (const e of events) {
    if (!["card_built", "card_discarded", "wonder_built"].includes(e.type)) continue;
    const from = before.get(`card:${e.card}`);
    const target = destination({ ...e, color: colorOf(e.card) });
    const to = target ? root.querySelector(`[data-motion-key="${CSS.escape(target)}"]`) : null;
    if (!from || !to) continue;
    fly(from, to.getBoundingClientRect());
    to.animate([{ transform: "scale(1)" }, { transform: "scale(1.12)" }, { transform: "scale(1)" }],
      { duration: 300, delay: TRAVEL_MS - 80, easing: "ease-out" });
  }
}

// A copy of the card as it was, moved over the page from its old place to the new one.
function fly(from, toRect) {
  // A plain picture of the card: no button, no data-card, nothing to click or find.
  const copy = document.createElement("div");
  // Cloned, not copied as HTML: a style attribute parsed from HTML would break the
  // server's Content-Security-Policy (style-src 'self'); a clone keeps it as it was.
  copy.append(...[...from.element.childNodes].map((node) => node.cloneNode(true)));
  copy.className = from.element.className;
  copy.classList.remove("is-playable");
  copy.classList.add("bd-flying");
  copy.setAttribute("aria-hidden", "true");
  const { left, top, width, height } = from.rect;
  Object.assign(copy.style, {
    position: "fixed", left: `${left}px`, top: `${top}px`, width: `${width}px`,
    height: `${height}px`, margin: "0", zIndex: "1000", pointerEvents: "none",
  });
  document.body.append(copy);
  const dx = toRect.left + toRect.width / 2 - (left + width / 2);
  const dy = toRect.top + toRect.height / 2 - (top + height / 2);
  const scale = Math.max(0.25, Math.min(1, toRect.height / height));
  const flight = copy.animate([
    { transform: "translate(0, 0) scale(1)", opacity: 1 },
    { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: 0.35 },
  ], { duration: TRAVEL_MS, easing: "cubic-bezier(.3,.7,.4,1)" });
  flight.onfinish = () => copy.remove();
  flight.oncancel = () => copy.remove();
}

// Whether the update being drawn is a live move (motion) or a first paint or resync (none).
let live = false;
export function drawing(isLive, draw) {
  live = isLive;
  try {
    draw();
  } finally {
    live = false;
  }
}

// A number that rolls from its old value to the new one (coins, points) on a live move.
// Its text is written here, not by the renderer, so the two never fight over it. (The
// table's first paint uses no hooks: preact/hooks comes with the dialogs only.)
export class Rolling extends Component {
  span = createRef();
  shown = null;
  stop = null;

  componentDidMount() {
    this.roll();
  }

  componentDidUpdate(previous) {
    if (previous.value !== this.props.value) this.roll();
  }

  componentWillUnmount() {
    this.stop?.();
  }

  roll() {
    this.stop?.();
    this.stop = null;
    const element = this.span.current;
    const { value } = this.props;
    const from = this.shown;
    this.shown = value;
    if (from === null || from === value || !live || !motionAllowed()) {
      element.textContent = String(value);
      return;
    }
    const start = performance.now();
    let frame = 0;
    const step = (now) => {
      const progress = Math.min(1, (now - start) / ROLL_MS);
      element.textContent = String(Math.round(from + (value - from) * progress));
      if (progress < 1) frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    // A pulse, green up or red down (the Web Animations API: no layout forced mid-render).
    element.animate([{ transform: "scale(1)" }, { transform: "scale(1.35)", color: value > from ? "#1d6b36" : "#9a2a20" },
      { transform: "scale(1)" }], { duration: ROLL_MS, easing: "ease-out" });
    this.stop = () => {
      cancelAnimationFrame(frame);
      element.textContent = String(value);
    };
  }

  render() {
    return html`<span class="bd-rolling" aria-hidden="true" ref=${this.span}></span>`;
  }
}
