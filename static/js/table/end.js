// The end of the game: a banner over the table with the winner, the kind of victory and the
// score pad by category (noting that a supremacy makes points irrelevant), and the rematch
// controls (`children`). It can be folded away to look at the final table.
import { html } from "htm/preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { t } from "../words.js";
import { SCORE_ROWS, who } from "./describe.js";

export function ResultBanner({ ctx, children }) {
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
  const kind = winner === null ? t("end.kind_shared", { victory })
    : winner === ctx.seat ? t("end.kind_you", { victory }) : t("end.kind_them", { name: who(ctx, winner), victory });
  const scores = outcome.scores ?? ctx.view.players.map((p) => p.score);
  const order = [ctx.bottom, ctx.top];
  let note = null;
  if (outcome.victory !== "civilian") note = t("end.supremacy_note");
  else if (scores[0]?.total === scores[1]?.total) note = winner === null ? t("end.tie_shared") : t("end.tie_blue");
  const seatClass = (seat) => (seat === ctx.bottom ? "bd-seat-bottom" : "bd-seat-top");
  if (folded) {
    return html`<div class="bd-result-folded" role="region" aria-label=${title} ref=${ref}>
      <strong>${title}</strong> <span>${kind}</span>
      <button type="button" class="secondary" data-focus-key="result-toggle" onClick=${() => ctx.ui.foldResult(false)}>${t("end.show")}</button>
      ${children}
    </div>`;
  }
  return html`<section id="end-screen" class=${`bd-outcome${winner === ctx.seat ? " is-win" : winner === null ? " is-shared" : ""}`}
      aria-labelledby="bd-outcome-title" ref=${ref} data-victory=${outcome.victory}>
    <h2 id="bd-outcome-title" class="bd-outcome-title" tabindex="-1">${title}</h2>
    <p class="bd-outcome-kind">${kind}</p>
    ${note ? html`<p class="bd-outcome-note">${note}</p>` : null}
    <table class="bd-score">
      <caption>${t("end.score")}</caption>
      <thead><tr><th scope="col">${t("end.category")}</th>${order.map((seat) => html`<th scope="col" class=${seatClass(seat)}>
        ${ctx.name(seat)}${seat === ctx.seat ? ` ${t("you.marker")}` : ""}${seat === winner ? html`<span class="bd-crown"> ${t("end.winner")}</span>` : null}</th>`)}</tr></thead>
      <tbody>${SCORE_ROWS.map((key) => html`<tr key=${key} class=${key === "total" ? "is-total" : `bd-score-row--${key}`}>
        <th scope="row"><span class=${`bd-score-swatch bd-score-swatch--${key}`} aria-hidden="true"></span>${t(`score.${key}`)}</th>
        ${order.map((seat) => html`<td>${scores[seat]?.[key] ?? 0}</td>`)}</tr>`)}</tbody>
    </table>
    <div class="bd-outcome-actions">
      ${children}
      <button type="button" class="secondary" data-focus-key="result-toggle" onClick=${() => ctx.ui.foldResult(true)}>${t("end.hide")}</button>
    </div>
  </section>`;
}
