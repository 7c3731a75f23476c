// Home page: create a game, show the invite link to copy.
import { request, saveSeat, showError } from "./api.js";

const form = document.getElementById("create-game");
const invite = document.getElementById("invite");
const inviteUrl = document.getElementById("invite-url");
const copy = document.getElementById("copy-invite");
const openGame = document.getElementById("open-game");
const errorBox = document.getElementById("home-error");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.hidden = true;
  const data = new FormData(form);
  const name = (data.get("name") ?? "").toString().trim();
  const button = document.getElementById("create-button");
  button.disabled = true;
  try {
    const created = await request("POST", "/api/games", {
      wonder_selection: data.get("wonder_selection"),
      first_player: data.get("first_player"),
      ...(name ? { name } : {}),
    });
    saveSeat(created.game_id, created);
    inviteUrl.value = created.invite_url;
    openGame.href = `/games/${created.game_id}`;
    form.hidden = true;
    invite.hidden = false;
    inviteUrl.focus();
    inviteUrl.select();
  } catch (error) {
    showError(errorBox, error);
  } finally {
    button.disabled = false;
  }
});

copy.addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(inviteUrl.value);
    copy.textContent = "Copied";
  } catch {
    inviteUrl.select();  // the clipboard may be refused: leave it selected to copy by hand
    copy.textContent = "Select and copy";
  }
});
