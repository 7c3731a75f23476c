// Every decision other than taking a card, where the eye is: the wonder draft fills the
// middle of the table; the other choices (a progress token, the Great Library's draw, a
// card to discard, the Mausoleum, who starts the age) are an overlay on the structure.
// The player who decides gets the focus on the first choice when the decision appears.
// ActionButton, every button that sends an action (here and in a card's options), is here.
import { html } from "htm/preact";
import { Component, cloneElement, createRef } from "preact";
import { listOf, t } from "../words.js";
import { Hidden, MiniCard, TokenTile, WonderTile } from "./cards.js";
import {
  cardInfo, colorWord, describeCard, describeToken, describeWonder, roman, whose,
} from "./describe.js";

// A button that sends a legal action: enabled only on the viewer's turn when the action is
// legal now. data-action carries its notation.
export function ActionButton({ ctx, notation, fallback, label, className = "", describedby, children }) {
  const entry = ctx.legal.get(notation);
  const allowed = ctx.myTurn && Boolean(entry);
  const action = entry?.action ?? fallback;
  return html`<button type="button" class=${`bd-action ${className}`.trim()} data-action=${notation} data-focus-key=${notation}
      disabled=${!allowed} aria-describedby=${describedby} onClick=${() => {
        if (!allowed) return;
        ctx.ui.openPanel(null);
        ctx.act(action);
      }}>${label ? html`<span class="bd-face" aria-hidden="true">${children}</span><${Hidden}>${label}<//>` : children}</button>`;
}

// Draws its one child, and moves the focus to the child's first enabled choice when a
// decision arrives (a new `arrival`), not on every update.
class FocusOnArrival extends Component {
  area = createRef();

  componentDidMount() {
    this.arrive();
  }

  componentDidUpdate(previous) {
    if (previous.arrival !== this.props.arrival || previous.mine !== this.props.mine) this.arrive();
  }

  arrive() {
    const area = this.area.current;
    if (!this.props.mine || !area || area.contains(document.activeElement)) return;
    if (document.querySelector("dialog[open]")) return;
    area.querySelector("button.bd-action:not([disabled])")?.focus({ preventScroll: true });
  }

  render({ children }) {
    return cloneElement(children, { ref: this.area });
  }
}

export function Draft({ ctx }) {
  const { view, decision } = ctx;
  const mine = ctx.myTurn;
  const offer = view.draft?.offer ?? decision?.options ?? [];
  const title = mine ? t("ask.pick_wonder") : decision ? t("prompt.waiting", { doing: t("doing.pick_wonder", { name: ctx.name(decision.seat) }) }) : t("draft.title");
  return html`<${FocusOnArrival} arrival=${offer.join()} mine=${mine}><section class=${`bd-prompt bd-prompt--draft${mine ? " is-mine" : ""}`} aria-labelledby="bd-prompt-title">
    <h2 id="bd-prompt-title" class="bd-prompt-title">${title}</h2>
    <p class="bd-prompt-help">${mine ? t("draft.help_mine") : t("draft.help_theirs")}</p>
    <ul class="bd-choices bd-choices--wonders">${offer.map((id) => html`<li key=${id}>
      ${mine ? html`<${ActionButton} ctx=${ctx} notation=${`pick:${id}`} fallback=${{ type: "pick_wonder", wonder: id }}
          className="bd-wonder bd-wonder-choice" label=${t("draft.pick", { wonder: describeWonder(ctx, id) })}>
          <${WonderTile} ctx=${ctx} id=${id} full=${true} /><//>`
        : html`<div class="bd-wonder bd-wonder-choice" role="group" aria-label=${describeWonder(ctx, id)}><${WonderTile} ctx=${ctx} id=${id} full=${true} /></div>`}
    </li>`)}</ul>
  </section><//>`;
}

// The overlay for the decisions of the play phase other than taking a card; null when
// there is none.
export function Prompt({ ctx }) {
  const { view, decision } = ctx;
  const kind = decision?.kind;
  const mine = ctx.myTurn;
  const active = decision && !view.outcome && kind !== "play_card" && kind !== "pick_wonder";
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
          <span class="bd-name">${seat === ctx.seat ? t("prompt.i_start", { name: ctx.name(seat) }) : t("prompt.they_start", { name: ctx.name(seat) })}</span>
        <//></li>`)}</ul>`;
    }
  }
  return html`<${FocusOnArrival} arrival=${`${kind}:${options.join()}`} mine=${mine}>
    <section class=${`bd-prompt bd-prompt--overlay${mine ? " is-mine" : ""}`} role="dialog" aria-modal="false"
        aria-labelledby="bd-prompt-title" data-decision=${kind}>
      <h2 id="bd-prompt-title" class="bd-prompt-title">${title}</h2>
      ${help ? html`<p class="bd-prompt-help">${help}</p>` : null}
      ${body}
    </section><//>`;
}
