// HTTP calls and the seat credentials this browser holds (kept across reloads).

const KEY = (gameId) => `duel.seat.${gameId}`;

export function saveSeat(gameId, credentials) {
  localStorage.setItem(KEY(gameId), JSON.stringify({ seat: credentials.seat, token: credentials.token }));
}

export function loadSeat(gameId) {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY(gameId)) ?? "null");
    return stored && Number.isInteger(stored.seat) && typeof stored.token === "string" ? stored : null;
  } catch {
    return null;
  }
}

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function request(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data.error ?? { code: "http_error", message: response.statusText };
    throw new ApiError(error.code, error.message, response.status);
  }
  return data;
}

export function showError(element, error) {
  element.textContent = error instanceof ApiError ? error.message : `Something went wrong: ${error.message}`;
  element.hidden = false;
}
