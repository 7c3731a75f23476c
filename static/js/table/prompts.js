// Every decision other than taking a card, where the eye is: the wonder draft fills the
// middle of the table; the other choices (a progress token, the Great Library's draw, a
// card to discard, the Mausoleum, who starts the age) are an overlay on the structure.
// The player who decides gets the focus on the first choice when the decision appears.
import { html } from "htm/preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { listOf, t } from "../words.js";
import { MiniCard, TokenTile, WonderTile } from "./cards.js";
import {
  cardInfo, colorWord, describeCard, describeToken, describeWonder, roman, whose,
} from "./describe.js";
import { ActionButton } from "./actions.js";

// Moves the focus to the first enabled choice once per new decision (not on every update).
function useFocusOnArrival(ref, key, mine) {
  useLayoutEffect(() => {
    if (!mine || !ref.current) return;
    if (ref.current.contains(document.activeElement)) return;
    if (document.querySelector("dialog[open]")) return;
    ref.current.querySelector("button.bd-action:not([disabled])")?.focus({ preventScroll: true });
  }, [key, mine]);
}

export function Draft({ ctx }) {
  const ref = useRef(null);
  const { view, decision } = ctx;
  const mine = ctx.myTurn;
  const offer = view.draft?.offer ?? decision?.options ?? [];
  useFocusOnArrival(ref, offer.join(), mine);
  const title = mine ? t("ask.pick_wonder") : decision ? t("prompt.waiting", { doing: t("doing.pick_wonder", { name: ctx.name(decision.seat) }) }) : t("draft.title");
  return html`<section class=${`bd-prompt bd-prompt--draft${mine ? " is-mine" : ""}`} aria-labelledby="bd-prompt-title" ref=${ref}>
    <h2 id="bd-prompt-title" class="bd-prompt-title">${title}</h2>
    <p class="bd-prompt-help">${mine ? t("draft.help_mine") : t("draft.help_theirs")}</p>
    <ul class="bd-choices bd-choices--wonders">${offer.map((id) => html`<li key=${id}>
      ${mine ? html`<${ActionButton} ctx=${ctx} notation=${`pick:${id}`} fallback=${{ type: "pick_wonder", wonder: id }}
          className="bd-wonder bd-wonder-choice" label=${t("draft.pick", { wonder: describeWonder(ctx, id) })}>
          <${WonderTile} ctx=${ctx} id=${id} full=${true} /><//>`
        : html`<div class="bd-wonder bd-wonder-choice" role="group" aria-label=${describeWonder(ctx, id)}><${WonderTile} ctx=${ctx} id=${id} full=${true} /></div>`}
    </li>`)}</ul>
  </section>`;
}

// The overlay for the decisions of the play phase other than taking a card; null when
// there is none.
export function Prompt({ ctx }) {
  const ref = useRef(null);
  const { view, decision } = ctx;
  const kind = decision?.kind;
  const mine = ctx.myTurn;
  const active = decision && !view.outcome && kind !== "play_card" && kind !== "pick_wonder";
  useFocusOnArrival(ref, active ? `${kind}:${(decision.options ?? []).join()}` : "", mine && active);
  if (!active) return null;
  let title = mine ? t(`ask.${kind}`) : t("prompt.waiting", { doing: t(`doing.${kind}`, { name: ctx.name(decision.seat) }) });
  let help = null;
  let body = null;
  const options = decision.options ?? [];
  if (kind === "choose_progress" || kind === "choose_library_token") {
    const library = kind === "choose_library_token";
    if (library && !mine) {
      title = t("prompt.library_wait_title", { name: ctx.name(decision.seat) });
      help = t("prompt.library_theirs", { name: ctx.name(decision.seat), count: t("n.progress_tokens", { n: decision.count ?? 3 }) });
    } else {
      help = library ? t("prompt.library_mine") : mine ? t("prompt.progress_pair_mine") : t("prompt.progress_pair_theirs");
      body = html`<ul class="bd-choices bd-choices--tokens">${options.map((id) => html`<li key=${id}>
        ${mine ? html`<${ActionButton} ctx=${ctx} notation=${`progress:${id}`} fallback=${{ type: "choose_progress", token: id }}
            className="bd-token-choice" label=${t("prompt.take_token", { token: describeToken(ctx, id) })}><${TokenTile} ctx=${ctx} id=${id} /><//>`
          : html`<div class="bd-token-choice" role="group" aria-label=${describeToken(ctx, id)}><${TokenTile} ctx=${ctx} id=${id} /></div>`}
      </li>`)}</ul>`;
    }
  } else if (kind === "destroy_card" || kind === "build_from_discard") {
    const destroy = kind === "destroy_card";
    if (destroy) {
      const colors = listOf([...new Set(options.map((id) => colorWord(cardInfo(ctx, id).color)))]);
      const victim = 1 - decision.seat;
      title = mine ? t("prompt.destroy_mine", { name: ctx.name(victim), colors })
        : t("prompt.destroy_theirs", { name: ctx.name(decision.seat), whose: whose(ctx, victim), colors });
      help = t("prompt.destroy_help");
    } else {
      help = mine ? t("prompt.mausoleum_mine") : t("prompt.mausoleum_theirs");
    }
    body = html`<ul class="bd-choices bd-choices--cards">${options.map((id) => html`<li key=${id}>
      ${mine ? html`<${ActionButton} ctx=${ctx} notation=${destroy ? `destroy:${id}` : `mausoleum:${id}`}
          fallback=${destroy ? { type: "destroy", card: id } : { type: "build_from_discard", card: id }}
          className=${`bd-mini-choice bd-card--${cardInfo(ctx, id).color}`}
          label=${t(destroy ? "prompt.discard_card" : "prompt.build_card", { card: describeCard(ctx, id) })}>
          <${MiniCard} ctx=${ctx} id=${id} as="span" /><//>`
        : html`<${MiniCard} ctx=${ctx} id=${id} />`}
    </li>`)}</ul>`;
  } else if (kind === "choose_starter") {
    title = mine ? t("prompt.starter_mine", { roman: roman(view.age) })
      : t("prompt.starter_theirs", { name: ctx.name(decision.seat), roman: roman(view.age) });
    help = t("prompt.starter_help");
    if (mine) {
      body = html`<ul class="bd-choices bd-choices--starter">${(options.length ? options : [0, 1]).map((seat) => html`<li key=${seat}>
        <${ActionButton} ctx=${ctx} notation=${`starter:${seat}`} fallback=${{ type: "choose_starter", seat }} className="bd-starter-choice">
          <span class=${`bd-turn-dot bd-seat-${seat === ctx.bottom ? "bottom" : "top"}`} aria-hidden="true"></span>
          ${seat === ctx.seat ? t("prompt.i_start", { name: ctx.name(seat) }) : t("prompt.they_start", { name: ctx.name(seat) })}
        <//></li>`)}</ul>`;
    }
  }
  return html`<section class=${`bd-prompt bd-prompt--overlay${mine ? " is-mine" : ""}`} role="dialog" aria-modal="false"
      aria-labelledby="bd-prompt-title" ref=${ref} data-decision=${kind}>
    <h2 id="bd-prompt-title" class="bd-prompt-title">${title}</h2>
    ${help ? html`<p class="bd-prompt-help">${help}</p>` : null}
    ${body}
  </section>`;
}
