// The players' clocks (docs/protocol.md, "Clocks"). The server's figures are the truth:
// each message says what each seat had left as it was sent; the page counts the running
// one down from the moment it heard that, and draws it again a few times a second.
// Fetched with its words once a game turns out to be timed (game.js).
import { html } from "htm/preact";
import { Component } from "preact";
import { clockText, controlText } from "../timing.js";
import { t } from "../words.js";

// The clocks' looks come with them (the first load of an untimed game carries none).
const style = new CSSStyleSheet();
style.replaceSync(`
.clocks { display: flex; flex-wrap: wrap; min-width: 0; gap: 0.4rem; align-items: center; font-variant-numeric: tabular-nums; }
.clock { display: inline-flex; gap: 0.35rem; align-items: baseline; padding: 0.1rem 0.55rem;
  border: 1px solid var(--line); border-radius: 6px; background: var(--panel); font-size: 0.9rem; }
.clock .clock-name { color: var(--muted); max-width: 9rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.clock .clock-time { font-weight: 700; font-size: 1.05rem; min-width: 3.2rem; text-align: right; }
.clock.running { border-color: #1f6f43; box-shadow: inset 0 0 0 1px #1f6f43; background: #eef8f1; }
.clock.low .clock-time { color: #b3261e; }
.clock.low.running { border-color: #b3261e; box-shadow: inset 0 0 0 1px #b3261e; background: #fdeceb; }
`);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, style];

const LOW_REAL_TIME = 30_000;   // at most: 30 s, or a tenth of the bank
const LOW_CORRESPONDENCE = 6 * 3_600_000;
const TICK = 200;

function lowMark(control) {
  if (control?.kind === "correspondence") return LOW_CORRESPONDENCE;
  return Math.min(LOW_REAL_TIME, ((control?.minutes ?? 5) * 60_000) / 10);
}

// The time each seat has left now: `clock` is the last message's, heard at `clock.at`
// (performance.now()).
export function leftNow(clock, now = performance.now()) {
  return clock.remaining.map((ms, seat) => (seat === clock.running ? Math.max(0, ms - (now - clock.at)) : ms));
}

// <Clocks clock=${{ remaining, running, control, at }} ctx=${ctx} />
export class Clocks extends Component {
  componentDidMount() {
    this.timer = setInterval(() => {
      if (this.props.clock.running !== null && document.visibilityState !== "hidden") this.forceUpdate();
    }, TICK);
  }

  componentWillUnmount() {
    clearInterval(this.timer);
  }

  render({ clock, ctx }) {
    const left = leftNow(clock);
    const low = lowMark(clock.control);
    // The viewer's own clock last, as their city is drawn last (a spectator: seat 1's).
    const order = ctx.seat === 0 ? [1, 0] : [0, 1];
    return html`<div id="clocks" class="clocks" title=${t("control.title", { control: controlText(clock.control) })}>
      ${order.map((seat) => {
        const running = clock.running === seat;
        const isLow = left[seat] <= low;
        const time = clockText(left[seat]);
        return html`<span role="timer" class=${`clock seat-${seat}${running ? " running" : ""}${isLow ? " low" : ""}`}
            data-seat=${seat} data-running=${running ? "yes" : "no"} data-low=${isLow ? "yes" : "no"}
            aria-label=${t(running ? "clock.label_running" : "clock.label", { name: ctx.name(seat), time })}>
          <span class="clock-name">${ctx.name(seat)}</span> <span class="clock-time">${time}</span></span>`;
      })}
    </div>`;
  }
}
