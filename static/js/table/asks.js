// What a player is asked during the game, and told of the answers: "resign?" once more
// before resigning, a take-back asked for, accepted, declined or withdrawn, and the win to
// claim from an opponent who left (docs/protocol.md). Fetched the first time one is
// needed, with its words.
import { html } from "htm/preact";
import { Component } from "preact";
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
    const mine = seat !== null && takeBack.declined_by === seat;  // this page's player said no
    let key = "play.take_back_declined";
    if (takeBack.withdrew) key = mine ? "play.take_back_withdrawn_by_you" : "play.take_back_withdrawn";
    else if (mine) key = "play.take_back_declined_by_you";
    else if (seat !== null && takeBack.declined_by === other) key = "play.take_back_declined_you";
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

// The opponent left a game played live: after `claimAfter` seconds of absence the player
// may claim the win, or keep waiting. `since` is when the page saw them go
// (performance.now()); the server counts from their last socket's closing and says how
// long is left should the page ask too early.
export class Absence extends Component {
  componentDidMount() {
    this.timer = setInterval(() => this.forceUpdate(), 1000);
  }

  componentWillUnmount() {
    clearInterval(this.timer);
  }

  // `folded`: the player chose to keep waiting; the claim stays at hand, in a word.
  render({ ctx, seat, since, claimAfter, folded, claim, keepWaiting }) {
    const name = ctx.name(1 - seat);
    const wait = Math.ceil(claimAfter - (performance.now() - since) / 1000);
    if (wait > 0) {
      // Not read out every second: the question is, once it comes.
      return html`<p class="play-offer" id="absence" data-claim="wait" aria-live="off">${t("play.away_wait", { name, n: wait })}</p>`;
    }
    if (folded) {
      return html`<p class="play-offer" id="absence" data-claim="folded">
        <button type="button" class="secondary" data-claim-win="yes" onClick=${claim}>${t("play.claim_win")}</button></p>`;
    }
    return html`<p class="play-offer" id="absence" data-claim="ready">
      <span>${t("play.away_claim", { name })}</span>
      <button type="button" data-claim-win="yes" onClick=${claim}>${t("play.claim_win")}</button>
      <button type="button" class="secondary" data-claim-win="wait" onClick=${keepWaiting}>${t("play.keep_waiting")}</button>
    </p>`;
  }
}
