// HTTP calls, the seat credentials this browser holds (kept across reloads), and the
// player behind this browser's session (docs/lobby.md).
import { known, t } from "./words.js";

const KEY = (gameId) => `duel.seat.${gameId}`;

// The creator's seat keeps the game's invite link too (its code is known only at creation),
// for the game page to show while the opponent has not joined.
export function saveSeat(gameId, credentials) {
  const stored = { seat: credentials.seat, token: credentials.token };
  if (typeof credentials.invite_url === "string") stored.invite_url = credentials.invite_url;
  localStorage.setItem(KEY(gameId), JSON.stringify(stored));
}

export function loadSeat(gameId) {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY(gameId)) ?? "null");
    return stored && Number.isInteger(stored.seat) && typeof stored.token === "string" ? stored : null;
  } catch {
    return null;
  }
}

export function forgetSeat(gameId) {
  localStorage.removeItem(KEY(gameId));
}

// A refusal: its code and params (docs/protocol.md), worded by the catalog's
// "error.<code>" entry; `message` is the server's English, for logs.
export class ApiError extends Error {
  constructor(code, message, status, params = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.params = params ?? {};
  }
}

// An ApiError from a refused response's body ({"error": {"code", "params", "message"}}).
export function refusal(response, data) {
  const error = data?.error ?? {
    code: "http_error", params: { http_status: response.status }, message: response.statusText,
  };
  return new ApiError(error.code, error.message, response.status, error.params);
}

export async function request(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw refusal(response, data);
  return data;
}

// The words for a failure: a refusal's code (an ApiError, or a socket's {"type": "error",
// "code", "params"}) through the catalog; a page's own {message} as it is; anything else
// (a network failure, a bug) as "Something went wrong". The server's English `message`
// shows only for a code the catalog does not know.
export function errorText(error) {
  if (typeof error?.code === "string" && known(`error.${error.code}`)) {
    return t(`error.${error.code}`, error.params ?? {});
  }
  if (error instanceof ApiError || !(error instanceof Error)) return error?.message ?? error?.code ?? "";
  return t("error.generic", { message: error.message });
}

export function showError(element, error) {
  element.textContent = errorText(error);
  element.hidden = false;
}

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
