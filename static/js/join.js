// The invite link's page: the visitor becomes a player (their name, kept by the session),
// takes the free seat, then goes to the game.
import { ApiError, loadSeat, request, saveSeat, scriptReady, showError } from "./api.js";
import { joinOnce } from "./once.js";
import { checkName, currentPlayer, pickName } from "./player.js";
import { controlText } from "./timing.js";
import { pageWords, t } from "./words.js";

await pageWords("clocks", "lobby");

const section = document.querySelector("[data-game-id]");
const gameId = section.dataset.gameId;
const gamePath = `/games/${encodeURIComponent(gameId)}`;
// The invite code is in the link's fragment (sent to no server); links made before it
// moved there have it in the query.
const code = new URLSearchParams(location.hash.slice(1)).get("code")
  ?? new URLSearchParams(location.search).get("code") ?? "";
const form = document.getElementById("join-game");
const nameInput = form.elements.namedItem("name");
const joinButton = document.getElementById("join-button");
const summaryLine = document.getElementById("join-summary");
const errorBox = document.getElementById("join-error");

function showErrorWithLink(message, linkText) {
  showError(errorBox, { message });
  const link = document.createElement("a");
  link.href = gamePath;
  link.textContent = linkText;
  errorBox.append(" ", link);
}

// A game not listed in the lobby seats only the holder of its code: a link cut short
// before its "#code=" is told so before the name is sent, not refused after.
let listed = false;
const missingCode = () => !code && !listed;

async function describeGame() {
  try {
    const summary = await request("GET", `/api/games/${encodeURIComponent(gameId)}`);
    const creator = summary.seats[0]?.name;
    listed = summary.listed;
    if (summary.status === "waiting" && missingCode()) {
      showError(errorBox, { message: t("join.no_code") });
    }
    if (summary.status === "waiting") {
      const invited = creator ? t("join.invited_by", { name: creator }) : t("join.invited");
      // The clock too: whoever joins a real-time game should know it before they do.
      const clock = t("join.clock", { control: controlText(summary.time_control) });
      summaryLine.textContent = [invited, clock, summary.rated ? t("join.rated") : ""]
        .filter(Boolean).join(" ");
    } else {
      form.hidden = true;
      const closed = summary.abort_cause === "cancelled" ? "join.cancelled" : "join.aborted";
      showErrorWithLink(t(summary.status === "aborted" ? closed : "join.full"),
        t("join.watch_instead"));
    }
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") {
      form.hidden = true;
      showError(errorBox, { message: t("join.no_game") });
    }
  }
}

let described = Promise.resolve();
if (loadSeat(gameId)) {
  location.replace(gamePath);  // this browser already holds a seat here
} else {
  described = describeGame();
  currentPlayer().then((player) => {
    if (player && !nameInput.value) nameInput.value = player.name;
  });
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.hidden = true;
  await described;  // whether the game is listed (then it needs no code)
  if (missingCode()) {
    showError(errorBox, { message: t("join.no_code") });
    return;
  }
  const { name, problem } = checkName(nameInput.value);
  if (problem) {
    showError(errorBox, { message: problem });
    nameInput.focus();
    return;
  }
  joinButton.disabled = true;
  try {
    await pickName(name);  // so the session holds the seat too, for this browser's other tabs
    const seat = await joinOnce(gameId, { invite_code: code });
    saveSeat(gameId, seat);
    location.assign(gamePath);
  } catch (error) {
    joinButton.disabled = false;
    if (!(error instanceof ApiError)) {
      showError(errorBox, error);
    } else if (error.code === "own_game") {
      showErrorWithLink(t("join.own_game"), t("join.go_to_game"));
    } else if (error.code === "game_full") {
      showErrorWithLink(t("join.seat_taken"), t("join.watch_instead"));
    } else if (error.code === "bad_invite") {
      showError(errorBox, { message: t("join.bad_invite") });
    } else {
      showError(errorBox, error);
    }
  }
});
scriptReady();
