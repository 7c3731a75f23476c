// The player behind this browser's session (docs/lobby.md), for the pages that name or
// rename them (the lobby, the invite link's page).
import { ApiError, request } from "./api.js";
import { t } from "./words.js";

// The player: {player_id, name}, or null before a name is picked. Player pages carry it
// (templates/base.html); elsewhere it is asked for once per page.
let playerRequest = null;

function playerInPage() {
  const element = document.getElementById("player-data");
  if (!element) return undefined;
  try {
    return JSON.parse(element.textContent);
  } catch {
    return undefined;
  }
}

export function currentPlayer() {
  if (playerRequest !== null) return playerRequest;
  const inPage = playerInPage();
  playerRequest = inPage !== undefined ? Promise.resolve(inPage) : request("GET", "/api/me").catch((error) => {
    if (!(error instanceof ApiError && error.code === "no_player")) {
      console.warn("could not read the player:", error.message);
    }
    return null;
  });
  return playerRequest;
}

// Makes this browser a player (the first time) or renames it; the server keeps the
// session in a signed cookie.
export async function pickName(name) {
  const player = await request("PUT", "/api/me", { name });
  playerRequest = Promise.resolve(player);
  showPlayerInHeader(player);
  return player;
}

// The same rules as the server (docs/lobby.md), so most mistakes are caught before asking.
export function checkName(raw) {
  const name = String(raw ?? "").trim().replace(/\s+/g, " ");
  if (!name) return { name, problem: t("common.name.blank") };
  if (name.length > 40) return { name, problem: t("common.name.too_long", { n: 40 }) };
  if (/[\u0000-\u001f\u007f]/.test(name)) return { name, problem: t("common.name.control") };
  return { name, problem: null };
}

export function showPlayerInHeader(player) {
  const slot = document.getElementById("site-player");
  if (!slot) return;
  slot.hidden = !player;
  slot.querySelector("[data-player-name]").textContent = player ? player.name : "";
}
