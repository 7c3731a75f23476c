// The board between the cities: the conflict track (capitals at the ends, the zones, the
// loot tokens, the pawn, which slides when it moves), the progress tokens lying on it, and
// the discard pile's button. Left is the bottom player's capital (the viewer's, when
// seated), right the top player's.
import { html } from "htm/preact";
import { listOf, t } from "../words.js";
import { Hidden, longestWord, TokenDisc } from "./cards.js";
import { describeToken, tokenName, who, whose } from "./describe.js";
import { Capital, MilitaryToken, Pawn } from "./glyphs.js";
import { pure } from "./pure.js";

function zonePoints(distance) {
  const d = Math.abs(distance);
  if (d === 0) return 0;
  if (d <= 2) return 2;
  if (d <= 5) return 5;
  if (d <= 8) return 10;
  return null;  // a capital
}

const ZONES = [
  { span: 1, vp: null }, { span: 3, vp: 10 }, { span: 3, vp: 5 }, { span: 2, vp: 2 },
  { span: 1, vp: 0 },
  { span: 2, vp: 2 }, { span: 3, vp: 5 }, { span: 3, vp: 10 }, { span: 1, vp: null },
];

export function militarySummary(ctx) {
  const pawn = ctx.view.military?.pawn ?? 0;
  if (pawn === 0) return t("military.even");
  const leader = pawn > 0 ? 0 : 1;
  const d = Math.abs(pawn);
  const points = t("n.points", { n: zonePoints(pawn) ?? 0 });
  if (leader === ctx.seat) {
    return t("military.lead_you", { n: d, points, more: 9 - d, whose: whose(ctx, 1 - leader) });
  }
  return t("military.lead_them", { name: who(ctx, leader), n: d, points });
}

// What the board shows, to draw it again only when that changes.
export function boardSignature(ctx) {
  const { view } = ctx;
  return JSON.stringify([view.military, view.progress_board, view.discard?.length,
    (view.discard ?? []).slice(-3), ctx.seat, ctx.name(0), ctx.name(1)]);
}

export const Board = pure(drawBoard, (a, b) => a.sig === b.sig);

function drawBoard({ ctx }) {
  const { view } = ctx;
  const pawn = view.military?.pawn ?? 0;
  const flip = ctx.bottom === 1 ? -1 : 1;
  const position = pawn * flip + 9;  // 0 (bottom capital) .. 18 (top capital)
  const loot = view.military?.loot_tokens ?? [];
  const lootFor = (seat, coins) => loot.find((token) => token.seat === seat && token.coins === coins);
  // Loot tokens lie on the side of the player who loses the coins.
  const lootCells = [
    { start: 2, span: 3, seat: ctx.bottom, coins: 5 }, { start: 5, span: 3, seat: ctx.bottom, coins: 2 },
    { start: 13, span: 3, seat: ctx.top, coins: 2 }, { start: 16, span: 3, seat: ctx.top, coins: 5 },
  ];
  const lootLeft = loot.filter((token) => token.available)
    .map((token) => t("military.token", { whose: whose(ctx, token.seat), n: token.coins }));
  const summary = militarySummary(ctx);
  let column = 1;
  const tokens = view.progress_board ?? [];
  const pile = view.discard ?? [];
  return html`<section class="bd-board" aria-label=${t("table.label")}>
    <div class="bd-military" aria-labelledby="bd-military-title">
      <h2 id="bd-military-title" class="bd-sr">${t("military.title")}</h2>
      <div class="bd-track" role="img" aria-label=${`${t("military.track")}. ${summary} ${listOf(lootLeft)}`}>
        <span class="bd-capital bd-capital--bottom" aria-hidden="true" title=${t("military.capital", { whose: whose(ctx, ctx.bottom) })}><${Capital} /></span>
        ${ZONES.map((zone, i) => {
          const style = `grid-column:${column} / span ${zone.span}`;
          column += zone.span;
          const cls = zone.vp === null ? "capital" : `z${zone.vp}`;
          const side = i < 4 ? " bd-zone--bottom" : i > 4 ? " bd-zone--top" : "";
          return html`<span class=${`bd-zone bd-zone--${cls}${side}`} style=${style} aria-hidden="true">${zone.vp ? html`<span class="bd-zone-vp">${zone.vp}</span>` : null}</span>`;
        })}
        ${lootCells.map((cell) => {
          const token = lootFor(cell.seat, cell.coins);
          return html`<span class=${`bd-loot${token?.available ? "" : " is-gone"}`} style=${`grid-column:${cell.start} / span ${cell.span}`} aria-hidden="true">
            ${token?.available ? html`<${MilitaryToken} value=${cell.coins} />` : null}</span>`;
        })}
        <span class="bd-pawn" style=${`--pos:${position}`} data-pawn=${pawn} aria-hidden="true"><${Pawn} /></span>
        <span class="bd-capital bd-capital--top" aria-hidden="true" title=${t("military.capital", { whose: whose(ctx, ctx.top) })}><${Capital} /></span>
      </div>
      <p class="bd-track-summary">${summary}</p>
    </div>
    <div class="bd-progress" aria-labelledby="bd-progress-title">
      <h2 id="bd-progress-title" class="bd-sr">${t("progress.board_count", { n: tokens.length })}</h2>
      ${tokens.length ? html`<ul class="bd-token-row">${tokens.map((id) => html`<li key=${id} class="bd-token-spot" title=${describeToken(ctx, id)} data-motion-key=${`token:${id}`}>
          <${TokenDisc} id=${id} /><span class="bd-token-label" style=${{ "--word": longestWord(tokenName(ctx, id)) }}>${tokenName(ctx, id)}</span><${Hidden}>${describeToken(ctx, id)}<//></li>`)}</ul>`
        : html`<p class="bd-none">${t("progress.none")}</p>`}
    </div>
    <button type="button" class="bd-discard-button" data-motion-key="discard" data-focus-key="discard-toggle"
        aria-haspopup="dialog" onClick=${() => ctx.ui.openPanel({ kind: "discard" })}>
      <span class="bd-discard-pile" aria-hidden="true">${pile.slice(-3).map((id, i) => html`<span class=${`bd-discard-card bd-card--${ctx.catalog.cards?.[id]?.color ?? "brown"}`} style=${`--i:${i}`}></span>`)}</span>
      <span>${t("discard.show", { n: pile.length })}</span>
    </button>
  </section>`;
}
