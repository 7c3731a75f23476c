// The end of the game: a banner over the table with the winner, the kind of victory and the
// score pad by category (noting that a supremacy makes points irrelevant), the game's
// analysis once the computer has read it (analysis.js; given the game's id), and the
// rematch controls (`children`). It can be folded away to look at the final table.
import { html } from "htm/preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { t } from "../words.js";
import { Analysis } from "./analysis.js";
import { FORFEITS, SCORE_ROWS, who } from "./describe.js";

// One seat's rating before and after a rated game: "Ann: rating 1500 → 1662 (+162)".
function ratingChange(ctx, seat) {
  const change = ctx.ratings.find((entry) => entry.seat === seat);
  if (!change) return null;
  return html`<span class="bd-rating-change" data-seat=${seat}>${t("end.rating", {
    name: ctx.name(seat), before: change.before, after: change.after })}</span>`;
}

export function ResultBanner({ ctx, gameId = null, version = null, children }) {
  const ref = useRef(null);
  const outcome = ctx.view.outcome;
  const folded = ctx.ui.resultFolded;
  useLayoutEffect(() => {
    // The result takes the focus once, when it appears or is unfolded (not on every later
    // update); folded, the focus goes to the button that shows it again.
    if (!ref.current || ref.current.contains(document.activeElement)) return;
    if (folded) ref.current.querySelector("button")?.focus({ preventScroll: true });
    else ref.current.querySelector("h2")?.focus({ preventScroll: true });
  }, [folded]);
  if (!outcome) return null;
  const winner = outcome.winner ?? null;
  const victory = t(`victory.${outcome.victory}`);
  const title = winner === null ? t("end.shared") : winner === ctx.seat ? t("end.you_win")
    : t("end.they_win", { name: ctx.name(winner) });
  // A player who lost by a forfeit is told it their way: their clock, their resignation.
  const lostOwn = winner !== null && ctx.seat !== null && winner !== ctx.seat && FORFEITS.includes(outcome.victory);
  const kind = winner === null ? t("end.kind_shared", { victory })
    : winner === ctx.seat ? t("end.kind_you", { victory })
      : lostOwn ? t(`end.lost_${outcome.victory}`, { name: who(ctx, winner) })
        : t("end.kind_them", { name: who(ctx, winner), victory });
  const scores = outcome.scores ?? ctx.view.players.map((p) => p.score);
  const order = [ctx.bottom, ctx.top];
  let note = null;
  if (FORFEITS.includes(outcome.victory)) note = t("end.forfeit_note");
  else if (outcome.victory !== "civilian") note = t("end.supremacy_note");
  else if (scores[0]?.total === scores[1]?.total) note = winner === null ? t("end.tie_shared") : t("end.tie_blue");
  const seatClass = (seat) => (seat === ctx.bottom ? "bd-seat-bottom" : "bd-seat-top");
  if (folded) {
    return html`<div class="bd-result-folded" role="region" aria-label=${title} ref=${ref}>
      <strong>${title}</strong> <span>${kind}</span>
      <button type="button" class="secondary" data-focus-key="result-toggle" onClick=${() => ctx.ui.foldResult(false)}>${t("end.show")}</button>
      ${children}
    </div>`;
  }
  const analysed = gameId !== null;
  return html`<section id="end-screen" class=${`bd-outcome${winner === ctx.seat ? " is-win" : winner === null ? " is-shared" : ""}`}
      aria-labelledby="bd-outcome-title" ref=${ref} data-victory=${outcome.victory}>
    <h2 id="bd-outcome-title" class="bd-outcome-title" tabindex="-1">${title}</h2>
    <p class="bd-outcome-kind">${kind}</p>
    ${note ? html`<p class="bd-outcome-note">${note}</p>` : null}
    ${ctx.ratings.length ? html`<p class="bd-outcome-ratings" id="rating-changes">${order.map((seat) => ratingChange(ctx, seat))}</p>` : null}
    <div class="bd-outcome-body">
    <table class="bd-score">
      <caption>${t("end.score")}</caption>
      <thead><tr><th scope="col">${t("end.category")}</th>${order.map((seat) => html`<th scope="col" class=${seatClass(seat)}>
        <span class="bd-name" title=${ctx.name(seat)}>${ctx.name(seat)}</span>${seat === ctx.seat ? ` ${t("you.marker")}` : ""}${seat === winner ? html`<span class="bd-crown"> ${t("end.winner")}</span>` : null}</th>`)}</tr></thead>
      <tbody>${SCORE_ROWS.map((key) => html`<tr key=${key} class=${key === "total" ? "is-total" : `bd-score-row--${key}`}>
        <th scope="row"><span class=${`bd-score-swatch bd-score-swatch--${key}`} aria-hidden="true"></span>${t(`score.${key}`)}</th>
        ${order.map((seat) => html`<td>${scores[seat]?.[key] ?? 0}</td>`)}</tr>`)}</tbody>
    </table>
    ${analysed ? html`<${Analysis} gameId=${gameId} names=${[ctx.name(0), ctx.name(1)]} catalog=${ctx.catalog} seat=${ctx.seat}
      end=${version === null ? null : { version, winner }} />` : null}
    </div>
    <div class="bd-outcome-actions">
      ${children}
      <button type="button" class="secondary" data-focus-key="result-toggle" onClick=${() => ctx.ui.foldResult(true)}>${t("end.hide")}</button>
    </div>
  </section>`;
}

// Under the result: offer, accept, decline or withdraw a rematch, or go to the one started
// (docs/lobby.md). ``seat`` is null for a spectator, who is only told. Against the computer
// (``computer``), which accepts at once, the offer is "Play again".
export function Rematch({ ctx, seat, rematch, declinedBy, withdrew, computer = false, path, send }) {
  const other = seat === null ? null : 1 - seat;
  const name = (s) => ctx.name(s);
  const sending = (type) => () => send(type);
  let parts = [];
  if (rematch.game_id) {
    parts = html`<span class="rematch-text">${t("rematch.started")}</span>
      <a id="rematch-link" class="button-link" href=${path}>${seat === null ? t("rematch.watch") : t("rematch.go")}</a>`;
  } else if (seat === null) {
    if (rematch.offered_by !== null) parts = html`<span class="rematch-text">${t("rematch.offered_by", { name: name(rematch.offered_by) })}</span>`;
    else if (declinedBy !== null) parts = html`<span class="rematch-text">${t(withdrew ? "rematch.withdrawn_by" : "rematch.declined_by", { name: name(declinedBy) })}</span>`;
  } else if (rematch.offered_by === null) {
    parts = html`${declinedBy === other ? html`<span class="rematch-text">${t(withdrew ? "rematch.withdrawn_by" : "rematch.declined_by", { name: name(other) })}</span>` : null}
      <button type="button" data-rematch="offer" onClick=${sending("rematch")}>${t(computer ? "rematch.play_again" : "rematch.offer")}</button>`;
  } else if (rematch.offered_by === seat) {
    parts = html`<span class="rematch-text">${t("rematch.waiting", { name: name(other) })}</span>
      <button type="button" class="secondary" data-rematch="withdraw" onClick=${sending("decline_rematch")}>${t("rematch.withdraw")}</button>`;
  } else {
    parts = html`<span class="rematch-text">${t("rematch.offers", { name: name(other) })}</span>
      <button type="button" data-rematch="accept" onClick=${sending("rematch")}>${t("rematch.accept")}</button>
      <button type="button" class="secondary" data-rematch="decline" onClick=${sending("decline_rematch")}>${t("rematch.decline")}</button>`;
  }
  const empty = Array.isArray(parts) && parts.length === 0;
  return html`<div id="rematch" class="rematch" role="region" aria-label=${t("rematch.title")} aria-live="polite"
      hidden=${empty} data-offered-by=${rematch.offered_by ?? ""}>${parts}</div>`;
}
