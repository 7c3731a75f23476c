// Modal panels over the table (a <dialog> shown with showModal: focus stays inside, Escape
// or a click on the backdrop closes it, focus goes back to what opened it): a card's
// options, a city's details, the discard pile.
import { html } from "htm/preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { t } from "../words.js";
import { CardFace, Hidden, MiniCard, Resources, WonderTile } from "./cards.js";
import { CityDetails } from "./city.js";
import {
  cardInfo, chainWord, colorWord, costWords, effectText, payWords, resourceWord, roman,
  wonderInfo, wonderName,
} from "./describe.js";
import { ChainLink, ColorEmblem, Resource } from "./glyphs.js";
import { ActionButton } from "./prompts.js";

export function Modal({ title, onClose, returnFocus, className = "", children }) {
  const ref = useRef(null);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog.open) {
      try {
        dialog.showModal();
      } catch {
        dialog.setAttribute("open", "");
      }
    }
    const first = dialog.querySelector("button.bd-action:not([disabled])") ?? dialog.querySelector("button");
    first?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // Give focus back to what the panel was opened from.
      if (returnFocus) document.querySelector(`[data-focus-key="${CSS.escape(returnFocus)}"]`)?.focus();
    };
  }, []);
  const cancel = (event) => {
    event.preventDefault();
    onClose();
  };
  return html`<dialog class=${`bd-dialog ${className}`} aria-labelledby="bd-dialog-title" ref=${ref}
      onCancel=${cancel} onClick=${(event) => { if (event.target === ref.current) onClose(); }}>
    <div class="bd-dialog-panel">
      <header class="bd-dialog-head">
        <h2 id="bd-dialog-title" class="bd-dialog-title">${title}</h2>
        <button type="button" class="bd-close" data-focus-key="dialog-close" onClick=${onClose}>
          <span aria-hidden="true">×</span><${Hidden}>${t("close.escape")}<//></button>
      </header>
      ${children}
    </div>
  </dialog>`;
}

// The panel open now, if any (ctx.ui.panel): { kind: "card", card } | { kind: "city", seat }
// | { kind: "discard" }.
export function Panels({ ctx }) {
  const panel = ctx.ui.panel;
  if (!panel) return null;
  const close = () => ctx.ui.openPanel(null);
  if (panel.kind === "card") {
    const option = ctx.cardOptions.get(panel.card);
    if (!option) return null;
    return html`<${Modal} key=${`card:${panel.card}`} title=${html`<span class="bd-dialog-emblem" aria-hidden="true"><${ColorEmblem} color=${cardInfo(ctx, panel.card).color} /></span> ${cardInfo(ctx, panel.card).name}`}
        onClose=${close} returnFocus=${`card:${panel.card}`} className="bd-dialog--card">
      <${CardOptions} ctx=${ctx} cardId=${panel.card} option=${option} />
    <//>`;
  }
  if (panel.kind === "city") {
    const seat = panel.seat;
    const title = seat === ctx.seat ? t("city.yours") : t("city.theirs", { name: ctx.name(seat) });
    return html`<${Modal} key=${`city:${seat}`} title=${title} onClose=${close} returnFocus=${`city:${seat}`} className="bd-dialog--city">
      <${CityDetails} ctx=${ctx} seat=${seat} />
    <//>`;
  }
  if (panel.kind === "discard") {
    const pile = ctx.view.discard ?? [];
    return html`<${Modal} key="discard" title=${t("discard.title")} onClose=${close} returnFocus="discard-toggle" className="bd-dialog--discard">
      ${pile.length ? html`<ul class="bd-stack bd-stack--discard" id="bd-discard-list">${pile.map((id) => html`<li key=${id}><${MiniCard} ctx=${ctx} id=${id} /></li>`)}</ul>`
        : html`<p class="bd-none">${t("discard.empty")}</p>`}
    <//>`;
  }
  return null;
}

// Why an option is refused: its reason code, with the figures beside it (price, coins).
function reasonText(option) {
  return option.reason ? t(`reason.${option.reason}`, option) : "";
}

function CardOptions({ ctx, cardId, option }) {
  const card = cardInfo(ctx, cardId);
  const me = ctx.me;
  const build = `build:${cardId}`;
  const buildAllowed = option.build?.allowed && ctx.legal.has(build);
  const Color = colorWord(card.color);
  return html`
    <div class="bd-dialog-card">
      <div class=${`bd-card bd-card--${card.color} bd-card--large`} aria-hidden="true"><${CardFace} ctx=${ctx} id=${cardId} /></div>
      <div class="bd-dialog-facts">
        <p><strong>${t("options.card_kind", { Color: Color[0].toUpperCase() + Color.slice(1), kind: t(`color_kind.${card.color}`), roman: roman(card.age) })}</strong></p>
        <p><span class="bd-label">${t("options.cost")} </span>${costWords(card.cost)}${card.chain_from ? t("options.free_with_chain", { symbol: chainWord(card.chain_from) }) : ""}</p>
        ${(card.effect_details ?? []).length ? html`<ul class="bd-effects">${card.effect_details.map((d) => html`<li>${effectText(d)}</li>`)}</ul>` : null}
        ${card.points ? html`<p>${t("n.victory_points", { n: card.points })}</p>` : null}
        ${card.chain_to ? html`<p>${t("options.gives_chain", { symbol: chainWord(card.chain_to) })}</p>` : null}
        <p class="bd-muted">${t("options.you_have", { n: me?.coins ?? 0 })}</p>
      </div>
    </div>
    <ul class="bd-options">
      <li class="bd-option bd-option--build">
        <${ActionButton} ctx=${ctx} notation=${build} fallback=${{ type: "build", card: cardId }} className="bd-option-button"
            describedby=${buildAllowed ? "bd-pay-build" : "bd-reason-build bd-pay-build"}>
          <span class="bd-option-verb">${t("options.build", { card: card.name })}</span>
          <span class="bd-option-price">${payWords(option.build?.payment)}</span>
        <//>
        ${!buildAllowed && option.build && !option.build.allowed ? html`<p class="bd-reason" id="bd-reason-build">${t("options.not_possible", { reason: reasonText(option.build) })}</p>` : null}
        <${Payment} cost=${card.cost} payment=${option.build?.payment} id="bd-pay-build" />
      </li>
      <li class="bd-option bd-option--discard">
        <${ActionButton} ctx=${ctx} notation=${`discard:${cardId}`} fallback=${{ type: "discard", card: cardId }} className="bd-option-button">
          <span class="bd-option-verb">${t("options.discard", { card: card.name })}</span>
          <span class="bd-option-price">${t("options.discard_gain", { n: option.discard?.coins ?? 0 })}</span>
        <//>
        <p class="bd-muted">${t("options.discard_help")}</p>
      </li>
      ${(option.wonders ?? []).length ? html`<li class="bd-option-group">
        <h3 class="bd-sub">${t("options.wonders")}</h3>
        <ul class="bd-options bd-options--wonders">${option.wonders.map((w) => html`<li key=${w.wonder} class="bd-option bd-option--wonder">
          <${ActionButton} ctx=${ctx} notation=${`wonder:${w.wonder}:${cardId}`} fallback=${{ type: "build_wonder", wonder: w.wonder, card: cardId }}
              className="bd-option-button" describedby=${w.allowed ? `bd-pay-${w.wonder}` : `bd-reason-${w.wonder} bd-pay-${w.wonder}`}>
            <span class="bd-option-verb">${t("options.build_wonder", { wonder: wonderName(ctx, w.wonder) })}</span>
            <span class="bd-option-price">${payWords(w.payment)}</span>
          <//>
          ${!w.allowed ? html`<p class="bd-reason" id=${`bd-reason-${w.wonder}`}>${t("options.not_possible", { reason: reasonText(w) })}</p>` : null}
          <div class="bd-wonder bd-wonder--inline"><${WonderTile} ctx=${ctx} id=${w.wonder} full=${true} /></div>
          <${Payment} cost=${wonderInfo(ctx, w.wonder).cost} payment=${w.payment} id=${`bd-pay-${w.wonder}`} />
        </li>`)}</ul>
      </li>` : html`<li class="bd-option bd-muted">${t("options.all_wonders_built")}</li>`}
    </ul>`;
}

function count(list) {
  const out = {};
  for (const r of list ?? []) out[r] = (out[r] ?? 0) + 1;
  return out;
}

// How a build is paid: what the city produces, what is bought at which unit price.
function Payment({ cost, payment, id }) {
  if (!payment) return null;
  if (payment.chain) return html`<p class="bd-pay" id=${id}><${ChainLink} /> ${t("pay.by_chain")}</p>`;
  const need = { ...(cost?.resources ?? {}) };
  const bought = {};
  for (const b of payment.bought ?? []) bought[b.resource] = b.units;
  const choice = count(payment.from_choice);
  const waived = count(payment.waived);
  const own = {};
  for (const [r, n] of Object.entries(need)) {
    const rest = n - (bought[r] ?? 0) - (waived[r] ?? 0);
    if (rest > 0) own[r] = rest;
  }
  const words = (map) => Object.entries(map).map(([r, n]) => t("n.resource", { n, resource: resourceWord(r) })).join(", ");
  return html`<ul class="bd-pay" id=${id}>
    ${Object.keys(own).length ? html`<li><span class="bd-label">${t("pay.produced")} </span><${Resources} map=${own} /><${Hidden}>${words(own)}<//>
      ${Object.keys(choice).length ? html` <span class="bd-muted">${t("pay.of_which_choice", { what: words(choice) })}</span>` : null}</li>` : null}
    ${Object.keys(waived).length ? html`<li><span class="bd-label">${t("pay.waived")} </span><${Resources} map=${waived} /><${Hidden}>${words(waived)}<//></li>` : null}
    ${(payment.bought ?? []).map((b) => html`<li class="bd-pay-buy"><span class="bd-label">${t("pay.buy")} </span><${Resource} kind=${b.resource} count=${b.units} />
      ${" "}${t("pay.buy_line", { n: b.units, resource: resourceWord(b.resource), price: t("n.coins", { n: b.unit_price }), total: t("n.coins", { n: b.units * b.unit_price }) })}</li>`)}
    ${payment.coins ? html`<li><span class="bd-label">${t("pay.coin_cost")} </span>${t("n.coins", { n: payment.coins })}</li>` : null}
    ${!Object.keys(need).length && !payment.coins ? html`<li>${t("pay.no_cost")}</li>` : null}
    <li class="bd-pay-total"><span class="bd-label">${t("pay.total")} </span>${payment.total ? t("n.coins", { n: payment.total }) : t("pay.nothing")}
      ${payment.to_opponent ? ` ${t("pay.to_opponent", { n: payment.to_opponent })}` : ""}</li>
  </ul>`;
}
