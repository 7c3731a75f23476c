// The invite link's page: the visitor becomes a player (their name, kept by the session),
// takes the free seat, then goes to the game.
import { ApiError, checkName, currentPlayer, loadSeat, pickName, request, saveSeat, showError } from "./api.js";

const section = document.querySelector("[data-game-id]");
const gameId = section.dataset.gameId;
const gamePath = `/games/${encodeURIComponent(gameId)}`;
const code = new URLSearchParams(location.search).get("code") ?? "";
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

async function describeGame() {
  try {
    const summary = await request("GET", `/api/games/${encodeURIComponent(gameId)}`);
    const creator = summary.seats[0]?.name;
    if (summary.status === "waiting") {
      summaryLine.textContent = creator ? `${creator} invites you to play.` : "You are invited to play.";
    } else {
      form.hidden = true;
      showErrorWithLink(summary.status === "aborted" ? "This game was aborted."
        : "Both seats of this game are taken.", "Watch the game instead");
    }
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") {
      form.hidden = true;
      showError(errorBox, { message: "This invite link names no game: check that it was copied whole." });
    }
  }
}

if (loadSeat(gameId)) {
  location.replace(gamePath);  // this browser already holds a seat here
} else {
  describeGame();
  currentPlayer().then((player) => {
    if (player && !nameInput.value) nameInput.value = player.name;
  });
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.hidden = true;
  const { name, problem } = checkName(nameInput.value);
  if (problem) {
    showError(errorBox, { message: problem });
    nameInput.focus();
    return;
  }
  joinButton.disabled = true;
  try {
    await pickName(name);  // so the session holds the seat too, for this browser's other tabs
    const seat = await request("POST", `/api/games/${encodeURIComponent(gameId)}/join`, {
      invite_code: code,
    });
    saveSeat(gameId, seat);
    location.assign(gamePath);
  } catch (error) {
    joinButton.disabled = false;
    if (!(error instanceof ApiError)) {
      showError(errorBox, error);
    } else if (error.code === "own_game") {
      showErrorWithLink("This is your own game: send the link to your opponent.", "Go to your game");
    } else if (error.code === "game_full") {
      showErrorWithLink("Someone else took the seat first.", "Watch the game instead");
    } else if (error.code === "bad_invite") {
      showError(errorBox, { message: "This invite link is not valid for the game: ask for a new one." });
    } else {
      showError(errorBox, error);
    }
  }
});
