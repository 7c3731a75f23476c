// The game table on one screen: the opponent's city above, the board (military track,
// progress tokens, discard pile) and the structure (or the wonder draft) in the middle,
// the viewer's city below; decisions as an overlay on the structure, the card options and
// details in dialogs. Rendered by Preact, so each update changes the DOM in place (focus,
// scroll and transitions survive).
//
//   <Table model=${{ view, seat, catalog, names, lastMove }} ui=${uiState} act=${fn} end=${rematch} />
//
// `ui` is the page's UI state and its setters (see static/js/game.js): { panel,
// resultFolded, openPanel(panel|null), openCard(id), foldResult(bool) }. Every button that
// sends an action carries data-action="<notation>"; a card the viewer may take is a
// <button data-card="<id>"> that opens its options. `end` (once the game is over) is what
// the rematch controls under the result are drawn from (Rematch in table/end.js).
import { html } from "htm/preact";
import { Component } from "preact";
import { loadWords, t } from "../words.js";
import { City, lastMoveMarks } from "./city.js";
import { roman } from "./describe.js";
import { Board, boardSignature } from "./military.js";
import { Draft, Prompt } from "./prompts.js";
import { Structure } from "./structure.js";

const NO_PRICES = { cards: {}, wonders: {} };

// A part of the page that cannot be fetched (the connection dropped, or a release deployed
// since the page was drawn, whose files have other names: app/api/bundles.py) is said, with
// a reload, as templates/base.html says it of the page's own script, until a later try
// brings it.
function partMissing(missing) {
  const notice = document.getElementById("page-failed");
  if (notice) notice.hidden = !missing;
}

// A module fetched the first time it is needed, not with the page (`also`: what must come
// with it). `fetch` is a literal import(), so that a bundle (app/api/bundles.py) knows the
// module and its imports. A failed fetch is asked again the next time: browsers no longer
// remember a failed module fetch (whatwg/html#10327), and one that still does fails fast.
function lazyModule(fetch, also = () => null) {
  let module = null;
  let loading = null;
  return {
    get: () => module,
    load() {
      loading ??= Promise.all([fetch(), also()]).then(([loaded]) => {
        module = loaded;
        partMissing(false);
      }, (error) => {
        loading = null;
        partMissing(true);
        throw error;
      });
      return loading;
    },
  };
}

// The dialogs (a card's options, a city's details, the discard pile) come the first time
// one opens: most of a first visit is looking, not opening. The result banner comes when
// a game is over, with the game's analysis (analysis.js). Their words come with them
// (words/en-panels.js, words/en-analysis.js), and the words of the server's reasons with
// the dialogs (why an option is refused).
const panels = lazyModule(() => import("./dialogs.js"), () => Promise.all([loadWords("panels"), loadWords("server")]));
const ending = lazyModule(() => import("./end.js"), () => Promise.all([loadWords("panels"), loadWords("analysis")]));
export const loadPanels = () => panels.load();
// The chat, when a player first opens it (with its words, and the server's for refusals).
const chat = lazyModule(() => import("./chat.js"), () => Promise.all([loadWords("panels"), loadWords("server")]));
export const loadChat = () => chat.load();
export const chatModule = () => chat.get();
// The invite link, on a game waiting for its second player.
const invite = lazyModule(() => import("./invite.js"), () => Promise.all([loadWords("panels"), loadWords("clocks")]));
export const loadInvite = () => invite.load();
export const inviteModule = () => invite.get();
// The players' clocks, once a game turns out to be timed.
const clocks = lazyModule(() => import("./clocks.js"), () => loadWords("clocks"));
export const loadClocks = () => clocks.load();
export const clocksModule = () => clocks.get();
// What a player is asked during the game (resign? a take-back), when first needed.
const asks = lazyModule(() => import("./asks.js"), () => loadWords("panels"));
export const loadAsks = () => asks.load();
export const asksModule = () => asks.get();

// The result banner, drawn once end.js is here: fetched when first drawn, and asked
// again every few seconds should that fail. (A class, as every component the table draws
// before a dialog opens: preact/hooks is not part of the first load.)
class Result extends Component {
  componentDidMount() {
    this.fetch();
  }

  componentWillUnmount() {
    this.gone = true;
    clearTimeout(this.timer);
  }

  fetch() {
    if (ending.get()) return;
    ending.load().then(() => {
      if (!this.gone) this.forceUpdate();
    }, () => {
      if (!this.gone) this.timer = setTimeout(() => this.fetch(), 3000);
    });
  }

  render({ ctx, end }) {
    const module = ending.get();
    if (!module) return null;
    return html`<${module.ResultBanner} ctx=${ctx} gameId=${end?.gameId ?? null} version=${end?.version ?? null}>${end ? html`<${module.Rematch} ctx=${ctx} ...${end} />` : null}<//>`;
  }
}

export function makeContext(model, ui = {}, act = () => {}) {
  const view = model.view;
  const seat = model.seat === 0 || model.seat === 1 ? model.seat : null;
  const catalog = model.catalog ?? { cards: {}, wonders: {}, tokens: {} };
  const decision = view?.decision ?? null;
  const events = model.lastMove?.events ?? [];
  const bottom = seat ?? 0;
  const names = model.names ?? [];
  const ctx = {
    view, seat, catalog, ui, act, decision, events, bottom, top: 1 - bottom,
    lastMove: model.lastMove ?? null,
    ratings: model.ratings ?? [],

    legal: new Map((view?.legal_actions ?? []).map((entry) => [entry.notation, entry])),
    cardOptions: new Map((view?.card_options ?? []).map((option) => [option.card, option])),
    prices: seat !== null && view?.prices ? view.prices : NO_PRICES,
    me: seat !== null ? view?.players?.[seat] : null,
    myTurn: seat !== null && decision !== null && decision.seat === seat && view?.to_act === seat,
    newAge: events.some((e) => e.type === "age_started"),
    revealed: new Set(events.filter((e) => e.type === "card_revealed").map((e) => e.slot)),
    marks: lastMoveMarks(events),
    name: (s) => {
      // The table says "you" itself: a "(you)" added to a name is dropped.
      const given = String(names[s] ?? "").replace(/\s*\(you\)\s*$/i, "").trim();
      return given || t("player.default", { n: s + 1 });
    },
  };
  return ctx;
}

export function Table({ ctx, end = null }) {
  const { view } = ctx;
  if (!view) return html`<p class="bd-empty">${t("turn.connecting")}</p>`;
  const drafting = view.phase === "draft";
  return html`<div class=${`bd bd--${view.phase}`} data-age=${view.age} data-phase=${view.phase}>
    <${City} ctx=${ctx} seat=${ctx.top} position="top" />
    <${Board} ctx=${ctx} sig=${boardSignature(ctx)} />
    <div class="bd-centre">
      ${drafting ? html`<${Draft} ctx=${ctx} />` : html`<${Structure} ctx=${ctx} />`}
      <${Prompt} ctx=${ctx} />
      ${!drafting ? html`<span class="bd-age-mark" aria-hidden="true">${roman(view.age)}</span>` : null}
    </div>
    <${City} ctx=${ctx} seat=${ctx.bottom} position="bottom" />
    ${view.outcome ? html`<${Result} ctx=${ctx} end=${end} />` : null}
    ${panels.get() && ctx.ui.panel ? html`<${panels.get().Panels} ctx=${ctx} />` : null}
  </div>`;
}
