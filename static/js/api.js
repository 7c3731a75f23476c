// HTTP calls, and what this browser keeps of the seats it took (across reloads). The
// player behind this browser's session: player.js.
import { known, t } from "./words.js";

const KEY = (gameId) => `duel.seat.${gameId}`;

// The seat's number, and for the creator the game's invite link (its code is known only
// at creation), for the game page to show while the opponent has not joined. Not the
// seat's token: a page takes a seat with its player's session, whose cookie (HttpOnly) no
// script reads and which opens the seat as the token would. (Entries kept by an older page
// may hold a token: it is still used.)
export function saveSeat(gameId, credentials) {
  const stored = { seat: credentials.seat };
  if (typeof credentials.invite_url === "string") stored.invite_url = credentials.invite_url;
  localStorage.setItem(KEY(gameId), JSON.stringify(stored));
}

export function loadSeat(gameId) {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY(gameId)) ?? "null");
    return stored && Number.isInteger(stored.seat) ? stored : null;
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

export async function request(method, path, body, headers = {}) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
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

// The controls a page's script drives are drawn disabled (`disabled data-scripted`): pressed
// before the script is ready, a form would go to the server, which takes no forms, and a
// button would do nothing. The script enables them once its handlers are in place.
export function scriptReady() {
  for (const control of document.querySelectorAll("[data-scripted]")) {
    control.disabled = false;
    control.removeAttribute("data-scripted");
  }
}
