// The game page: one socket to the game (docs/protocol.md), the status line, the log,
// and the board (board.js) redrawn after every update.
import { loadSeat, request, showError } from "./api.js";
import { describeEvents, renderBoard } from "./board.js";

const root = document.getElementById("game");
const boardRoot = document.getElementById("board");
const turnLine = document.getElementById("turn");
const connectionBadge = document.getElementById("connection");
const presenceBadge = document.getElementById("presence");
const logList = document.getElementById("log");
const errorBox = document.getElementById("game-error");

const gameId = root.dataset.gameId;
const credentials = loadSeat(gameId);
const seat = credentials ? credentials.seat : null;

let catalog = null;
let names = ["Seat 1", "Seat 2"];
let waiting = false;       // the second seat is not taken yet
let view = null;
let version = null;        // the version of the view shown; null before the first
let lastMove = null;
let socket = null;
let reconnectDelay = 500;
const unacknowledged = new Map();  // client_id -> the action message, resent until acked

function newClientId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0")).join("");
}

function socketUrl() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/games/${gameId}`;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function act(action) {
  if (version === null) return;
  if (waiting) {
    showError(errorBox, { message: "The game starts when your opponent opens the invite link." });
    return;
  }
  const clientId = newClientId();
  const message = { type: "action", action, version, client_id: clientId };
  unacknowledged.set(clientId, message);
  send(message);
}

function connect() {
  setConnection("connecting", "Connecting…");
  socket = new WebSocket(socketUrl());
  socket.addEventListener("open", () => {
    reconnectDelay = 500;
    const join = { type: "join" };
    if (credentials) Object.assign(join, { seat: credentials.seat, token: credentials.token });
    if (version !== null) join.last_version = version;
    send(join);
  });
  socket.addEventListener("message", (event) => handle(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    setConnection("offline", "Reconnecting…");
    setTimeout(connect, reconnectDelay);
    reconnectDelay = Math.min(reconnectDelay * 2, 8000);
  });
}

function handle(message) {
  switch (message.type) {
    case "welcome":
    case "state":
      setConnection("online", "Connected");
      for (const missed of message.missed ?? []) logEvents(missed.events);
      show(message.version, message.view, null);
      if (message.type === "welcome") {
        for (const pending of unacknowledged.values()) send(pending);  // same client ids
      }
      break;
    case "update":
      if (version !== null && message.version <= version) break;  // already shown
      logEvents(message.events);
      show(message.version, message.view,
        { seat: message.seat, notation: message.notation, events: message.events });
      break;
    case "ack":
      unacknowledged.delete(message.client_id);
      break;
    case "error":
      if (message.client_id) unacknowledged.delete(message.client_id);
      if (message.code === "stale_version") break;  // the newer view is on its way
      showError(errorBox, { message: message.message });
      break;
    case "presence":
      showPresence(message.seats);
      if (waiting || names.some((name, s) => message.seats[s] && name.startsWith("Player "))) {
        refreshSummary();  // someone joined: learn their name (and that the game started)
      }
      break;
    case "ping":
      send({ type: "pong" });
      break;
    default:
      break;
  }
}

function show(newVersion, newView, move) {
  if (version !== null && newVersion < version) return;
  version = newVersion;
  view = newView;
  lastMove = move;
  errorBox.hidden = true;
  root.dataset.version = String(version);
  root.dataset.toAct = view.to_act === null ? "" : String(view.to_act);
  root.dataset.seat = seat === null ? "" : String(seat);
  root.dataset.age = String(view.age);
  root.dataset.phase = view.phase;
  renderBoard(boardRoot, { view, seat, catalog, names, lastMove }, { act });
  turnLine.textContent = turnText();
}

function turnText() {
  if (waiting) {
    return seat === 0 ? "Waiting for your opponent to open the invite link…"
      : "Waiting for a second player…";
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

function setConnection(state, text) {
  connectionBadge.dataset.state = state;
  connectionBadge.textContent = text;
}

function showPresence(seats) {
  const others = [0, 1].filter((s) => s !== seat);
  presenceBadge.textContent = others
    .map((s) => `${names[s]} ${seats[s] ? "is here" : "is away"}`).join(" · ");
}

function logEvents(events) {
  if (!view) return;  // the first state brings no events to log
  for (const sentence of describeEvents({ view, seat, catalog, names }, events)) {
    const item = document.createElement("li");
    item.textContent = sentence.endsWith(".") ? sentence : `${sentence}.`;
    logList.prepend(item);
  }
}

function useSummary(summary) {
  names = summary.seats.map((s) => s.name ?? `Player ${s.seat + 1}`);
  waiting = summary.status === "waiting";
}

async function refreshSummary() {
  try {
    useSummary(await request("GET", `/api/games/${gameId}`));
    if (view) show(version, view, lastMove);
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
  } catch (error) {
    showError(errorBox, error);
    return;
  }
  connect();
}

start();
