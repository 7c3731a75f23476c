// A city as a compact bar (name, coins, points, military, science, tokens, its four wonders
// and a stack per card colour), and its full details (CityDetails, shown in a dialog).
import { html } from "htm/preact";
import { t } from "../words.js";
import {
  Badge, ChainChip, Hidden, MiniCard, PriceTag, ScienceChip, TokenChip, WonderTile,
} from "./cards.js";
import {
  COLORS, cardName, colorWord, describeToken, describeWonder, priceWords, resourceWord,
  tokenName,
} from "./describe.js";
import { Coin, ColorEmblem, Laurel, Resource, Shield } from "./glyphs.js";
import { Rolling } from "./motion.js";
import { pure } from "./pure.js";

// What the last move added to each city: cards, wonders, tokens ("seat:id").
export function lastMoveMarks(events) {
  const marks = { cards: new Set(), wonders: new Set(), tokens: new Set() };
  for (const e of events) {
    if (e.type === "card_built" || e.type === "card_built_from_discard") marks.cards.add(`${e.seat}:${e.card}`);
    if (e.type === "wonder_built") marks.wonders.add(`${e.seat}:${e.wonder}`);
    if (e.type === "progress_taken") marks.tokens.add(`${e.seat}:${e.token}`);
  }
  return marks;
}

function cityTitle(ctx, seat) {
  return seat === ctx.seat ? t("city.yours") : t("city.theirs", { name: ctx.name(seat) });
}

export function City({ ctx, seat, position }) {
  const player = ctx.view.players?.[seat];
  if (!player) return null;
  const acting = ctx.decision && !ctx.view.outcome && ctx.decision.seat === seat;
  const mine = seat === ctx.seat;
  const science = Object.entries(player.science ?? {});
  const titleId = `bd-city-${position}`;
  return html`<section class=${`bd-city bd-city--${position} bd-seat-${position}${acting ? " is-acting" : ""}`} aria-labelledby=${titleId} data-seat=${seat}>
    <header class="bd-city-head">
      <h2 id=${titleId} class="bd-city-title"><span class=${`bd-turn-dot bd-seat-${position}`} aria-hidden="true"></span><span class="bd-name" title=${cityTitle(ctx, seat)}>${cityTitle(ctx, seat)}</span></h2>
      ${acting ? html`<${Badge} kind="turn">${mine ? t("city.acting_you") : t("city.acting")}<//>` : null}
      <span class="bd-city-stat bd-city-coins" title=${t("n.coins", { n: player.coins })} data-motion-key=${`coins:${seat}`}>
        <${Coin} /><${Rolling} value=${player.coins} /><${Hidden}>${t("n.coins", { n: player.coins })}<//></span>
      <span class="bd-city-stat bd-city-points" title=${t("city.points")}>
        <${Laurel} /><${Rolling} value=${player.score?.total ?? 0} /><${Hidden}>${t("city.points")}: ${player.score?.total ?? 0}<//></span>
      <${Lead} lead=${player.shields_lead ?? 0} className="bd-city-stat" />
      ${science.length ? html`<span class="bd-city-stat bd-city-science" title=${t("city.science_count", { n: science.length })}>
        ${science.map(([symbol, n]) => html`<${ScienceChip} symbol=${symbol} count=${n} />`)}</span>` : null}
      ${(player.progress_tokens ?? []).length ? html`<span class="bd-city-stat bd-city-tokens">
        ${player.progress_tokens.map((id) => html`<${TokenChip} ctx=${ctx} id=${id} isNew=${ctx.marks.tokens.has(`${seat}:${id}`)} />`)}</span>` : null}
      <${Production} player=${player} />
      <button type="button" class="bd-city-more secondary" data-focus-key=${`city:${seat}`} aria-haspopup="dialog"
          onClick=${() => ctx.ui.openPanel({ kind: "city", seat })}>${t("city.details")}<${Hidden}>: ${cityTitle(ctx, seat)}<//></button>
    </header>
    <div class="bd-city-body">
      <${Wonders} ctx=${ctx} player=${player} sig=${JSON.stringify([player.wonders, player.retired_wonders,
        seat === ctx.seat ? ctx.prices.wonders : null, [...ctx.marks.wonders]])} />
      <${Stacks} ctx=${ctx} player=${player} sig=${JSON.stringify([player.seat, player.cards_by_color, [...ctx.marks.cards]])} />
    </div>
  </section>`;
}

// Who leads the military, from this city's side: "leads by 2", "behind by 1", "even".
function Lead({ lead, className = "" }) {
  const state = lead > 0 ? " is-ahead" : lead < 0 ? " is-behind" : "";
  const words = lead > 0 ? t("city.lead_ahead", { n: lead }) : lead < 0 ? t("city.lead_behind", { n: -lead })
    : t("city.lead_even");
  return html`<span class=${`${className} bd-lead${state}`.trim()}><${Shield} />${words}</span>`;
}

// What a city produces: fixed resources with their counts, and each "one of" choice.
function production(player) {
  return {
    fixed: Object.entries(player.production ?? {}).filter(([, n]) => n > 0),
    choices: player.production_choices ?? [],
  };
}

const fixedWords = ([r, n]) => t("n.resource", { n, resource: resourceWord(r) });
const choiceWords = (options) => t("city.one_of", { what: options.map(resourceWord).join(" / ") });
const ChoiceIcons = ({ options }) => html`${options.map((r, i) => html`${i ? "/" : ""}<${Resource} kind=${r} />`)}`;

function Production({ player }) {
  const { fixed, choices } = production(player);
  if (!fixed.length && !choices.length) return null;
  const words = [...fixed.map(fixedWords), ...choices.map(choiceWords)];
  return html`<span class="bd-city-stat bd-city-production" title=${`${t("city.produces")}: ${words.join(", ")}`}>
    <span aria-hidden="true">${fixed.map(([r, n]) => html`<span class="bd-prod"><${Resource} kind=${r} />${n > 1 ? html`<span class="bd-prod-n">${n}</span>` : null}</span>`)}${choices.map((options) => html`<span class="bd-prod bd-prod--choice"><${ChoiceIcons} options=${options} /></span>`)}</span>
    <${Hidden}>${t("city.produces")}: ${words.join(", ")}<//></span>`;
}

// The wonders and the stacks change on few moves: drawn again only when their signature
// (what they show) changes.
const sameSignature = (a, b) => a.sig === b.sig;
const Wonders = pure(drawWonders, sameSignature);
const Stacks = pure(drawStacks, sameSignature);

function drawWonders({ ctx, player }) {
  const wonders = player.wonders ?? [];
  const retired = player.retired_wonders ?? [];
  const mine = player.seat === ctx.seat;
  return html`<ul class="bd-wonder-list" aria-label=${t("city.wonders")}>
    ${wonders.map((w) => {
      const isLast = ctx.marks.wonders.has(`${player.seat}:${w.wonder}`);
      const price = !w.built && mine ? ctx.prices.wonders?.[w.wonder] : null;
      const label = `${describeWonder(ctx, w.wonder)}. ${w.built ? t("wonder.built_with", { card: cardName(ctx, w.card) }) : t("wonder.not_built")}${price ? `. ${priceWords(price)}` : ""}`;
      return html`<li key=${w.wonder} class=${`bd-wonder ${w.built ? "is-built" : "is-unbuilt"}${isLast ? " is-last" : ""}${price && !price.affordable ? " is-unaffordable" : ""}`}
          title=${label} data-motion-key=${`wonder:${w.wonder}`}>
        <${WonderTile} ctx=${ctx} id=${w.wonder}>
          <span class="bd-wonder-state" aria-hidden="true">
            ${w.built ? html`<${Badge} kind="built">${t("wonder.built")}<//>` : null}
            ${price ? html`<${PriceTag} price=${price} />` : null}
            ${isLast ? html`<${Badge} kind="new">${t("badge.new")}<//>` : null}
          </span>
        <//>
        <${Hidden}>${label}<//>
      </li>`;
    })}
    ${retired.map((id) => html`<li key=${id} class="bd-wonder is-retired" title=${`${describeWonder(ctx, id)}. ${t("wonder.retired")}`}>
      <${WonderTile} ctx=${ctx} id=${id}><span class="bd-wonder-state" aria-hidden="true"><${Badge} kind="retired">${t("wonder.retired")}<//></span><//>
      <${Hidden}>${describeWonder(ctx, id)}. ${t("wonder.retired")}<//></li>`)}
  </ul>`;
}

// One stack per colour the city has: its emblem and count; the names in its title.
function drawStacks({ ctx, player }) {
  const byColor = player.cards_by_color ?? {};
  return html`<ul class="bd-stacks" aria-label=${t("city.buildings", { n: (player.cards ?? []).length })}>
    ${COLORS.map((color) => {
      const cards = byColor[color] ?? [];
      const fresh = cards.some((id) => ctx.marks.cards.has(`${player.seat}:${id}`));
      const names = cards.map((id) => cardName(ctx, id)).join(", ");
      return html`<li key=${color} class=${`bd-stack-chip bd-card--${color}${cards.length ? "" : " is-empty"}${fresh ? " is-last" : ""}`}
          title=${cards.length ? t("city.stack", { color: colorWord(color), names }) : colorWord(color)} data-motion-key=${`stack:${player.seat}:${color}`}>
        <${ColorEmblem} color=${color} /><span class="bd-stack-n" aria-hidden="true">${cards.length}</span>
        <${Hidden}>${t("city.stack", { color: colorWord(color), names: cards.length ? names : t("city.none") })}<//>
      </li>`;
    })}
  </ul>`;
}

// Everything about a city, for its details dialog.
export function CityDetails({ ctx, seat }) {
  const player = ctx.view.players?.[seat];
  if (!player) return null;
  const byColor = player.cards_by_color ?? {};
  const groups = COLORS.filter((c) => (byColor[c] ?? []).length);
  const science = Object.entries(player.science ?? {});
  const { fixed, choices } = production(player);
  const row = (label, content) => html`<dt>${label}</dt><dd>${content}</dd>`;
  const none = html`<span class="bd-none">${t("city.none")}</span>`;
  return html`<div class="bd-city-details">
    <dl class="bd-stats">
      ${row(t("city.produces"), fixed.length || choices.length ? html`
        ${fixed.map((entry) => html`<span class="bd-prod"><${Resource} kind=${entry[0]} count=${entry[1]} /><${Hidden}>${fixedWords(entry)}<//></span>`)}
        ${choices.map((options) => html`<span class="bd-prod bd-prod--choice"><${ChoiceIcons} options=${options} /><${Hidden}>${choiceWords(options)}<//></span>`)}`
        : html`<span class="bd-none">${t("city.nothing")}</span>`)}
      ${row(t("city.buys_at"), Object.entries(player.unit_prices ?? {}).map(([r, price]) => html`<span class="bd-price" title=${t("city.unit_price", { resource: resourceWord(r), price: t("n.coins", { n: price }) })}>
        <${Resource} kind=${r} /><span aria-hidden="true">${price}</span><${Hidden}>${resourceWord(r)} ${t("n.coins", { n: price })}<//></span>`))}
      ${row(t("city.military"), html`<${Lead} lead=${player.shields_lead ?? 0} />`)}
      ${row(t("city.science"), science.length ? html`${science.map(([s, n]) => html`<${ScienceChip} symbol=${s} count=${n} />`)} <span class="bd-muted">${t("city.science_count", { n: science.length })}</span>` : none)}
      ${row(t("city.chains"), (player.chains ?? []).length ? player.chains.map((c) => html`<${ChainChip} symbol=${c} />`) : none)}
      ${row(t("city.progress"), (player.progress_tokens ?? []).length ? player.progress_tokens.map((id) => html`<span class="bd-token-named" title=${describeToken(ctx, id)}>${tokenName(ctx, id)}</span>`) : none)}
      ${row(t("city.discard_gives"), html`<${Coin} amount=${player.sale_value ?? 2} /><${Hidden}>${t("n.coins", { n: player.sale_value ?? 2 })}<//>`)}
    </dl>
    <h3 class="bd-sub">${t("city.wonders_built", { n: (player.wonders ?? []).filter((w) => w.built).length })}</h3>
    <ul class="bd-wonder-list bd-wonder-list--full">
      ${(player.wonders ?? []).map((w) => html`<li key=${w.wonder} class=${`bd-wonder bd-wonder--full ${w.built ? "is-built" : "is-unbuilt"}`}>
        <${WonderTile} ctx=${ctx} id=${w.wonder} full=${true}>
          <span class="bd-wonder-state">${w.built ? t("wonder.built_with", { card: cardName(ctx, w.card) }) : t("wonder.not_built")}</span>
        <//></li>`)}
    </ul>
    <h3 class="bd-sub">${t("city.buildings", { n: (player.cards ?? []).length })}</h3>
    ${groups.length ? html`<div class="bd-color-groups">${groups.map((color) => html`<div key=${color} class=${`bd-color-group bd-card--${color}`} role="group" aria-label=${t("color_cards", { color: colorWord(color) })}>
        <ul class="bd-stack">${byColor[color].map((id) => html`<li key=${id}><${MiniCard} ctx=${ctx} id=${id} isNew=${ctx.marks.cards.has(`${seat}:${id}`)} /></li>`)}</ul>
      </div>`)}</div>` : html`<p class="bd-none">${t("city.no_buildings")}</p>`}
  </div>`;
}

