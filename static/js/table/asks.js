// What a player is asked during the game, and told of the answers: "resign?" once more
// before resigning, and a take-back asked for, accepted, declined or withdrawn
// (docs/protocol.md). Fetched the first time one is needed, with its words.
import { html } from "htm/preact";
import { t } from "../words.js";

export function Asks({ ctx, seat, takeBack, confirmResign, send, resign, keepPlaying }) {
  const other = seat === null ? null : 1 - seat;
  const offer = takeBack.offered_by;
  let words = null;
  if (offer !== null && offer === seat) {
    words = html`<span>${t("play.take_back_waiting", { name: ctx.name(other) })}</span>
      <button type="button" class="secondary" data-take-back="withdraw" onClick=${() => send("decline_take_back")}>${t("play.take_back_withdraw")}</button>`;
  } else if (offer !== null) {
    words = html`<span>${t("play.take_back_asks", { name: ctx.name(offer) })}</span>
      ${seat !== null ? html`<button type="button" data-take-back="accept" onClick=${() => send("accept_take_back")}>${t("play.take_back_accept")}</button>
      <button type="button" class="secondary" data-take-back="decline" onClick=${() => send("decline_take_back")}>${t("play.take_back_decline")}</button>` : null}`;
  } else if (takeBack.declined_by !== null) {
    const key = takeBack.withdrew ? "play.take_back_withdrawn"
      : seat !== null && takeBack.declined_by === other ? "play.take_back_declined_you" : "play.take_back_declined";
    words = html`<span>${t(key, { name: ctx.name(takeBack.declined_by) })}</span>`;
  }
  return html`
    ${words ? html`<p class="play-offer">${words}</p>` : null}
    ${seat !== null && confirmResign ? html`<p class="play-buttons">
      <span>${t("play.resign_confirm", { name: ctx.name(other) })}</span>
      <button type="button" class="danger" data-resign="yes" onClick=${resign}>${t("play.resign_yes")}</button>
      <button type="button" class="secondary" data-resign="no" onClick=${keepPlaying}>${t("play.resign_no")}</button>
    </p>` : null}`;
}
