// Words about the game: names, costs, effects, prices and what each event did, all through
// t() (static/js/words.js). `ctx` is the table's context (table.js: makeContext).
import { listOf, t } from "../words.js";

export const COLORS = ["brown", "grey", "blue", "green", "yellow", "red", "purple"];
export const SCORE_ROWS = ["blue", "green", "yellow", "purple", "wonders", "progress", "coins",
  "military", "total"];

export const roman = (age) => t("age.roman", { age });

export function cardInfo(ctx, id) {
  return ctx.catalog.cards?.[id] ?? { name: id, color: "brown", cost: {}, effect_details: [], points: 0 };
}
export function wonderInfo(ctx, id) {
  return ctx.catalog.wonders?.[id] ?? { name: id, cost: {}, effect_details: [], points: 0 };
}
export function tokenInfo(ctx, id) {
  return ctx.catalog.tokens?.[id] ?? { name: id, effect_details: [], points: 0 };
}
export const cardName = (ctx, id) => cardInfo(ctx, id).name;
export const wonderName = (ctx, id) => wonderInfo(ctx, id).name;
export const tokenName = (ctx, id) => tokenInfo(ctx, id).name;

export const resourceWord = (r) => t(`resource.${r}`);
export const colorWord = (c) => t(`color.${c}`);
export const symbolWord = (s) => t(`science.${s}`);
export const chainWord = (symbol) => t(`chain.${symbol}`);

export function resourcesWords(map) {
  return listOf(Object.entries(map ?? {}).filter(([, n]) => n > 0)
    .map(([r, n]) => t("n.resource", { n, resource: resourceWord(r) })));
}

export function costWords(cost) {
  const parts = [];
  if (cost?.coins) parts.push(t("n.coins", { n: cost.coins }));
  const res = resourcesWords(cost?.resources);
  if (res) parts.push(res);
  return parts.length ? listOf(parts) : t("cost.free");
}

function perWord(per) {
  if (["brown+grey", "wonder", "coin_set_of_3"].includes(per)) return t(`per.${per}`);
  return t("per.color", { color: colorWord(per) });
}

// One effect in words, from its kind and figures (the catalog's effect_details).
export function effectText(detail) {
  const n = detail.amount;
  switch (detail.kind) {
    case "produce":
      return t("effect.produce", { what: resourcesWords(detail.resources) });
    case "produce_one_of":
    case "trade_price_one":
      return t(`effect.${detail.kind}`, { what: detail.resources.map(resourceWord).join(" / ") });
    case "science":
      return t("effect.science", { symbol: symbolWord(detail.symbol) });
    case "coins_per_own":
    case "coins_per_most":
    case "points_per_most":
      return t(`effect.${detail.kind}`, { n, per: perWord(detail.per) });
    case "destroy_opponent_card":
      return t("effect.destroy_opponent_card", { color: colorWord(detail.color) });
    default:
      return t(`effect.${detail.kind}`, { n });
  }
}

export function effectsText(details) {
  return (details ?? []).map(effectText);
}

export function describeCard(ctx, id) {
  const card = cardInfo(ctx, id);
  const parts = [
    t("describe.card", { name: card.name, color: colorWord(card.color), kind: t(`color_kind.${card.color}`) }),
    t("describe.cost", { cost: costWords(card.cost) }),
  ];
  if (card.chain_from) parts.push(t("chain.free_with", { symbol: chainWord(card.chain_from) }));
  parts.push(...effectsText(card.effect_details));
  if (card.points) parts.push(t("n.points", { n: card.points }));
  if (card.chain_to) parts.push(t("chain.gives", { symbol: chainWord(card.chain_to) }));
  return parts.join(". ");
}

export function describeWonder(ctx, id) {
  const wonder = wonderInfo(ctx, id);
  const parts = [t("describe.wonder", { name: wonder.name }),
    t("describe.cost", { cost: costWords(wonder.cost) }), ...effectsText(wonder.effect_details)];
  if (wonder.points) parts.push(t("n.points", { n: wonder.points }));
  return parts.join(". ");
}

export function describeToken(ctx, id) {
  const token = tokenInfo(ctx, id);
  const parts = [t("describe.token", { name: token.name }), ...effectsText(token.effect_details)];
  if (token.points) parts.push(t("n.points", { n: token.points }));
  return parts.join(". ");
}

export function backWords(back) {
  return back === "guild" ? t("back.guild")
    : t("back.age", { roman: roman(Number(String(back).replace("age", ""))) });
}

export function backLabel(back) {
  return back === "guild" ? t("back.label.guild") : roman(Number(String(back).replace("age", "")));
}

// The viewer's price now (an entry of view.prices), in words.
export function priceWords(price) {
  const cost = price.chain ? t("price.chain") : !price.total ? t("price.free")
    : price.trade ? t("price.coins_trade", { n: price.total, trade: price.trade })
      : t("price.coins", { n: price.total });
  const text = t("price.yours", { price: cost });
  return price.affordable ? text : `${text}; ${t("price.unaffordable")}`;
}

export function payWords(payment) {
  if (!payment) return "";
  if (payment.chain) return t("pay.chain");
  if (!payment.total) return t("pay.free");
  return t("pay.coins", { n: payment.total });
}

// "You" where the viewer is meant, the name otherwise.
export function who(ctx, seat) {
  return seat === ctx.seat ? t("you") : ctx.name(seat);
}

export function whose(ctx, seat) {
  return seat === ctx.seat ? t("possessive.you") : t("possessive.other", { name: ctx.name(seat) });
}

function paymentPhrase(payment) {
  if (!payment) return "";
  if (payment.chain) return t("payment.chain");
  if (!payment.total) return t("payment.free");
  if (payment.trade) return t("payment.coins_trade", { n: payment.total, trade: payment.trade });
  return t("payment.coins", { n: payment.total });
}

// The victories a seat concedes (the engine's FORFEITS): resigned, out of time, gone.
export const FORFEITS = ["resigned", "time", "abandoned"];

// What one event did, in a sentence (no final stop); null for events not worth saying.
export function describeEvent(ctx, e) {
  const you = e.seat === ctx.seat;
  const base = { who: who(ctx, e.seat), name: ctx.name(e.seat) };
  switch (e.type) {
    case "wonder_picked": return t("event.wonder_picked", { ...base, wonder: wonderName(ctx, e.wonder) });
    case "draft_round": return t("event.draft_round", { wonders: listOf((e.wonders ?? []).map((w) => wonderName(ctx, w))) });
    case "age_started": return t("event.age_started", { roman: roman(e.age) });
    case "card_built": return t("event.card_built", { ...base, card: cardName(ctx, e.card), payment: paymentPhrase(e.payment) });
    case "card_discarded": return t("event.card_discarded", { ...base, card: cardName(ctx, e.card), n: e.coins });
    case "wonder_built": return t("event.wonder_built", { ...base, wonder: wonderName(ctx, e.wonder), card: cardName(ctx, e.card), payment: paymentPhrase(e.payment) });
    case "card_revealed": return t("event.card_revealed", { card: cardName(ctx, e.card) });
    case "coins_gained": return t("event.coins_gained", { ...base, n: e.coins });
    case "coins_lost": return t("event.coins_lost", { ...base, n: e.coins });
    case "pawn_moved":
      if (e.pawn === 0) return t("event.pawn_moved_centre", { n: e.shields });
      return t("event.pawn_moved", { n: e.shields, whose: whose(ctx, e.pawn > 0 ? 1 : 0), distance: Math.abs(e.pawn) });
    case "looted": return t("event.looted", { ...base, n: e.coins_lost });
    case "science_pair": return t("event.science_pair", { ...base, symbol: symbolWord(e.symbol) });
    case "progress_taken":
      return t(e.source === "great_library" ? "event.progress_taken_library" : "event.progress_taken",
        { ...base, token: tokenName(ctx, e.token) });
    case "library_drawn": return t("event.library_drawn", { ...base, n: e.tokens ? e.tokens.length : (e.count ?? 3) });
    case "card_destroyed":
      return you ? t("event.card_destroyed_yours", { card: cardName(ctx, e.card) })
        : t("event.card_destroyed", { card: cardName(ctx, e.card), name: ctx.name(e.seat) });
    case "card_built_from_discard": return t("event.card_built_from_discard", { ...base, card: cardName(ctx, e.card) });
    case "wonder_retired": return t("event.wonder_retired", { wonder: wonderName(ctx, e.wonder), name: ctx.name(e.seat) });
    case "play_again": return you ? t("event.play_again_you") : t("event.play_again", base);
    case "play_again_lost": return you ? t("event.play_again_lost_you") : t("event.play_again_lost", base);
    case "starter_chosen":
      if (e.starter === e.seat) return you ? t("event.starter_chosen_self_you") : t("event.starter_chosen_self", base);
      if (e.starter === ctx.seat) return t("event.starter_chosen_you", base);
      return t("event.starter_chosen", { who: base.who, name: ctx.name(e.starter) });
    case "taken_back": return you ? t("event.taken_back_you") : t("event.taken_back", base);
    case "game_over": {
      if (FORFEITS.includes(e.victory)) {  // said of the seat that lost
        const loser = 1 - e.winner;
        return loser === ctx.seat ? t(`event.${e.victory}_you`) : t(`event.${e.victory}`, { name: ctx.name(loser) });
      }
      const victory = t(`victory.short.${e.victory}`);
      if (e.winner === null || e.winner === undefined) return t("event.game_over_shared");
      return e.winner === ctx.seat ? t("event.game_over_you", { victory })
        : t("event.game_over", { name: ctx.name(e.winner), victory });
    }
    default: return null;
  }
}

// The events of one move as sentences (each ends with a stop).
export function moveSentences(ctx, events) {
  return (events ?? []).map((e) => describeEvent(ctx, e)).filter(Boolean)
    .map((text) => (text.endsWith(".") ? text : t("sentence", { text })));
}

export function turnText(ctx) {
  const { decision } = ctx;
  if (!decision) return "";
  if (ctx.myTurn) return t(`ask.${decision.kind}`);
  const kind = decision.kind === "destroy_card" && ctx.seat === null ? "destroy_card_watch" : decision.kind;
  return t(`doing.${kind}`, { name: ctx.name(decision.seat) });
}
