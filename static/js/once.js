// Creating and joining a game, each done once however often it is sent: the request carries
// a random key (the Idempotency-Key header, docs/protocol.md), and sent again with it after
// an answer lost on the way, it gets the first one's answer.
import { request } from "./api.js";

export function requestKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
}

// The key of this tab's join of a game: kept until the join is answered, so that a join
// sent again, after a reload too, is the same request.
const JOIN_KEY = (gameId) => `duel.join.${gameId}`;

export function joinKey(gameId) {
  let key = sessionStorage.getItem(JOIN_KEY(gameId));
  if (!key) sessionStorage.setItem(JOIN_KEY(gameId), key = requestKey());
  return key;
}

// A refusal (4xx) says that nothing was done: a new try is a new request, with a new key.
export const refusedOutright = (error) => error?.status >= 400 && error.status < 500;

export async function joinOnce(gameId, body) {
  let seat;
  try {
    seat = await requestOnce("POST", `/api/games/${encodeURIComponent(gameId)}/join`, body,
      joinKey(gameId));
  } catch (error) {
    if (refusedOutright(error)) sessionStorage.removeItem(JOIN_KEY(gameId));
    throw error;
  }
  sessionStorage.removeItem(JOIN_KEY(gameId));
  return seat;
}

const RETRY_DELAYS = [500, 1000, 2000, 4000];
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// Sent again, a little later each time, when no answer came (the network failed) or the
// server could not take it (502, 503, 504).
export async function requestOnce(method, path, body, key) {
  for (const delay of [...RETRY_DELAYS, null]) {
    try {
      return await request(method, path, body, { "idempotency-key": key });
    } catch (error) {
      const again = !("status" in error) || [502, 503, 504].includes(error.status);
      if (delay === null || !again) throw error;
      await sleep(delay);
    }
  }
}
