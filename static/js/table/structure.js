// The age structure, laid out as on the table (rows overlap the row above), sized to the
// room it has (CSS container units, table.css). An accessible card the viewer may take is a
// <button data-card> that opens its options; every accessible face-up card shows the
// viewer's price; the slot the last move emptied keeps a ghost saying what happened.
import { html } from "htm/preact";
import { Component, cloneElement, createRef } from "preact";
import { t } from "../words.js";
import { Badge, CardFace, longestWord, PriceTag, SpokenAs } from "./cards.js";
import {
  backLabel, backWords, cardInfo, cardName, describeCard, priceWords, roman, who, wonderName,
} from "./describe.js";
import { CardBack } from "./glyphs.js";
import { pure } from "./pure.js";

export function Structure({ ctx }) {
  const { view } = ctx;
  const slots = view.structure ?? [];
  const maxX = Math.max(0, ...slots.map((slot) => slot.x));
  const maxRow = Math.max(0, ...slots.map((slot) => slot.row));
  const taken = ctx.newAge ? new Map() : takenByLastMove(ctx.events);
  const myPick = ctx.myTurn && ctx.decision?.kind === "play_card";
  const cleared = slots.length > 0 && slots.every((slot) => slot.taken);
  // tabindex -1: where the keyboard lands when the focused card was taken (game.js).
  return html`<section class=${`bd-structure-wrap${myPick ? " is-my-pick" : ""}${cleared ? " is-cleared" : ""}`} aria-labelledby="bd-structure-title" tabindex="-1">
    <h2 id="bd-structure-title" class="bd-sr">${t("structure.title", { roman: roman(view.age) })}</h2>
    ${myPick ? html`<p class="bd-structure-help">${t("structure.help")}</p>` : null}
    ${cleared ? html`<p class="bd-structure-cleared">${t("structure.cleared")}</p>` : null}
    <${RoomFor}><div class="bd-structure-area">
      <ul class=${`bd-structure bd-structure--age${view.age}`} style=${`--max-x:${maxX};--max-row:${maxRow}`}
          aria-label=${t("structure.label", { roman: roman(view.age) })}>
        ${slots.map((slot, i) => {
          if (slot.taken && !taken.has(i)) return null;
          const style = `--x:${slot.x};--row:${slot.row};z-index:${slot.row + 1}`;
          if (slot.taken) {
            return html`<li key=${`ghost:${i}`} class="bd-slot bd-slot--ghost" style=${style}><${Ghost} ctx=${ctx} e=${taken.get(i)} /></li>`;
          }
          return html`<li key=${`slot:${i}`} class="bd-slot" style=${style}><${SlotCard} ctx=${ctx} slot=${slot} sig=${slotSignature(ctx, slot)} /></li>`;
        })}
      </ul>
    </div><//>
  </section>`;
}

// Draws its one child and tells the style sheet the room that child has (its content box),
// whenever it changes; the cards are sized from it (table.css).
class RoomFor extends Component {
  area = createRef();

  componentDidMount() {
    const element = this.area.current;
    const write = (width, height) => {
      if (width <= 0 || height <= 0) return;  // hidden (an age with no card left): keep the last
      element.style.setProperty("--room-w", `${Math.floor(width)}px`);
      element.style.setProperty("--room-h", `${Math.floor(height)}px`);
    };
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    write(box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      box.height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom));
    this.observer = new ResizeObserver(([entry]) => write(entry.contentRect.width, entry.contentRect.height));
    this.observer.observe(element);
  }

  componentWillUnmount() {
    this.observer?.disconnect();
  }

  render({ children }) {
    return cloneElement(children, { ref: this.area });
  }
}

// The slots the last move emptied, with the event that emptied each.
function takenByLastMove(events) {
  const taken = new Map();
  for (const e of events) {
    if ((e.type === "card_built" || e.type === "card_discarded" || e.type === "wonder_built")
        && Number.isInteger(e.slot)) taken.set(e.slot, e);
  }
  return taken;
}

function Ghost({ ctx, e }) {
  const how = e.type === "card_built" ? t("ghost.built") : e.type === "card_discarded" ? t("ghost.discarded")
    : t("ghost.wonder", { wonder: wonderName(ctx, e.wonder) });
  const text = t("ghost.took", { who: who(ctx, e.seat), card: cardName(ctx, e.card), how });
  return html`<div class="bd-ghost" role="note" aria-label=${t("ghost.last_move", { what: text })}>
    <span class="bd-ghost-who" aria-hidden="true">${who(ctx, e.seat)}</span>
    <span class="bd-ghost-card" style=${{ "--word": longestWord(cardName(ctx, e.card)) }} aria-hidden="true">${cardName(ctx, e.card)}</span>
    <span class="bd-ghost-verb" aria-hidden="true">${how}</span>
  </div>`;
}

// Everything a slot's card is drawn from: a card whose signature did not change is left
// alone by an update (most of them, on most moves).
function slotSignature(ctx, slot) {
  const price = slot.accessible ? ctx.prices.cards?.[slot.card] : null;
  return [slot.card, slot.face_up, slot.revealed, slot.accessible, slot.back, playable(ctx, slot),
    ctx.revealed.has(slot.slot),
    price ? [price.total, price.trade, price.chain, price.affordable].join() : ""].join("|");
}

function playable(ctx, slot) {
  return ctx.myTurn && ctx.decision?.kind === "play_card" && slot.accessible && ctx.cardOptions.has(slot.card);
}

const SlotCard = pure(drawSlotCard, (a, b) => a.sig === b.sig);

function drawSlotCard({ ctx, slot }) {
  if (!slot.face_up && slot.revealed && slot.card) {
    // Only an admin's view names a face-down card: drawn face up, marked as face down.
    const card = cardInfo(ctx, slot.card);
    const label = t("card.hidden_from_players", { back: backWords(slot.back), card: describeCard(ctx, slot.card) });
    return html`<div class=${`bd-card bd-card--${card.color} is-revealed`} role="img" aria-label=${label} title=${label} data-revealed-card=${slot.card}>
      <${CardFace} ctx=${ctx} id=${slot.card} /><${Badge} kind="facedown">${t("card.face_down")}<//>
    </div>`;
  }
  if (!slot.face_up || !slot.card) {
    return html`<div class=${`bd-card bd-card--back bd-back--${slot.back}${slot.accessible ? " is-accessible" : ""}`}
        role="img" aria-label=${backWords(slot.back)} data-motion-key=${`slot:${slot.slot}`}>
      <${CardBack} back=${slot.back} /><span class="bd-back-label" aria-hidden="true">${backLabel(slot.back)}</span>
    </div>`;
  }
  const card = cardInfo(ctx, slot.card);
  const price = slot.accessible ? ctx.prices.cards?.[slot.card] : null;
  const isNew = ctx.revealed.has(slot.slot);
  const interactive = playable(ctx, slot);
  const classes = ["bd-card", `bd-card--${card.color}`];
  if (slot.accessible) classes.push("is-accessible");
  if (isNew) classes.push("is-new");
  if (price) classes.push("has-price");
  if (price && !price.affordable) classes.push("is-unaffordable");
  if (interactive) classes.push("is-playable");
  let label = describeCard(ctx, slot.card);
  if (slot.accessible) label += `. ${t("card.can_take")}`;
  if (price) label += `. ${priceWords(price)}`;
  if (isNew) label += `. ${t("card.new_long")}`;
  const face = html`<${CardFace} ctx=${ctx} id=${slot.card} />${isNew ? html`<${Badge} kind="new">${t("card.new")}<//>` : null}`;
  if (interactive) {
    return html`<button type="button" class=${classes.join(" ")} data-card=${slot.card} data-focus-key=${`card:${slot.card}`}
        data-motion-key=${`card:${slot.card}`} aria-haspopup="dialog" onClick=${() => ctx.ui.openCard(slot.card)}>
      <${SpokenAs} label=${`${label}. ${t("card.open_options")}`}>${face}<${PriceTag} price=${price} /><//>
    </button>`;
  }
  return html`<div class=${classes.join(" ")} role="img" aria-label=${label} title=${label} data-motion-key=${`card:${slot.card}`}>
    ${face}<${PriceTag} price=${price} />
  </div>`;
}

