// "My games": the player's games from the lobby socket's pictures (docs/lobby.md), those in
// progress first with whose turn it is and their clocks, then the finished ones; and a
// notice (the title, a chime, a browser notification once allowed) when a move arrives
// in any of them while the tab is in the background.
import { showError } from "./api.js";
import { fillList, mineRow, tickClocks, TurnsInGames } from "./lists.js";
import { TurnNotice } from "./notify.js";
import { Socket } from "./socket.js";
import { pageWords, t } from "./words.js";

await pageWords("clocks", "lobby");

const root = document.getElementById("my-games-page");
const connectionBadge = document.getElementById("lobby-connection");
const errorBox = document.getElementById("lobby-error");
const notifyToggle = document.getElementById("notify-toggle");
const lists = {
  ongoing: { box: document.getElementById("ongoing-games"), count: document.getElementById("ongoing-count") },
  done: { box: document.getElementById("done-games"), count: document.getElementById("done-count") },
};
const title = document.title;
const turns = new TurnsInGames(new TurnNotice({
  favicon: document.querySelector('link[rel="icon"]'), turnIcon: root.dataset.turnIcon,
}));
let picture = null;

function render() {
  if (!picture) return;
  const ongoing = picture.mine.filter((entry) => entry.status === "waiting" || entry.status === "active");
  const done = picture.mine.filter((entry) => !ongoing.includes(entry));
  const noPlayer = picture.player ? null : t("lobby.mine.no_player");
  const row = (entry) => mineRow(entry, picture.heard);
  fillList(lists.ongoing, ongoing, row, noPlayer);
  fillList(lists.done, done, row, noPlayer);
  root.dataset.turns = String(ongoing.filter((entry) => entry.status === "active" && entry.to_act === entry.my_seat).length);
  turns.update(picture.mine, title);
}

function showNotifyToggle() {
  const state = turns.notice.notifications;
  notifyToggle.hidden = state === "unsupported";
  notifyToggle.disabled = state === "denied";
  notifyToggle.setAttribute("aria-pressed", String(state === "on"));
  notifyToggle.textContent = t(state === "on" ? "notify.on" : state === "denied" ? "notify.denied" : "notify.ask");
}

notifyToggle.addEventListener("click", async () => {
  await turns.notice.toggleNotifications();
  showNotifyToggle();
});

const connection = new Socket("/ws/lobby", {
  onMessage(message) {
    if (message.type === "lobby") {
      picture = { ...message, heard: performance.now() };  // when its clocks were as it says
      connection.ready();
      errorBox.hidden = true;
      render();
    } else if (message.type === "error") {
      showError(errorBox, message);
    }
  },
  onStateChange(state) {
    root.dataset.connection = state;
    connectionBadge.dataset.state = state;
    connectionBadge.textContent = t(`lobby.connection.${state}`);
  },
});

document.addEventListener("visibilitychange", () => {
  if (picture) turns.update(picture.mine, title);
});
window.addEventListener("pagehide", () => connection.stop());
window.addEventListener("pageshow", (event) => {
  if (event.persisted) connection.start();
});
showNotifyToggle();
tickClocks(root);
connection.start();
