// The game page: one socket to the game (docs/protocol.md, static/js/socket.js), one store
// of the page's state (createStore, below), and the page drawn from it by Preact after every
// change (the table: static/js/table/). Also: the invite link while the creator waits,
// resigning and take-backs during the game (docs/protocol.md), the rematch controls once the
// game is over, an admin's abort (docs/lobby.md), and the your-turn notice of a background
// tab (static/js/notify.js). A seat the computer plays is named from its level; it is never
// "away", and it is not asked for a take-back (it never answers one).
import { html } from "htm/preact";
import { render } from "preact";
import { errorText as failureText, forgetSeat, loadSeat, request } from "./api.js";
import { computerName } from "./computer.js";
import { TurnNotice } from "./notify.js";
import { newClientId, Socket } from "./socket.js";
import { turnText as decisionText, roman } from "./table/describe.js";
import { LastMove, Log, logText } from "./table/log.js";
import { playMove, snapshot, drawing } from "./table/motion.js";
import {
  asksModule, chatModule, clocksModule, inviteModule, loadAsks, loadChat, loadClocks, loadInvite, loadPanels, makeContext, Table,
} from "./table/table.js";
import { catalogPath, loadWords, t, wordsLoaded } from "./words.js";

// One store of the page's state: what the server said (the view, the players, the game's
// status) and what the player opened (a dialog, a folded result). Every change goes
// through set(); the page redraws from the whole state after each.
function createStore(initial) {
  let state = initial;
  const listeners = new Set();
  return {
    get: () => state,
    set(change) {
      const patch = typeof change === "function" ? change(state) : change;
      state = { ...state, ...patch };
      for (const listener of listeners) listener(state);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const root = document.getElementById("game");
const CHAT_MUTED = "duel.chat.muted";
const gameId = root.dataset.gameId;
const notice = new TurnNotice({
  favicon: document.querySelector('link[rel="icon"]'), turnIcon: root.dataset.turnIcon,
});

// What this browser kept of its seat (its number; the creator's invite link): the player's
// session opens the seat, and the welcome says which.
let credentials = loadSeat(gameId);

const store = createStore({
  catalog: null,
  names: [t("player.default", { n: 1 }), t("player.default", { n: 2 })],
  seatsTaken: [false, false],
  computer: [null, null],  // the level of a seat the computer plays
  status: null,          // waiting | active | finished | aborted | imported
  listed: false,
  rated: false,          // the result moves both players' ratings
  ratings: [],           // a finished rated game's [{ seat, before, after }]
  seat: credentials ? credentials.seat : null,
  view: null,
  version: null,         // the version of the view shown; null before the first
  lastMove: null,
  log: [],               // [{ version, text }], oldest first
  rematch: { offered_by: null, game_id: null },
  declinedBy: null,      // who last declined or withdrew an offer, to say so
  withdrew: false,       // whether that was the offer's own maker withdrawing it
  takeBack: { offered_by: null, declined_by: null, withdrew: false },
  confirmResign: false,  // the resign button asks once more
  abortable: false,      // either player may still abort: neither has decided yet, or only one
  confirmAbort: false,   // the abort (or cancel) button asks once more
  firstMove: null,       // the seat to act's first decision: { seat, remaining, at: when heard }
  abortCause: null,      // admin | player | first_move | cancelled
  abortSeat: null,       // the seat that aborted, cancelled, or missed its first decision
  chat: { open: false, lines: [], unread: 0, muted: localStorage.getItem(CHAT_MUTED) === "1" },
  abortReason: null,
  connection: "connecting",
  presence: null,
  clock: null,           // a timed game's: { remaining, running, control, at: when heard }
  claimAfter: null,      // a game played live: seconds of absence before a win may be claimed
  awaySince: null,       // when the opponent was seen leaving (performance.now())
  claimFolded: false,    // the player chose to keep waiting
  error: null,           // { code, params, message } of the last refusal, shown until the next view
  missing: false,        // no such game: the page says so instead of the table
  panel: null,           // the dialog open: { kind: "card", card } | { kind: "city", seat } | { kind: "discard" }
  resultFolded: false,
});

const connection = new Socket(`/ws/games/${gameId}`, {
  onOpen: sendJoin,
  onMessage: handle,
  onStateChange: (state) => store.set({ connection: state }),
});

// ------------------------------------------------------------------------- the game's life

// Aborted and expired games and imported records take no more actions.
function isClosed(state = store.get()) {
  return ["aborted", "expired", "imported"].includes(state.status);
}

function act(action) {
  const state = store.get();
  if (state.version === null) return;
  if (isClosed(state)) {
    store.set({ error: { text: t(`turn.closed_${state.status}`) } });
    return;
  }
  if (state.status === "waiting") {
    store.set({ error: { text: t("turn.not_started") } });
    return;
  }
  connection.sendTracked({ type: "action", action, version: state.version, client_id: newClientId() });
}

function sendJoin() {
  const join = { type: "join" };  // without a token: as the seat the session holds, if any
  if (credentials?.token) Object.assign(join, { seat: credentials.seat, token: credentials.token });
  // From 0 the first time: the welcome then brings every earlier move, for the log.
  join.last_version = store.get().version ?? 0;
  connection.send(join);
}

function handle(message) {
  switch (message.type) {
    case "welcome":
    case "state": {
      const state = store.get();
      const patch = { seat: message.seat };
      if (message.status) patch.status = message.status;
      if (message.abort_reason) patch.abortReason = message.abort_reason;
      Object.assign(patch, { abortCause: message.abort_cause ?? null, abortSeat: message.abort_seat ?? null,
        abortable: Boolean(message.abortable) });
      useFirstMove(message.first_move);
      const missed = (message.missed ?? []).map((m) => ({ version: m.version, events: m.events }));
      show(message.version, message.view, state.version === message.version ? state.lastMove : null,
        patch, missed, false);
      if (message.rematch) useRematch(message.rematch, false);
      if (message.clock) useClock(message.clock);
      store.set({ claimAfter: message.claim_after ?? null });
      // The creator waits for a second player: the invite link to send (a failed fetch
      // is tried again with the next state).
      if (message.status === "waiting" && message.seat === 0 && credentials?.invite_url && !inviteModule()) {
        loadInvite().then(() => store.set({}), () => {});
      }
      const takeBack = { offered_by: message.take_back_offer ?? null, declined_by: null, withdrew: false };
      if (takeBack.offered_by === null) store.set({ takeBack });
      else whenAsked(() => store.set({ takeBack }));
      if (isClosed()) connection.forgetAll();  // nothing will be accepted any more
      connection.ready();  // online; the actions not yet acked go again, same client ids
      break;
    }
    case "update": {
      const state = store.get();
      if (state.version !== null && message.version <= state.version) break;  // already shown
      // Any action ends a take-back offer.
      const patch = { takeBack: { offered_by: null, declined_by: null, withdrew: false } };
      if (state.status === "waiting") {
        patch.status = "active";
        askStarted();
      }
      if (message.view.outcome) Object.assign(patch, { status: "finished", confirmResign: false });
      if (message.clock) useClock(message.clock);
      patch.abortable = Boolean(message.abortable);
      if (!patch.abortable) patch.confirmAbort = false;
      useFirstMove(message.first_move);
      show(message.version, message.view,
        { seat: message.seat, notation: message.notation, events: message.events },
        patch, [{ version: message.version, events: message.events }], true);
      break;
    }
    case "rematch":
      // An offer declined by the one who made it was withdrawn.
      store.set({ declinedBy: message.declined_by ?? null,
        withdrew: message.declined_by != null && message.declined_by === store.get().rematch.offered_by });
      useRematch(message, true);
      break;
    case "take_back":
      whenAsked(() => {
        // An offer for an older version has lapsed: an action came since (and ended it).
        if (message.offered_by !== null && message.version !== store.get().version) return;
        const before = store.get().takeBack.offered_by;
        store.set({ takeBack: { offered_by: message.offered_by ?? null, declined_by: message.declined_by ?? null,
          withdrew: message.declined_by != null && message.declined_by === before } });
      });
      break;
    case "chat":
    case "chat_history":
      heard(message.type === "chat" ? [message.message] : message.messages, message.type === "chat");
      break;
    case "aborted":
      store.set({ abortReason: message.reason, abortCause: message.cause ?? "admin", abortSeat: message.seat ?? null });
      becomeClosed("aborted");
      break;
    case "expired":
      becomeClosed("expired");
      break;
    case "error":
      handleError(message);
      break;
    case "presence": {
      const state = store.get();
      store.set({ presence: message.seats });
      seenAway();
      if (state.status === "waiting" || message.seats.some((here, s) => here && !state.seatsTaken[s])) {
        refreshSummary();  // someone joined: learn their name (and that the game started)
      }
      break;
    }
    default:
      break;
  }
}

function handleError(message) {
  if (message.code === "bad_credentials" && !connection.isReady && credentials?.token) {
    // The stored token holds no seat here (any more): join as the session's player.
    forgetSeat(gameId);
    credentials = null;
    sendJoin();
    return;
  }
  if (message.code === "aborted") {
    becomeClosed("aborted");
    return;
  }
  if (message.code === "stale_version") return;  // the newer view is on its way
  if (message.code === "not_abandoned") {  // the server's count of the absence is the one
    const wait = message.params?.wait;
    if (wait) awayFrom(performance.now() - (store.get().claimAfter - wait) * 1000);
    else store.set({ awaySince: null });
  }
  // `unavailable`, `busy`: nothing was changed; the socket asks again soon, the same join or the
  // same action (its client id makes sure it is applied once).
  store.set({ error: { code: message.code, params: message.params ?? {}, message: message.message } });
}

// Aborted or expired: nothing will be accepted any more.
function becomeClosed(status) {
  connection.forgetAll();
  useFirstMove(null);
  store.set({ status, panel: null, abortable: false, confirmAbort: false });
}

// A new view: drawn in place; on a live move, the cards taken travel (motion.js). Every
// update is measured ("duel:render": from the message to the DOM laid out; bench/render.py).
function show(version, view, lastMove, patch, moves, live) {
  const state = store.get();
  if (state.version !== null && version < state.version) return;
  const start = performance.now();
  const ctx = makeContext({ view, seat: patch.seat ?? state.seat, catalog: state.catalog, names: state.names });
  const log = moves.length
    ? [...state.log, ...moves.filter((m) => !state.log.some((e) => e.version === m.version))
      .map((m) => ({ version: m.version, text: logText(ctx, m.events) }))]
    : state.log;
  // A card's options stay open only while that card can still be taken by this player.
  if (state.panel?.kind === "card" && !(view.card_options ?? []).some((o) => o.card === state.panel.card)) {
    patch.panel = null;
  }
  const hadFocus = root.contains(document.activeElement);
  const before = live ? snapshot(root, lastMove?.events ?? []) : null;
  drawing(live, () => store.set({ ...patch, version, view, lastMove, log, error: null }));
  if (view.outcome) askRatings();
  root.getBoundingClientRect();  // lay the page out now, inside the measure
  performance.measure("duel:render", { start, end: performance.now() });
  if (live) playMove(root, before, lastMove?.events ?? [], (card) => state.catalog?.cards?.[card]?.color);
  // The focused card may be gone with the move: keep the keyboard on the table.
  if (hadFocus && (document.activeElement === document.body || !document.activeElement)) {
    root.querySelector(".bd-structure-wrap, .bd-prompt, .bd")?.focus({ preventScroll: true });
  }
}

// ------------------------------------------------------------------------------- rematch

function rematchPath(state = store.get()) {
  return `/games/${encodeURIComponent(state.rematch.game_id)}`;
}

// What the rematch controls under the result (table/end.js) are drawn from.
function rematchControls(state) {
  const { seat, rematch, declinedBy, withdrew } = state;
  // Against the computer a rematch starts at once: "Play again". The result shows the
  // game's analysis (table/analysis.js), fetched by its id.
  const computer = seat !== null && Boolean(state.computer[1 - seat]);
  return { seat, rematch, declinedBy, withdrew, computer, gameId, version: state.version,
    path: rematchPath(state), send: (type) => connection.send({ type }) };
}

function useRematch(offer, live) {
  // A rematch started is the last word (notices rung by two processes may cross).
  if (store.get().rematch.game_id && !offer.game_id) return;
  const rematch = { offered_by: offer.offered_by ?? null, game_id: offer.game_id ?? null };
  store.set({ rematch });
  if (!rematch.game_id) return;
  // The rematch's seat is opened by the session, as this game's was.
  // Only a rematch starting now moves the players on; an old finished game stays readable.
  if (live && store.get().seat !== null) location.assign(rematchPath());
}

// --------------------------------------------------------------------------------- chat

// Lines heard (live, or the chat so far), each once, in order; the unread count is of
// other people's lines arriving live while the chat is closed (and not muted).
function heard(lines, live) {
  const { chat, seat } = store.get();
  const known = new Set(chat.lines.map((line) => line.id));
  const fresh = lines.filter((line) => !known.has(line.id));
  const unseen = live && !chat.open && !chat.muted ? fresh.filter((line) => line.seat !== seat || seat === null).length : 0;
  store.set({ chat: { ...chat, lines: [...chat.lines, ...fresh].sort((a, b) => a.id - b.id), unread: chat.unread + unseen } });
}

function setChat(change) {
  store.set({ chat: { ...store.get().chat, ...change } });
}

function openChat() {
  loadChat().then(() => {
    setChat({ open: true, unread: 0 });
    connection.send({ type: "chat_history" });
  }, (error) => store.set({ error }));
}

const chatControls = {
  send: (message) => connection.send(message),
  close: () => setChat({ open: false }),
  setMuted(muted) {
    localStorage.setItem(CHAT_MUTED, muted ? "1" : "0");
    setChat({ muted });
  },
};

function Chat({ state, ctx }) {
  const { chat } = state;
  const module = chatModule();
  if (chat.open && module) return html`<${module.ChatPanel} ctx=${ctx} lines=${chat.lines} muted=${chat.muted} ...${chatControls} />`;
  return html`<button type="button" class="secondary chat-open" id="chat-open" onClick=${openChat}>
    ${chat.unread ? t("chat.unread", { n: chat.unread }) : t("chat.open")}</button>`;
}

// ------------------------------------------------------------------------ clocks, absence

function useClock(clock) {
  const control = clock.control ?? store.get().clock?.control ?? null;
  store.set({ clock: { ...clock, control, at: performance.now() } });
  if (!clocksModule()) loadClocks().then(() => store.set({}), () => {});
}

// The opponent's absence in a game played live, from when this page saw it begin. The
// countdown to the question (claim the win?) and its words come a few seconds in: most
// absences are a page reloading.
let claimTimer = null;
const SHOW_ABSENCE_AFTER = 5000;
function seenAway() {
  const { seat, presence, claimAfter, awaySince, computer } = store.get();
  const away = seat !== null && claimAfter !== null && presence && !presence[1 - seat] && !computer[1 - seat];
  if (!away) store.set({ awaySince: null, claimFolded: false });
  else if (awaySince === null) awayFrom(performance.now());
}

function awayFrom(since) {
  store.set({ awaySince: since });
  clearTimeout(claimTimer);
  const wait = Math.min(since + store.get().claimAfter * 1000, since + SHOW_ABSENCE_AFTER) - performance.now();
  claimTimer = setTimeout(() => whenAsked(() => store.set({})), Math.max(0, wait));
}

// ---------------------------------------------------------------- fair starts, aborting

// Until both players have made a decision of their own nothing is at stake: either may
// abort, and each first decision has a deadline (missed, the game is aborted). The
// countdown is redrawn each second while one runs.
let firstMoveTicker = null;
function useFirstMove(firstMove) {
  clearInterval(firstMoveTicker);
  firstMoveTicker = null;
  store.set({ firstMove: firstMove ? { ...firstMove, at: performance.now() } : null });
  if (firstMove) firstMoveTicker = setInterval(() => store.set({}), 1000);
}

// In the side column, and on a phone also in the status box (the side is screens below
// the table there, and 30 s is short): CSS shows one of the two.
function firstMoveLine(state, inStatus = false) {
  const { firstMove } = state;
  if (!firstMove || state.status !== "active") return null;
  const left = Math.max(0, Math.ceil((firstMove.remaining - (performance.now() - firstMove.at)) / 1000));
  // A correspondence game's first decision has days: said in hours. (The opponent is
  // not named: the side column has no room for a long name.)
  const [key, n] = left > 3600 ? ["_hours", Math.ceil(left / 3600)] : ["", left];
  const text = t(`first_move.${firstMove.seat === state.seat ? "yours" : "theirs"}${key}`, { n });
  return inStatus ? html`<p class="first-move first-move--status" role="status">${text}</p>`
    : html`<p id="first-move" class="first-move" role="status">${text}</p>`;
}

function abortedText(state, ctx) {
  const { abortCause: cause, abortSeat: seat } = state;
  if (cause === "player" || cause === "first_move" || cause === "cancelled") {
    const mine = seat !== null && seat === state.seat;
    return mine ? t(`aborted.${cause}_you`) : t(`aborted.${cause}`, { name: ctx.name(seat ?? 0) });
  }
  return state.abortReason ? t("aborted.reason", { reason: state.abortReason }) : t("aborted.plain");
}

// The abort button of a game in play, or the cancel button of one still waiting (its
// creator's): each asks once more before it is sent.
function AbortControls({ state, waiting }) {
  const key = waiting ? "cancel" : "abort";
  if (state.confirmAbort) {
    return html`<p class="play-buttons confirm-abort" role="group" aria-label=${t(`${key}.confirm`)}>
      <span>${t(`${key}.confirm`)}</span>
      <button type="button" class="danger" data-abort="confirm" onClick=${() => {
        store.set({ confirmAbort: false });
        connection.send({ type: "abort" });
      }}>${t(`${key}.yes`)}</button>
      <button type="button" class="secondary" data-abort="keep" onClick=${() => store.set({ confirmAbort: false })}>${t(`${key}.no`)}</button>
    </p>`;
  }
  return html`<p class="play-buttons"><button type="button" class="secondary" data-abort="ask"
    onClick=${() => store.set({ confirmAbort: true })}>${t(`${key}.button`)}</button></p>`;
}

function WaitingControls({ state }) {
  if (state.status !== "waiting" || state.seat !== 0 || !connection.isReady) return null;
  return html`<section id="play-controls" class="play-controls" aria-live="polite">
    <${AbortControls} state=${state} waiting=${true} />
  </section>`;
}

// --------------------------------------------------------------- resigning, taking back

// A take-back's questions and answers, and the resign confirmation, come with their words
// when first needed (table/asks.js, words/en-panels.js), not with the page.
function whenAsked(then) {
  if (asksModule()) then();
  else loadAsks().catch(() => {}).finally(then);
}

const asking = {
  send: (type) => connection.send({ type }),
  resign() {
    store.set({ confirmResign: false });
    connection.send({ type: "resign" });
  },
  keepPlaying: () => store.set({ confirmResign: false }),
  claim: () => connection.send({ type: "claim_win" }),
  keepWaiting: () => store.set({ claimFolded: true }),
};

function PlayControls({ state, ctx }) {
  const { seat, takeBack } = state;
  if (state.status !== "active" || !state.view || state.view.outcome) return null;
  const module = asksModule();
  const asked = module && (state.confirmResign || takeBack.offered_by !== null || takeBack.declined_by !== null);
  if (seat === null && !asked) return null;
  return html`<section id="play-controls" class="play-controls" aria-label=${t("play.title")} aria-live="polite">
    ${firstMoveLine(state)}
    ${seat !== null && state.abortable && !state.confirmResign ? html`<${AbortControls} state=${state} waiting=${false} />` : null}
    ${asked ? html`<${module.Asks} ctx=${ctx} seat=${seat} takeBack=${takeBack} confirmResign=${state.confirmResign} ...${asking} />` : null}
    ${module && seat !== null && state.awaySince !== null && !state.abortable
    ? html`<${module.Absence} ctx=${ctx} seat=${seat} since=${state.awaySince} claimAfter=${state.claimAfter}
        folded=${state.claimFolded} ...${asking} />` : null}
    ${seat !== null && !state.confirmResign && !state.confirmAbort ? html`<p class="play-buttons">
      ${takeBack.offered_by === null && state.view.can_take_back && !state.computer[1 - seat] ? html`<button type="button" class="secondary" data-take-back="offer"
        onClick=${() => asking.send("take_back")}>${t("play.take_back")}</button>` : null}
      ${state.abortable ? null : html`<button type="button" class="secondary" data-resign="ask" onClick=${() => whenAsked(() => store.set({ confirmResign: true }))}>${t("play.resign")}</button>`}
    </p>` : null}
  </section>`;
}

// ---------------------------------------------------------------------------------- page

function turnLine(state, ctx) {
  if (isClosed(state)) return t(`turn.closed_${state.status}`);
  if (state.status === "waiting") {
    if (state.seat !== 0) return t("turn.waiting_second");
    return state.listed ? t("turn.waiting_lobby") : t("turn.waiting_invite");
  }
  if (!state.view) return t("turn.connecting");
  const outcome = state.view.outcome;
  if (outcome) {
    if (outcome.winner === null || outcome.winner === undefined) return t("turn.over_shared");
    return outcome.winner === state.seat ? t("turn.over_you") : t("turn.over_them", { name: ctx.name(outcome.winner) });
  }
  return `${decisionText(ctx)}.`;
}

function stageLine(view, seat) {
  if (!view) return "";
  const parts = [view.phase === "draft" ? t("stage.draft", { round: view.draft?.round ?? 1 })
    : view.phase === "over" ? t("stage.over") : t("stage.age", { roman: roman(view.age) })];
  if (view.phase === "play") parts.push(t("facts.cards_left", { n: view.cards_left ?? 0 }));
  if (view.phase !== "draft") parts.push(t("facts.wonders_built", { n: view.wonders_built ?? 0 }));
  if (seat === null) parts.push(t("facts.watching"));
  return parts.join(" · ");
}

// The page's own words ({text}), or a refusal worded from its code (api.js). The words of
// refusals come with the first one: until they are here the toast waits (a blink), rather
// than show the server's own English.
function errorText(error) {
  if (!error) return "";
  if (error.text !== undefined) return error.text;
  if (!wordsLoaded("server")) {
    loadWords("server").catch(() => {}).finally(() => store.set({}));
    return "";
  }
  return failureText(error);
}

// The view as the table should draw it: a closed game offers no move to anyone, nor does a
// game still waiting for its second player (the creator's first pick would be refused).
function tableView(state) {
  if (!state.view || (!isClosed(state) && state.status !== "waiting")) return state.view;
  return { ...state.view, to_act: null, decision: null, legal_actions: [], card_options: [] };
}

function openPanel(panel) {
  if (!panel) store.set({ panel: null });
  else loadPanels().then(() => store.set({ panel }), (error) => store.set({ error }));
}

const ui = {
  openPanel,
  openCard: (card) => openPanel({ kind: "card", card }),
  foldResult: (folded) => store.set({ resultFolded: folded }),
};

function Indicators({ state, ctx }) {
  // The computer has no socket: it is never said to be here or away.
  const others = [0, 1].filter((s) => s !== state.seat && state.seatsTaken[s] && !state.computer[s]);
  const presence = state.presence ? others.map((s) => t(state.presence[s] ? "presence.here" : "presence.away", { name: ctx.name(s) })).join(" · ") : "";
  const notifications = notice.notifications;
  return html`<p class="indicators">
    <span id="connection" class="connection" data-state=${state.connection}>${t(`connection.${state.connection}`)}</span>
    <span id="presence" class="presence">${presence}</span>
    ${state.seat !== null ? html`
      <button type="button" class="toggle" id="sound-toggle" aria-pressed=${String(!notice.muted)} title=${t("sound.toggle")}
          onClick=${() => { notice.setMuted(!notice.muted); store.set({}); }}>${notice.muted ? t("sound.off") : t("sound.on")}</button>
      ${notifications !== "unsupported" ? html`<button type="button" class="toggle" id="notify-toggle" aria-pressed=${String(notifications === "on")}
          title=${t("notify.toggle")} disabled=${notifications === "denied"}
          onClick=${async () => { await notice.toggleNotifications(); store.set({}); }}>${t(notifications === "on" ? "notify.on" : notifications === "denied" ? "notify.denied" : "notify.ask")}</button>` : null}` : null}
  </p>`;
}

function MissingGame({ error }) {
  return html`<section class="panel missing-game">
    <p id="game-error" class="error" role="alert">${errorText(error)}</p>
    <p><a href="/">${t("missing.lobby")}</a></p>
  </section>`;
}

function GamePage({ state, view, ctx }) {
  if (state.missing) return html`<${MissingGame} error=${state.error} />`;
  const names = [0, 1].map((s) => (state.seatsTaken[s] || s === 0 ? ctx.name(s) : t("player.empty_seat")));
  const invite = state.status === "waiting" && state.seat === 0 ? credentials?.invite_url : null;
  const error = errorText(state.error);
  return html`
    <header class=${`status${ctx.myTurn ? " is-my-turn" : ""}`}>
      <div class="status-main">
        <h1 id="players" class="players">${[0, 1].map((s) => html`${s ? html`<span class="versus"> ${t("versus")} </span>` : null}<span class=${`player-name seat-${s}`} data-seat=${s}><span class="bd-name" title=${names[s]}>${names[s]}</span>${s === state.seat ? html`<span class="you"> ${t("you.marker")}</span>` : null}</span>`)}</h1>
        <p class="stage">${stageLine(state.view, state.seat)}</p>
        <p id="turn" class="turn" role="status" aria-live="polite">${turnLine(state, ctx)}</p>
        ${firstMoveLine(state, true)}
        ${state.clock && clocksModule() ? html`<${clocksModule().Clocks} clock=${state.clock} ctx=${ctx} />` : null}
      </div>
      <${Indicators} state=${state} ctx=${ctx} />
    </header>
    ${invite && inviteModule() ? html`<${inviteModule().Invite} link=${invite} control=${state.timeControl} />` : null}
    ${state.status === "expired" ? html`<p id="expired-banner" class="banner aborted-banner" role="alert">${t("expired.banner")}</p>` : null}
    ${state.status === "aborted" ? html`<p id="aborted-banner" class="banner aborted-banner" role="alert">${abortedText(state, ctx)}</p>` : null}
    <p id="game-error" class="error toast" role="alert" hidden=${!error}>${error}</p>
    <div class="game-layout">
      <div id="board" class="board bd-root">
        <${Table} ctx=${ctx} end=${state.status === "finished" || view?.outcome ? rematchControls(state) : null} />
      </div>
      <aside class="side">
        <${WaitingControls} state=${state} />
        <${PlayControls} state=${state} ctx=${ctx} />
        ${state.view && state.status !== "waiting" ? html`<${Chat} state=${state} ctx=${ctx} />` : null}
        <${LastMove} ctx=${ctx} />
        <${Log} entries=${state.log} />
      </aside>
    </div>`;
}

// Attributes written only when they change: an unchanged write is still a DOM mutation.
function setData(element, values) {
  for (const [name, value] of Object.entries(values)) {
    if (element.dataset[name] !== value) element.dataset[name] = value;
  }
}

function draw(state) {
  const view = tableView(state);
  const ctx = makeContext({ view, seat: state.seat, catalog: state.catalog, names: state.names, lastMove: state.lastMove,
    ratings: state.ratings }, { ...ui, panel: state.panel, resultFolded: state.resultFolded }, act);
  render(html`<${GamePage} state=${state} view=${view} ctx=${ctx} />`, root);
  setData(root, {
    status: state.status ?? "",
    seat: state.seat === null ? "" : String(state.seat),
    version: state.version === null ? "" : String(state.version),
    toAct: view?.to_act === null || view?.to_act === undefined ? "" : String(view.to_act),
    age: view ? String(view.age) : "",
    phase: view?.phase ?? "",
  });
  const title = t("title.game", { a: ctx.name(0), b: state.seatsTaken[1] ? ctx.name(1) : "…" });
  const myTurn = state.status === "active" && Boolean(view) && !view.outcome && ctx.myTurn;
  const noticeOn = notice.update({ title, myTurn, opponent: ctx.name(ctx.top) }) ? "on" : "";
  setData(root, { turnNotice: noticeOn });
}

store.subscribe(draw);
document.addEventListener("visibilitychange", () => draw(store.get()));

// ------------------------------------------------------------------------------ summary

// The game started while this page waited: the state again, with what a started game's
// has (its clocks, how long an absent opponent is waited for).
function askStarted() {
  if (connection.isReady) connection.send({ type: "sync", last_version: store.get().version ?? 0 });
}

function useSummary(summary) {
  const state = store.get();
  const patch = {
    names: summary.seats.map((s) => (s.computer ? computerName(s.computer)
      : s.name ?? t("player.default", { n: s.seat + 1 }))),
    seatsTaken: summary.seats.map((s) => Boolean(s.taken)),
    computer: summary.seats.map((s) => s.computer ?? null),
    listed: Boolean(summary.listed),
    timeControl: summary.time_control ?? null,
    rated: Boolean(summary.rated),
    ratings: summary.ratings ?? [],
  };
  // The socket's word on the status is fresher, except that a summary read after it may
  // show the game started.
  if (summary.status === "aborted" && state.abortCause === null) {
    Object.assign(patch, { abortCause: summary.abort_cause ?? "admin", abortSeat: summary.abort_seat ?? null });
  }
  if (state.status === null || (state.status === "waiting" && summary.status !== "waiting")) {
    patch.status = summary.status;
    if (state.status === "waiting") askStarted();
  }
  store.set(patch);
}

// A rated game is over: its summary says what it did to the ratings (written with the
// last move, so there by the time the move is heard). Asked once per page.
let ratingsAsked = false;
function askRatings() {
  const state = store.get();
  if (ratingsAsked || !state.rated || state.ratings.length) return;
  ratingsAsked = true;
  refreshSummary();
}

async function refreshSummary() {
  try {
    useSummary(await request("GET", `/api/games/${gameId}`));
  } catch (error) {
    store.set({ error });
  }
}

// The catalog and the game's summary, then the socket; asked again (2 s, 4 s, … 30 s
// apart) while the server cannot answer, as during a deploy.
async function start(attempt = 0) {
  try {
    const [catalog, summary] = await Promise.all([
      request("GET", catalogPath), request("GET", `/api/games/${gameId}`)]);
    store.set({ catalog, error: null });
    useSummary(summary);
  } catch (error) {
    // No such game: said in place of the table, which would only wait for it.
    store.set({ error, missing: error.code === "not_found" });
    if (error.code !== "not_found") setTimeout(() => start(attempt + 1), Math.min(2000 * 2 ** attempt, 30_000));
    return;
  }
  connection.start();
}

draw(store.get());
start();
