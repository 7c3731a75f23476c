// The lobby, the home page (docs/lobby.md): the player's name, quick match, a game against
// the computer (lobby-computer.js), creating a game, and the lists of open games, games in
// progress and the player's own games, kept up to date by the lobby socket.
import { ApiError, errorText, saveSeat, scriptReady, showError } from "./api.js";
import { computerCard } from "./lobby-computer.js";
import {
  ago, clockLine, el, fillList, gameLink, mineRow, nameOf, optionsText, progress, row, seatName,
  tickClocks, TurnsInGames, withElements,
} from "./lists.js";
import { TurnNotice } from "./notify.js";
import { joinOnce, refusedOutright, requestKey, requestOnce } from "./once.js";
import { checkName, currentPlayer, pickName, showPlayerInHeader } from "./player.js";
import { Socket } from "./socket.js";
import { known, pageWords, t } from "./words.js";

await pageWords("clocks", "lobby");

const root = document.getElementById("lobby");
// A move arriving in one of the player's games, while this tab is in the background.
const pageTitle = document.title;
const turns = new TurnsInGames(new TurnNotice({
  favicon: document.querySelector('link[rel="icon"]'), turnIcon: root.dataset.turnIcon,
}));
document.addEventListener("visibilitychange", () => {
  if (picture) turns.update(picture.mine, pageTitle);
});

const nameKnown = document.getElementById("name-known");
const playerNameSlot = document.getElementById("player-name");
const changeNameButton = document.getElementById("change-name");
const nameForm = document.getElementById("name-form");
const nameInput = document.getElementById("name-input");
const nameHint = document.getElementById("name-hint");
const cancelNameButton = document.getElementById("cancel-name");
const nameError = document.getElementById("name-error");
const NAME_HINT = nameHint.textContent;

const playButton = document.getElementById("play-button");
const playRated = document.getElementById("play-rated");  // offered to accounts only
const cancelPlayButton = document.getElementById("cancel-play");
const queueIdle = document.getElementById("queue-idle");
const queueWaiting = document.getElementById("queue-waiting");
const queueMeanwhile = document.getElementById("queue-meanwhile");
const queueComputerButton = document.getElementById("queue-computer");
const queueElapsed = document.getElementById("queue-elapsed");
const queueStatus = document.getElementById("queue-status");

const createForm = document.getElementById("create-game");
const createButton = document.getElementById("create-button");
const invite = document.getElementById("invite");
const inviteUrl = document.getElementById("invite-url");
const copyButton = document.getElementById("copy-invite");
const openGameLink = document.getElementById("open-game");
const createAnotherButton = document.getElementById("create-another");
const createError = document.getElementById("create-error");

const connectionBadge = document.getElementById("lobby-connection");
const lobbyError = document.getElementById("lobby-error");
const lists = {
  open: { box: document.getElementById("open-games"), count: document.getElementById("open-count") },
  live: { box: document.getElementById("live-games"), count: document.getElementById("live-count") },
  mine: { box: document.getElementById("my-games"), count: document.getElementById("mine-count") },
};

let player = null;        // {player_id, name}, or null before a name is picked
let nameKnownYet = false; // whether the server said who is playing (or that no one is)
let editingName = false;
let afterName = null;     // what Play, Join or Create was about to do when a name was missing
let picture = null;       // the latest "lobby" message

// ---------------------------------------------------------------------------------------
// The name
// ---------------------------------------------------------------------------------------

function showName() {
  nameKnown.hidden = !nameKnownYet || !player || editingName;
  nameForm.hidden = !nameKnownYet || (Boolean(player) && !editingName);
  playerNameSlot.textContent = player?.name ?? "";
  cancelNameButton.hidden = !player && !afterName;  // nothing to go back to otherwise
  showPlayerInHeader(player);
}

function askForName(reason, then) {
  afterName = then;
  editingName = true;
  nameHint.textContent = reason;
  nameError.hidden = true;
  showName();
  nameInput.focus();
}

// Runs `action` once there is a player: at once, or after the name form is filled in.
async function withName(reason, action) {
  if (!nameKnownYet) useKnownPlayer(await currentPlayer());
  if (player) action();
  else askForName(reason, action);
}

function useKnownPlayer(found) {
  if (nameKnownYet) return;
  player = found;
  nameKnownYet = true;
  showName();
}

function stopEditingName() {
  editingName = false;
  afterName = null;
  nameHint.textContent = NAME_HINT;
  nameError.hidden = true;
  showName();
}

nameForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  nameError.hidden = true;
  const { name, problem } = checkName(nameInput.value);
  if (problem) {
    showError(nameError, { message: problem });
    nameInput.focus();
    return;
  }
  const saveButton = document.getElementById("save-name");
  saveButton.disabled = true;
  try {
    player = await pickName(name);
    nameKnownYet = true;
    const next = afterName;
    stopEditingName();
    reconnectLobby();  // the socket reads the session's player when it opens
    next?.();
  } catch (error) {
    showError(nameError, error);
    nameInput.focus();
  } finally {
    saveButton.disabled = false;
  }
});

changeNameButton.addEventListener("click", () => {
  editingName = true;
  nameInput.value = player?.name ?? "";
  showName();
  nameInput.focus();
  nameInput.select();
});

cancelNameButton.addEventListener("click", () => {
  stopEditingName();
  (player ? changeNameButton : playButton).focus();
});

// ---------------------------------------------------------------------------------------
// The lobby socket
// ---------------------------------------------------------------------------------------

// The socket (socket.js) reconnects with backoff and answers pings; the server sends its
// first picture unasked, which makes the socket ready. A "play" refused as `unavailable`
// goes again (onRetry).
const connection = new Socket("/ws/lobby", {
  onMessage: handleLobbyMessage,
  onRetry: sendPlay,
  onStateChange: (state) => {
    if (state === "connecting") {
      queue.sentOnSocket = false;
      queue.confirmed = false;
      showQueue();
    }
    setConnection(state, t(`lobby.connection.${state}`));
  },
});

function connectLobby() {
  connection.start();
}

function reconnectLobby() {
  connection.reconnect();
}

function send(message) {
  return connection.send(message);
}

function setConnection(state, text) {
  root.dataset.connection = state;
  connectionBadge.dataset.state = state;
  connectionBadge.textContent = text;
}

function handleLobbyMessage(message) {
  switch (message.type) {
    case "lobby":
      usePicture(message);
      break;
    case "queue":
      if (message.state === "waiting" && queue.state !== "idle") {
        queue.confirmed = true;
        queueStatus.textContent = "";  // any earlier refusal is over
        showQueue();
      } else if (message.state === "idle" && message.reason === "replaced") {
        stopWaiting(t("lobby.queue.replaced"));
      }
      break;  // a plain "idle" answers our cancel, shown since the click
    case "matched":
      goToMatch(message.game_id);
      break;
    case "error":
      handleSocketError(message);
      break;
    default:
      break;
  }
}

function usePicture(message) {
  picture = { ...message, heard: performance.now() };  // when its clocks were as it says
  connection.ready();
  turns.update(message.mine, pageTitle);
  if (!editingName || message.player) {
    player = message.player;
    nameKnownYet = true;
    showName();
  }
  renderLists();
  if (queue.state === "waiting" && !queue.sentOnSocket) {
    const missed = missedMatch();
    if (missed) goToMatch(missed.game_id);
    else sendPlay();
  }
}

function handleSocketError(message) {
  if (message.code === "no_player") {
    stopWaiting("");
    player = null;
    askForName(t("lobby.ask_name.play_again"), startPlay);
    return;
  }
  if (message.code === "rated_needs_account") {  // logged out elsewhere since the page came
    stopWaiting(errorText(message));
    return;
  }
  showError(queue.state === "waiting" ? queueStatus : lobbyError, message);
  if (message.code === "unavailable" && queue.state === "waiting") {
    // Not in the queue: the server could not reach its records. The socket asks again
    // soon (onRetry: sendPlay).
    queue.sentOnSocket = false;
    queue.confirmed = false;
    showQueue();
  }
}

// ---------------------------------------------------------------------------------------
// Quick match
// ---------------------------------------------------------------------------------------

const queue = {
  state: "idle",          // idle | waiting | matched
  sentOnSocket: false,    // "play" went out on the current socket
  confirmed: false,       // the server said it holds us in the queue
  queued: false,          // "play" went out at least once since the click
  rated: false,           // for a rated game (accounts only)
  gamesBefore: new Set(), // the player's games when "play" first went out
  since: 0,
  timer: null,
};

function startPlay() {
  if (queue.state !== "idle") return;
  Object.assign(queue, {
    state: "waiting", sentOnSocket: false, confirmed: false, queued: false, since: Date.now(),
    rated: Boolean(playRated?.checked),
  });
  queueStatus.textContent = "";
  queueStatus.classList.remove("error");
  showQueue();
  cancelPlayButton.focus();
  queue.timer = setInterval(showElapsed, 1000);
  sendPlay();
}

function sendPlay() {
  if (queue.state !== "waiting" || queue.sentOnSocket || !connection.isReady) return;
  if (!send({ type: "play", rated: queue.rated })) return;
  queue.sentOnSocket = true;
  if (!queue.queued) {
    queue.queued = true;
    queue.gamesBefore = new Set((picture?.mine ?? []).map((entry) => entry.game_id));
  }
}

// A socket that closed while waiting may have missed its "matched": a quick-match game of
// ours that was not there before shows it.
function missedMatch() {
  if (!queue.queued) return null;
  return (picture?.mine ?? []).find((entry) => entry.origin === "quick_match"
    && entry.status === "active" && !queue.gamesBefore.has(entry.game_id)) ?? null;
}

function stopWaiting(note) {
  clearInterval(queue.timer);
  Object.assign(queue, { state: "idle", sentOnSocket: false, confirmed: false, queued: false, timer: null });
  queueStatus.textContent = note;
  showQueue();
}

function goToMatch(gameId) {
  clearInterval(queue.timer);
  queue.state = "matched";
  showQueue();
  queueStatus.textContent = t("lobby.queue.matched");
  location.assign(`/games/${encodeURIComponent(gameId)}`);
}

function showQueue() {
  // "joining" until the server confirms the wait: tests and styles can tell them apart.
  root.dataset.queue = queue.state === "waiting" && !queue.confirmed ? "joining" : queue.state;
  queueIdle.hidden = queue.state !== "idle";
  queueWaiting.hidden = queue.state === "idle";
  queueMeanwhile.hidden = queue.state !== "waiting";
  cancelPlayButton.disabled = queue.state !== "waiting";
  showElapsed();
}

function showElapsed() {
  const seconds = queue.state === "idle" ? 0 : Math.floor((Date.now() - queue.since) / 1000);
  queueElapsed.textContent = t("lobby.queue.elapsed", {
    minutes: Math.floor(seconds / 60), seconds: String(seconds % 60).padStart(2, "0"),
  });
  queueElapsed.dateTime = `PT${seconds}S`;
}

playButton.addEventListener("click", () => {
  withName(t("lobby.ask_name.play"), startPlay);
});

function leaveQueue(note) {
  send({ type: "cancel" });  // a closed socket has left the queue already
  stopWaiting(note);
}

cancelPlayButton.addEventListener("click", () => {
  leaveQueue(t("lobby.queue.left"));
  playButton.focus();
});

// Nobody yet: the computer meanwhile (the card's choices), the queue left first, so that
// no one is matched with a player gone to another game.
queueComputerButton.addEventListener("click", () => {
  if (queue.state !== "waiting") return;
  leaveQueue("");
  computer.start();
});

// Leaving the page leaves the queue: the server drops a closed socket from it.
window.addEventListener("pagehide", () => {
  connection.stop();
});

window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;  // back from the page cache: the old socket is gone
  if (queue.state !== "idle") stopWaiting("");
  connectLobby();
});

// ---------------------------------------------------------------------------------------
// Playing the computer
// ---------------------------------------------------------------------------------------

const computer = computerCard(document.getElementById("computer-play"), {
  withName,
  nameLost(then) {  // the session no longer holds a player (logged out in another tab)
    player = null;
    askForName(t("lobby.ask_name.computer"), then);
  },
});

// ---------------------------------------------------------------------------------------
// Creating a game
// ---------------------------------------------------------------------------------------

createForm.addEventListener("submit", (event) => {
  event.preventDefault();
  withName(t("lobby.ask_name.create"), createGame);
});

// Setting a custom bank or a number of days chooses that kind of clock.
for (const [field, choice] of [["minutes", "custom"], ["increment", "custom"], ["days", "correspondence"]]) {
  createForm.elements[field].addEventListener("input", () => {
    createForm.querySelector(`input[name=clock][value=${choice}]`).checked = true;
  });
}

// The form's clock as the API takes it (null: untimed).
function timeControl(data) {
  const choice = data.get("clock");
  if (choice === "untimed") return null;
  if (choice === "correspondence") return { kind: "correspondence", days: Number(data.get("days")) };
  const [minutes, increment] = choice === "custom"
    ? [data.get("minutes"), data.get("increment")] : choice.split("+");
  return { kind: "fischer", minutes: Number(minutes), increment: Number(increment) };
}

// The key of the game being created: the same until it is (a click after a failure asks
// again for the same game, which may have been made), a new one once the form changes.
let createKey = null;
createForm.addEventListener("input", () => { createKey = null; });

async function createGame() {
  createError.hidden = true;
  const data = new FormData(createForm);
  const listed = data.get("visibility") === "listed";
  createButton.disabled = true;
  createKey ??= requestKey();
  try {
    const created = await requestOnce("POST", "/api/games", {
      wonder_selection: data.get("wonder_selection"),
      first_player: data.get("first_player"),
      listed,
      time_control: timeControl(data),
      rated: data.get("rated") === "on",
    }, createKey);
    createKey = null;
    saveSeat(created.game_id, created);
    const gamePath = `/games/${encodeURIComponent(created.game_id)}`;
    if (listed) {
      location.assign(gamePath);  // the creator waits there for whoever joins
      return;
    }
    inviteUrl.value = created.invite_url;
    openGameLink.href = gamePath;
    copyButton.textContent = t("invite.copy");
    createForm.hidden = true;
    invite.hidden = false;
    inviteUrl.focus();
    inviteUrl.select();
  } catch (error) {
    if (refusedOutright(error)) createKey = null;
    showError(createError, error);
  } finally {
    createButton.disabled = false;
  }
}

copyButton.addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(inviteUrl.value);
    copyButton.textContent = t("invite.copied");
  } catch {
    inviteUrl.select();  // the clipboard may be refused: leave it selected to copy by hand
    copyButton.textContent = t("invite.copy_by_hand");
  }
});

createAnotherButton.addEventListener("click", () => {
  invite.hidden = true;
  createForm.hidden = false;
  createButton.focus();
});

// ---------------------------------------------------------------------------------------
// Joining an open game
// ---------------------------------------------------------------------------------------

async function joinGame(entry, button) {
  lobbyError.hidden = true;
  if (button) button.disabled = true;
  try {
    const seat = await joinOnce(entry.game_id, {});
    saveSeat(entry.game_id, seat);
    location.assign(`/games/${encodeURIComponent(entry.game_id)}`);
  } catch (error) {
    if (button) button.disabled = false;
    // The lobby's own words for the refusals a Join may meet; the catalog's for the others.
    const own = error instanceof ApiError ? `lobby.join_refused.${error.code}` : null;
    showError(lobbyError, own && known(own) ? { message: t(own) } : error);
  }
}

// ---------------------------------------------------------------------------------------
// The lists
// ---------------------------------------------------------------------------------------

function openRow(entry, mineIds) {
  const creator = nameOf(entry, 0);
  const meta = t("lobby.open.meta", { options: optionsText(entry), ago: ago(entry.created_at) });
  if (mineIds.has(entry.game_id)) {
    return row(entry, el("strong", {}, seatName(entry, 0)), meta,
      el("span", { class: "badge" }, t("lobby.open.yours")),
      gameLink(entry, "open", t("lobby.open.open_label")));
  }
  const button = el("button", {
    type: "button", "data-join": entry.game_id, "data-focus-key": `join:${entry.game_id}`,
    "aria-label": t("lobby.open.join_label", { name: creator }),
  }, t("lobby.open.join"));
  button.addEventListener("click", () => {
    withName(t("lobby.ask_name.join", { name: creator }), () => joinGame(entry, button));
  });
  return row(entry, el("strong", {}, seatName(entry, 0)), meta, button);
}

function liveRow(entry, mineIds) {
  const names = t("lobby.versus", { a: nameOf(entry, 0), b: nameOf(entry, 1) });
  const linked = withElements({ a: seatName(entry, 0), b: seatName(entry, 1) },
    (params) => t("lobby.versus", params));
  const meta = [t("lobby.live.meta", { progress: progress(entry), options: optionsText(entry) }),
    clockLine(entry, picture.heard)];
  return row(entry, el("strong", {}, linked), meta, mineIds.has(entry.game_id)
    ? gameLink(entry, "resume", t("lobby.live.resume_label", { names }))
    : gameLink(entry, "watch", t("lobby.live.watch_label", { names })));
}

function renderLists() {
  if (!picture) return;
  // A redraw must not take the keyboard focus away from a Join or Watch in the lists.
  const focusKey = document.activeElement?.dataset?.focusKey;
  const mineIds = new Set(picture.mine.map((entry) => entry.game_id));
  fillList(lists.open, picture.open, (entry) => openRow(entry, mineIds));
  fillList(lists.live, picture.live, (entry) => liveRow(entry, mineIds));
  fillList(lists.mine, picture.mine, (entry) => mineRow(entry, picture.heard),
    player ? null : t("lobby.mine.no_player"));
  if (focusKey) root.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`)?.focus();
}

// Times such as "3 min ago" move on without any change in the lobby; clocks run.
setInterval(renderLists, 30_000);
tickClocks(root);

// ---------------------------------------------------------------------------------------
// Start
// ---------------------------------------------------------------------------------------

scriptReady();
connectLobby();
// The socket's first picture names the player too; whichever answers first is shown.
currentPlayer().then(useKnownPlayer);
