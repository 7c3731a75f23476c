// The one socket lifecycle of the lobby and the game pages (docs/protocol.md, docs/lobby.md):
// open a WebSocket to a path, reopen it after a close with an exponential backoff plus
// jitter (capped), answer the server's pings, keep the messages sent with a client id until
// the server acks them and send them again on the next socket, and ask again after an
// `unavailable` or `busy` error (nothing was changed: the same join, the same action).
//
// The page gives hooks:
// - onOpen(): a new socket is open; the page sends its join (the lobby needs none);
// - onMessage(message): every message but pings, from the current socket only;
// - onStateChange(state): "connecting" | "online" | "offline", for the connection badge;
// - onRetry(message): an `unavailable` or `busy` answer to something else than a join or a
//   tracked message, after the retry delay, while the same socket is open.
// The page calls ready() once the server welcomed it (the join, the lobby's first picture):
// the badge turns online, the backoff starts again from its first step and the messages
// still awaiting their ack are sent again, with the same client ids.

const FIRST_DELAY_MS = 500;
const LAST_DELAY_MS = 10_000;
const RETRY_MS = 2000;  // after `unavailable`: the server could not reach its records
// Refusals that changed nothing and are worth asking again: `busy` and `too_fast` say how
// many seconds later (`retry_after`).
const RETRIED = new Set(["unavailable", "busy", "too_fast"]);

// After a refusal worth asking again: `busy` says when, spread over up to twice that so
// that the clients refused together do not all come back at the same moment.
export function retryDelay(message, random = Math.random) {
  const after = message.params?.retry_after;
  return after ? after * 1000 * (1 + random()) : RETRY_MS;
}

export function newClientId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0")).join("");
}

// The delay before the attempt after `failures` failed ones: doubled each time up to the
// cap, then spread over ±25 % so that many browsers do not all come back at once.
export function backoffDelay(failures, first = FIRST_DELAY_MS, last = LAST_DELAY_MS) {
  const base = Math.min(first * 2 ** failures, last);
  return base * (0.75 + Math.random() * 0.5);
}

export class Socket {
  constructor(path, hooks = {}) {
    this.path = path;
    this.hooks = hooks;
    this.socket = null;
    this.isReady = false;      // the current socket was welcomed
    this.failures = 0;         // closes since the last welcome
    this.retryTimer = null;
    this.stopped = true;
    this.pending = new Map();  // client_id -> message, sent again until acked
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}${this.path}`;
  }

  // Opens the socket (again); a socket still open is replaced without a retry of its own.
  start() {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    const old = this.socket;
    const opened = new WebSocket(this.url());
    this.socket = opened;
    this.isReady = false;
    old?.close();
    this.setState("connecting");
    opened.addEventListener("open", () => {
      if (opened === this.socket) this.hooks.onOpen?.();
    });
    opened.addEventListener("message", (event) => {
      if (opened === this.socket) this.receive(JSON.parse(event.data));
    });
    opened.addEventListener("close", () => {
      if (opened !== this.socket || this.stopped) return;  // replaced, or the page is going
      this.socket = null;
      this.isReady = false;
      this.setState("offline");
      this.retryTimer = setTimeout(() => this.start(), backoffDelay(this.failures));
      this.failures += 1;
    });
  }

  // A fresh socket now (the lobby after a name is picked: the session changed).
  reconnect() {
    this.start();
  }

  // The page is going: close without coming back (start() again to resume).
  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const old = this.socket;
    this.socket = null;
    this.isReady = false;
    old?.close();
  }

  setState(state) {
    this.hooks.onStateChange?.(state);
  }

  get open() {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  // Sends now if the socket is open; says whether it went.
  send(message) {
    if (!this.open) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  // Sends a message carrying a client_id and keeps it until its ack (or forget()).
  sendTracked(message) {
    this.pending.set(message.client_id, message);
    return this.send(message);
  }

  forget(clientId) {
    this.pending.delete(clientId);
  }

  forgetAll() {
    this.pending.clear();
  }

  ready() {
    const first = !this.isReady;
    this.isReady = true;
    this.failures = 0;
    this.setState("online");
    if (first) for (const message of this.pending.values()) this.send(message);
  }

  receive(message) {
    if (message.type === "ping") {
      this.send({ type: "pong" });
      return;
    }
    if (message.type === "ack") this.pending.delete(message.client_id);
    if (message.type === "error" && RETRIED.has(message.code)) this.retryLater(message);
    else if (message.type === "error" && message.client_id) this.pending.delete(message.client_id);
    this.hooks.onMessage?.(message);
  }

  // Nothing was changed: ask again soon on the same socket (a new one joins and resends
  // by itself).
  retryLater(message) {
    const current = this.socket;
    setTimeout(() => {
      if (this.socket !== current || !this.open) return;
      if (!this.isReady) this.hooks.onOpen?.();
      else if (message.client_id && this.pending.has(message.client_id)) {
        this.send(this.pending.get(message.client_id));
      } else if (message.code === "too_fast") {
        // The message refused was not read: it may have been any of those still unacked.
        for (const pending of this.pending.values()) this.send(pending);
      } else if (!message.client_id) this.hooks.onRetry?.(message);
    }, retryDelay(message));
  }
}
