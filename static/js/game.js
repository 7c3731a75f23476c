// The game page: one socket to the game (docs/protocol.md), the status line with the
// players' names, the invite link while the creator waits, the log (one numbered entry per
// move), the rematch controls once the game is over and the notice of an admin's abort
// (docs/lobby.md), the your-turn notice of a background tab (title and favicon), and the
// board (board.js) redrawn after every update.
import { forgetSeat, loadSeat, request, saveSeat, showError } from "./api.js";
import { describeEvents, renderBoard } from "./board.js";
import { newClientId, Socket } from "./socket.js";

const root = document.getElementById("game");
const boardRoot = document.getElementById("board");
const playersLine = document.getElementById("players");
const turnLine = document.getElementById("turn");
const connectionBadge = document.getElementById("connection");
const presenceBadge = document.getElementById("presence");
const rematchBox = document.getElementById("rematch");
const abortedBanner = document.getElementById("aborted-banner");
const logList = document.getElementById("log");
const errorBox = document.getElementById("game-error");
const inviteBox = document.getElementById("waiting-invite");
const inviteUrl = document.getElementById("invite-url");
const copyButton = document.getElementById("copy-invite");
const favicon = document.querySelector('link[rel="icon"]');
const plainIcon = favicon?.getAttribute("href") ?? "";
const turnIcon = root.dataset.turnIcon;

const gameId = root.dataset.gameId;
// A seat's token when this browser took the seat over HTTP; otherwise the player's
// session opens their seat, and the welcome says which.
let credentials = loadSeat(gameId);
let seat = credentials ? credentials.seat : null;

let catalog = null;
let names = ["Player 1", "Player 2"];
let seatsTaken = [false, false];
let status = null;         // waiting | active | finished | aborted | imported
let listed = false;
let rematch = { offered_by: null, game_id: null };
let declinedBy = null;     // who last declined or withdrew an offer, to say so
let abortReason = null;
let view = null;
let version = null;        // the version of the view shown; null before the first
let lastMove = null;
// The socket (socket.js) reconnects, answers pings, joins again on every new socket, and
// keeps each action until its ack, sent again (same client id) after a reconnect or an
// `unavailable` answer.
const CONNECTION_TEXT = { connecting: "Connecting…", online: "Connected", offline: "Reconnecting…" };
const connection = new Socket(`/ws/games/${gameId}`, {
  onOpen: sendJoin,
  onMessage: handle,
  onStateChange: (state) => setConnection(state, CONNECTION_TEXT[state]),
});

function send(message) {
  connection.send(message);
}

// Aborted games and imported records take no more actions.
function isClosed() {
  return status === "aborted" || status === "imported";
}

function act(action) {
  if (version === null) return;
  if (isClosed()) {
    showError(errorBox, { message: closedText() });
    return;
  }
  if (status === "waiting") {
    showError(errorBox, { message: "The game starts when your opponent joins." });
    return;
  }
  connection.sendTracked({ type: "action", action, version, client_id: newClientId() });
}

function sendJoin() {
  const join = { type: "join" };  // without a token: as the seat the session holds, if any
  if (credentials) Object.assign(join, { seat: credentials.seat, token: credentials.token });
  // From 0 the first time: the welcome then brings every earlier move, for the log.
  join.last_version = version ?? 0;
  send(join);
}

function handle(message) {
  switch (message.type) {
    case "welcome":
    case "state":
      seat = message.seat;
      if (message.status) status = message.status;
      if (message.abort_reason) abortReason = message.abort_reason;
      if (message.rematch) useRematch(message.rematch, false);
      for (const missed of message.missed ?? []) logMove(missed.version, missed.events, message.view);
      show(message.version, message.view, version === message.version ? lastMove : null);
      if (isClosed()) connection.forgetAll();  // nothing will be accepted any more
      connection.ready();  // online; the actions not yet acked go again, same client ids
      break;
    case "update":
      if (version !== null && message.version <= version) break;  // already shown
      if (status === "waiting") status = "active";
      if (message.view.outcome) status = "finished";
      logMove(message.version, message.events, message.view);
      show(message.version, message.view,
        { seat: message.seat, notation: message.notation, events: message.events });
      break;
    case "rematch":
      declinedBy = message.declined_by ?? null;
      useRematch(message, true);
      redraw();
      break;
    case "aborted":
      abortReason = message.reason;
      becomeAborted();
      break;
    case "error":
      handleError(message);
      break;
    case "presence":
      showPresence(message.seats);
      if (status === "waiting" || message.seats.some((here, s) => here && !seatsTaken[s])) {
        refreshSummary();  // someone joined: learn their name (and that the game started)
      }
      break;
    default:
      break;
  }
}

function handleError(message) {
  if (message.code === "unavailable") {
    // Nothing was changed: the socket asks again soon, the same join or the same action
    // (its client id makes sure it is applied once).
    showError(errorBox, { message: message.message });
    return;
  }
  if (message.code === "bad_credentials" && !connection.isReady && credentials) {
    // The stored token holds no seat here (any more): join as the session's player.
    forgetSeat(gameId);
    credentials = null;
    sendJoin();
    return;
  }
  if (message.code === "aborted") {
    becomeAborted();
    return;
  }
  if (message.code === "stale_version") return;  // the newer view is on its way
  showError(errorBox, { message: message.message });
}

function becomeAborted() {
  status = "aborted";
  connection.forgetAll();  // nothing will be accepted any more
  redraw();
}

// ---------------------------------------------------------------------------------------
// Rematch
// ---------------------------------------------------------------------------------------

function useRematch(state, live) {
  rematch = { offered_by: state.offered_by ?? null, game_id: state.game_id ?? null };
  if (!rematch.game_id) return;
  rememberRematchSeat();
  // Only a rematch starting now moves the players on; an old finished game stays readable.
  if (live && seat !== null) location.assign(rematchPath());
}

function rematchPath() {
  return `/games/${encodeURIComponent(rematch.game_id)}`;
}

// The same token holds the other seat number in the rematch (the seats are swapped).
function rememberRematchSeat() {
  if (credentials && !loadSeat(rematch.game_id)) {
    saveSeat(rematch.game_id, { seat: 1 - credentials.seat, token: credentials.token });
  }
}

function button(text, onClick, attributes = {}) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.addEventListener("click", onClick);
  return element;
}

function words(text) {
  const element = document.createElement("span");
  element.className = "rematch-text";
  element.textContent = text;
  return element;
}

function rematchParts() {
  const other = seat === null ? null : 1 - seat;
  if (rematch.game_id) {
    const link = document.createElement("a");
    link.href = rematchPath();
    link.id = "rematch-link";
    link.textContent = seat === null ? "Watch the rematch" : "Go to the rematch";
    return [words("The rematch has started."), link];
  }
  if (seat === null) {
    if (rematch.offered_by !== null) return [words(`${names[rematch.offered_by]} offers a rematch.`)];
    if (declinedBy !== null) return [words(`${names[declinedBy]} declined the rematch.`)];
    return [];
  }
  if (rematch.offered_by === null) {
    const note = declinedBy === other ? [words(`${names[other]} declined the rematch.`)] : [];
    return [...note, button("Offer a rematch", () => send({ type: "rematch" }),
      { "data-rematch": "offer" })];
  }
  if (rematch.offered_by === seat) {
    return [words(`Waiting for ${names[other]}…`),
      button("Withdraw the offer", () => send({ type: "decline_rematch" }),
        { "data-rematch": "withdraw", class: "secondary" })];
  }
  return [words(`${names[other]} offers a rematch:`),
    button("Accept", () => send({ type: "rematch" }), { "data-rematch": "accept" }),
    button("Decline", () => send({ type: "decline_rematch" }),
      { "data-rematch": "decline", class: "secondary" })];
}

function renderRematch() {
  const parts = status === "finished" ? rematchParts() : [];
  const hadFocus = rematchBox.contains(document.activeElement);
  rematchBox.replaceChildren(...parts);
  rematchBox.hidden = parts.length === 0;
  rematchBox.dataset.offeredBy = rematch.offered_by === null ? "" : String(rematch.offered_by);
  // The clicked button is gone: keep the keyboard in the box.
  if (hadFocus) rematchBox.querySelector("button, a")?.focus();
}

// ---------------------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------------------

function show(newVersion, newView, move) {
  if (version !== null && newVersion < version) return;
  version = newVersion;
  view = newView;
  lastMove = move;
  errorBox.hidden = true;
  redraw();
}

// The view as the board should draw it: a closed game offers no move to anyone, nor does
// a game still waiting for its second player (the creator's first pick would be refused).
function boardView() {
  if (!isClosed() && status !== "waiting") return view;
  return { ...view, to_act: null, decision: null, legal_actions: [] };
}

function redraw() {
  root.dataset.status = status ?? "";
  root.dataset.seat = seat === null ? "" : String(seat);
  showNames();
  renderRematch();
  renderInvite();
  abortedBanner.hidden = status !== "aborted";
  abortedBanner.textContent = abortReason
    ? `An admin aborted this game: ${abortReason}` : "An admin aborted this game.";
  if (!view) return;
  const shown = boardView();
  root.dataset.version = String(version);
  root.dataset.toAct = shown.to_act === null || shown.to_act === undefined ? "" : String(shown.to_act);
  root.dataset.age = String(view.age);
  root.dataset.phase = view.phase;
  renderBoard(boardRoot, { view: shown, seat, catalog, names, lastMove }, { act });
  turnLine.textContent = turnText();
}

function closedText() {
  return status === "aborted" ? "Game stopped: no more moves can be made."
    : "This game is an imported record, for viewing only.";
}

function turnText() {
  if (isClosed()) return closedText();
  if (status === "waiting") {
    if (seat !== 0) return "Waiting for a second player…";
    return listed ? "Waiting for an opponent to join from the lobby…"
      : "Waiting for your opponent to open the invite link…";
  }
  if (view.outcome) {
    const { winner, victory } = view.outcome;
    return winner === null ? `Game over: shared victory (${victory}).`
      : winner === seat ? `Game over: you win (${victory} victory).`
        : `Game over: ${names[winner]} wins (${victory} victory).`;
  }
  if (view.to_act === seat) return "Your turn.";
  return `${names[view.to_act]} is playing.`;
}

function showNames() {
  const parts = [0, 1].map((s) => {
    const name = document.createElement("span");
    name.className = `player-name seat-${s}`;
    name.dataset.seat = String(s);
    name.textContent = seatsTaken[s] || s === 0 ? names[s] : "an empty seat";
    if (s === seat) {
      const you = document.createElement("span");
      you.className = "you";
      you.textContent = " (you)";
      name.append(you);
    }
    return name;
  });
  const versus = document.createElement("span");
  versus.className = "versus";
  versus.textContent = " vs ";
  playersLine.replaceChildren(parts[0], versus, parts[1]);
  plainTitle = `${names[0]} vs ${seatsTaken[1] ? names[1] : "…"} · 7 Wonders Duel`;
  showTurnNotice();
}

// ---------------------------------------------------------------------------------------
// The your-turn notice of a background tab, and the invite link while waiting
// ---------------------------------------------------------------------------------------

let plainTitle = document.title;

function myDecision() {
  return status === "active" && view !== null && !view.outcome && seat !== null
    && view.to_act === seat;
}

// While the tab is hidden and this player has a decision to make, the title says so and
// the favicon carries a dot; both come back as the tab is shown or the turn passes.
function showTurnNotice() {
  const notice = document.visibilityState === "hidden" && myDecision();
  root.dataset.turnNotice = notice ? "on" : "";
  document.title = notice ? `● Your turn — ${plainTitle}` : plainTitle;
  const icon = notice && turnIcon ? turnIcon : plainIcon;
  if (favicon && favicon.getAttribute("href") !== icon) favicon.setAttribute("href", icon);
}

document.addEventListener("visibilitychange", showTurnNotice);

// The creator's browser keeps the link from creating the game (api.js's saveSeat).
function renderInvite() {
  const link = status === "waiting" && seat === 0 ? credentials?.invite_url : null;
  inviteBox.hidden = !link;
  if (link && inviteUrl.value !== link) inviteUrl.value = link;
}

copyButton.addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(inviteUrl.value);
    copyButton.textContent = "Copied";
  } catch {
    inviteUrl.focus();
    inviteUrl.select();  // the clipboard may be refused: leave it selected to copy by hand
    copyButton.textContent = "Select and copy";
  }
});

function setConnection(state, text) {
  connectionBadge.dataset.state = state;
  connectionBadge.textContent = text;
}

function showPresence(seats) {
  const others = [0, 1].filter((s) => s !== seat && seatsTaken[s]);
  presenceBadge.textContent = others
    .map((s) => `${names[s]} ${seats[s] ? "is here" : "is away"}`).join(" · ");
}

// One entry per move, numbered by the version it made (the first move is 1), newest first.
function logMove(moveVersion, events, newView = view) {
  const sentences = describeEvents({ view: newView, seat, catalog, names }, events)
    .map((sentence) => (sentence.endsWith(".") ? sentence : `${sentence}.`));
  const item = document.createElement("li");
  item.value = moveVersion;
  item.dataset.version = String(moveVersion);
  item.textContent = sentences.length ? sentences.join(" ") : "A move was made.";
  logList.prepend(item);
}

function useSummary(summary) {
  names = summary.seats.map((s) => s.name ?? `Player ${s.seat + 1}`);
  seatsTaken = summary.seats.map((s) => Boolean(s.taken));
  listed = Boolean(summary.listed);
  // The socket's word on the status is fresher, except that a summary read after it may
  // show the game started.
  if (status === null || (status === "waiting" && summary.status !== "waiting")) {
    status = summary.status;
  }
}

async function refreshSummary() {
  try {
    useSummary(await request("GET", `/api/games/${gameId}`));
    redraw();
  } catch (error) {
    showError(errorBox, error);
  }
}

async function start() {
  try {
    const [loadedCatalog, summary] = await Promise.all([
      request("GET", "/api/catalog"), request("GET", `/api/games/${gameId}`)]);
    catalog = loadedCatalog;
    useSummary(summary);
    showNames();
  } catch (error) {
    showError(errorBox, error);
    return;
  }
  connection.start();
}

start();
