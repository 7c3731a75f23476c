// The invite link's page: take the free seat, then go to the game.
import { ApiError, loadSeat, request, saveSeat, showError } from "./api.js";

const section = document.querySelector("[data-game-id]");
const gameId = section.dataset.gameId;
const code = new URLSearchParams(location.search).get("code") ?? "";
const form = document.getElementById("join-game");
const errorBox = document.getElementById("join-error");

if (loadSeat(gameId)) {
  location.replace(`/games/${gameId}`);  // this browser already holds a seat here
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.hidden = true;
  const name = (new FormData(form).get("name") ?? "").toString().trim();
  try {
    const seat = await request("POST", `/api/games/${gameId}/join`, {
      invite_code: code, ...(name ? { name } : {}),
    });
    saveSeat(gameId, seat);
    location.assign(`/games/${gameId}`);
  } catch (error) {
    showError(errorBox, error);
    if (error instanceof ApiError && error.code === "game_full") {
      const watch = document.createElement("a");
      watch.href = `/games/${gameId}`;
      watch.textContent = "Watch the game instead";
      errorBox.append(" ", watch);
    }
  }
});
