// The pieces the table is made of: card faces, prices, effect chips, wonder and token
// tiles, small cards. Drawn glyphs are hidden from assistive technology; each piece says
// what it shows in words (a label, or hidden text: Hidden).
import { html } from "htm/preact";
import { t } from "../words.js";
import {
  COLORS, cardInfo, chainWord, colorWord, describeCard, describeToken, effectText, priceWords,
  symbolWord, tokenInfo, wonderInfo,
} from "./describe.js";
import {
  ChainLink, Coin, ColorEmblem, Laurel, Resource, Science, Shield, TokenArt, WonderArt,
} from "./glyphs.js";

// Words for screen readers only.
export function Hidden({ children }) {
  return html`<span class="bd-sr">${children}</span>`;
}

// A drawn face that a control is named by: the face is hidden from assistive technology,
// then the words that say all it shows (no aria-label then disagrees with the text on
// screen, WCAG 2.5.3).
export function SpokenAs({ label, children }) {
  return html`<span class="bd-face" aria-hidden="true">${children}</span><${Hidden}>${label}<//>`;
}

export function Badge({ kind = "last", children }) {
  return html`<span class=${`bd-badge bd-badge--${kind}`}>${children}</span>`;
}

export function Resources({ map }) {
  const entries = Object.entries(map ?? {}).filter(([, n]) => n > 0);
  if (!entries.length) return null;
  return html`<span class="bd-res-list">${entries.map(([r, n]) => html`<${Resource} kind=${r} count=${n} />`)}</span>`;
}

export function CostChips({ cost }) {
  const coins = cost?.coins ?? 0;
  const res = Object.entries(cost?.resources ?? {}).filter(([, n]) => n > 0);
  if (!coins && !res.length) return html`<span class="bd-cost bd-cost--free">${t("cost.free")}</span>`;
  return html`<span class="bd-cost">${coins ? html`<${Coin} amount=${coins} />` : null}${res.map(([r, n]) => html`<${Resource} kind=${r} count=${n} />`)}</span>`;
}

export function ChainChip({ symbol }) {
  return html`<span class="bd-chain" title=${t("chain.symbol", { symbol: chainWord(symbol) })}><${ChainLink} /><span class="bd-chain-word">${chainWord(symbol)}</span></span>`;
}

// An effect in short form: a glyph where a glyph says it, short words otherwise.
export function EffectChip({ detail }) {
  const title = effectText(detail);
  switch (detail.kind) {
    case "produce":
      return html`<span class="bd-fx" title=${title}>${Object.entries(detail.resources).map(([r, n]) => html`<${Resource} kind=${r} count=${n} />`)}</span>`;
    case "produce_one_of":
      return html`<span class="bd-fx bd-fx--choice" title=${title}>${detail.resources.map((r, i) => html`${i ? html`<span class="bd-slash">/</span>` : null}<${Resource} kind=${r} />`)}</span>`;
    case "trade_price_one":
      return html`<span class="bd-fx bd-fx--trade" title=${title}>${detail.resources.map((r) => html`<${Resource} kind=${r} />`)}<span>=</span><${Coin} amount=${1} /></span>`;
    case "shields":
      return html`<span class="bd-fx bd-shields" title=${title}><${Shield} count=${detail.amount} /></span>`;
    case "science":
      return html`<span class="bd-fx bd-sci" title=${title}><${Science} symbol=${detail.symbol} /></span>`;
    case "coins":
      return html`<span class="bd-fx" title=${title}><${Coin} amount=${detail.amount} /></span>`;
    case "coins_per_own":
      return html`<span class="bd-fx bd-fx--text" title=${title}><${Coin} amount=${detail.amount} />/${perShort(detail.per)}</span>`;
    case "coins_per_most":
      return html`<span class="bd-fx bd-fx--text" title=${title}><${Coin} amount=${detail.amount} />/${perShort(detail.per)}<span class="bd-most">▲</span></span>`;
    case "points_per_most":
      return html`<span class="bd-fx bd-fx--text" title=${title}><${Laurel} points=${detail.amount} />/${perShort(detail.per)}<span class="bd-most">▲</span></span>`;
    case "opponent_loses_coins":
      return html`<span class="bd-fx bd-fx--loss" title=${title}><${Coin} amount=${`−${detail.amount}`} /></span>`;
    case "play_again":
      return html`<span class="bd-fx bd-fx--text" title=${title}>↻</span>`;
    default:
      return html`<span class="bd-fx bd-fx--text" title=${title}>${shortText(detail)}</span>`;
  }
}

// What an effect counts, drawn small: a card colour's swatch, a wonder, three coins.
function perShort(per) {
  if (COLORS.includes(per)) return html`<span class=${`bd-per bd-per--${per}`}></span>`;
  if (per === "brown+grey") return html`<span class="bd-per bd-per--brown"></span><span class="bd-per bd-per--grey"></span>`;
  if (per === "wonder") return html`<span class="bd-per bd-per--wonder">${t("per.wonder_mark")}</span>`;
  if (per === "coin_set_of_3") return html`<${Coin} amount=${3} />`;
  return per;
}

function shortText(detail) {
  switch (detail.kind) {
    case "destroy_opponent_card": return t("short.destroy_opponent_card", { color: colorWord(detail.color) });
    case "build_from_discard": return t("short.build_from_discard");
    case "progress_from_box": return t("short.progress_from_box", { n: detail.amount });
    default: return effectText(detail);
  }
}

export function EffectChips({ details, points }) {
  return html`${(details ?? []).map((d) => html`<${EffectChip} detail=${d} />`)}${points ? html`<${Laurel} points=${points} />` : null}`;
}

// The viewer's price now: "free", a chain mark, or the coins with the trading part; an
// unaffordable one is crossed out with a ✕, not by colour alone.
export function PriceTag({ price, coins = 0, roomy = false }) {
  if (!price) return null;
  const short = !price.affordable;
  const missing = price.total - coins;
  let shown;
  if (price.chain) shown = html`<${ChainLink} /><span class="bd-price-amount">${t("price.free")}</span>`;
  else if (!price.total) shown = html`<span class="bd-price-amount">${t("price.free")}</span>`;
  else {
    shown = html`<span class="bd-price-amount"><${Coin} amount=${price.total} /></span>${price.trade
      ? html` <span class="bd-price-trade">${t("price.trade_short", { trade: price.trade })}</span>` : null}`;
  }
  const classes = `bd-price-now${price.chain ? " is-chain" : ""}${short ? " is-unaffordable" : ""}`;
  return html`<span class=${classes} title=${priceWords(price)} data-price=${price.total} data-affordable=${String(price.affordable)}>
    <span class="bd-price-shown" aria-hidden="true">${short ? html`<span class="bd-price-cross">✕</span>` : null}${shown}${short && roomy && missing > 0
      ? html`<span class="bd-price-missing">${t("price.need_more", { n: missing })}</span>` : null}</span>
    <${Hidden}>${priceWords(price)}<//>
  </span>`;
}

// The letters of a name's longest word: a card in the pyramid draws its name small enough
// for that word to fit its width (table.css), rather than cut it in two.
// The letters of a name's longest word: the CSS draws the name small enough for it.
export function longestWord(name) {
  return Math.max(1, ...name.split(/[\s\-‐]+/u).map((word) => [...word].length));
}

// The inside of a face-up card: colour band with emblem and effects, name, cost and chains.
export function CardFace({ ctx, id }) {
  const card = cardInfo(ctx, id);
  return html`
    <span class="bd-card-band" aria-hidden="true">
      <span class="bd-card-fx"><${EffectChips} details=${card.effect_details} points=${card.points} /></span>
      ${card.chain_to ? html`<span class="bd-card-chain-to"><${ChainChip} symbol=${card.chain_to} /></span>` : null}
    </span>
    <span class="bd-card-name" style=${{ "--word": longestWord(card.name) }}>${card.name}</span>
    <span class="bd-card-cost" aria-hidden="true"><${CostChips} cost=${card.cost} />${card.chain_from ? html`<${ChainChip} symbol=${card.chain_from} />` : null}</span>`;
}

export function MiniCard({ ctx, id, isNew = false, as = "div", ...rest }) {
  const card = cardInfo(ctx, id);
  const label = describeCard(ctx, id);
  const Tag = as;
  return html`<${Tag} class=${`bd-mini bd-card--${card.color}${isNew ? " is-last" : ""}`} title=${label} ...${rest}>
    <span class="bd-mini-mark" aria-hidden="true"><${ColorEmblem} color=${card.color} /></span>
    <span class="bd-mini-name">${card.name}</span>
    <span class="bd-mini-fx" aria-hidden="true"><${EffectChips} details=${card.effect_details} points=${card.points} /></span>
    ${isNew ? html`<${Badge} kind="new">${t("badge.new")}<//>` : null}
    <${Hidden}>${label}<//>
  <//>`;
}

// A wonder tile: its art, name, points, cost and effects (chips); `children` adds a state.
export function WonderTile({ ctx, id, children, full = false }) {
  const wonder = wonderInfo(ctx, id);
  return html`
    <span class="bd-wonder-art" aria-hidden="true"><${WonderArt} id=${id} /></span>
    <span class="bd-wonder-text">
      <span class="bd-wonder-head"><span class="bd-wonder-name" style=${{ "--word": longestWord(wonder.name) }}>${wonder.name}</span>${wonder.points ? html`<span aria-hidden="true"><${Laurel} points=${wonder.points} /></span>` : null}</span>
      <span class="bd-wonder-line" aria-hidden="true"><${CostChips} cost=${wonder.cost} /><span class="bd-wonder-arrow">→</span><${EffectChips} details=${wonder.effect_details} /></span>
      ${full ? html`<span class="bd-wonder-fx">${(wonder.effect_details ?? []).map((d) => html`<span class="bd-wonder-effect">${effectText(d)}</span>`)}</span>` : null}
      ${children}
    </span>`;
}

export function TokenDisc({ id }) {
  return html`<span class="bd-token-disc" aria-hidden="true"><${TokenArt} id=${id} /></span>`;
}

export function TokenTile({ ctx, id }) {
  const token = tokenInfo(ctx, id);
  return html`<${TokenDisc} id=${id} />
    <span class="bd-token-text">
      <span class="bd-token-name">${token.name}${token.points ? html` <span aria-hidden="true"><${Laurel} points=${token.points} /></span>` : null}</span>
      <span class="bd-token-fx">${(token.effect_details ?? []).map(effectText).join(". ")}</span>
    </span>`;
}

export function TokenChip({ ctx, id, isNew }) {
  return html`<span class=${`bd-token-chip${isNew ? " is-last" : ""}`} title=${describeToken(ctx, id)} data-motion-key=${`token:${id}`}>
    <${TokenDisc} id=${id} /><${Hidden}>${tokenInfo(ctx, id).name}<//>
  </span>`;
}

export function ScienceChip({ symbol, count }) {
  return html`<span class="bd-sci-count" title=${symbolWord(symbol)}><${Science} symbol=${symbol} />${count > 1 ? html`<span aria-hidden="true">×${count}</span>` : null}<${Hidden}>${symbolWord(symbol)}<//></span>`;
}
