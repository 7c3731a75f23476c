// The side column: the last move in words, then the game log, one numbered entry per move
// (the version it made), newest first.
import { html } from "htm/preact";
import { t } from "../words.js";
import { moveSentences } from "./describe.js";
import { pure } from "./pure.js";

export function LastMove({ ctx }) {
  const move = ctx.lastMove;
  if (!move) return null;
  const sentences = moveSentences(ctx, ctx.events);
  if (!sentences.length && move.notation) sentences.push(`${ctx.name(move.seat)}: ${move.notation}`);
  if (!sentences.length) return null;
  const mine = move.seat === ctx.seat;
  return html`<section class=${`bd-last${mine ? " is-mine" : " is-theirs"}`} aria-label=${t("last.label")}>
    <h3 class="bd-last-title">${mine ? t("last.yours") : t("last.theirs", { name: ctx.name(move.seat) })}</h3>
    <p class="bd-last-list">${sentences.join(" ")}</p>
  </section>`;
}

// A move's entry in the log, said once (when it arrives) as the viewer sees it.
export function logText(ctx, events) {
  const sentences = moveSentences(ctx, events);
  return sentences.length ? sentences.join(" ") : t("log.empty_move");
}

// `entries`: [{ version, text }] oldest first; a new array when a move is added, so the
// log is drawn again only then.
export const Log = pure(drawLog);

// An entry never changes once written.
const LogEntry = pure(({ version, text }) => html`<li value=${version} data-version=${version}>${text}</li>`);

function drawLog({ entries }) {
  return html`<section class="bd-log-box" aria-labelledby="log-title" tabindex="0">
    <h2 id="log-title">${t("log.title")}</h2>
    <ol id="log" class="log" reversed>
      ${entries.slice().reverse().map((entry) => html`<${LogEntry} key=${entry.version} version=${entry.version} text=${entry.text} />`)}
    </ol>
  </section>`;
}
