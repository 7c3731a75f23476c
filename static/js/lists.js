// The lists of games as the lobby and the "My games" page draw them (docs/lobby.md's
// entries): one row per game, with its options, its clock, whose turn it is or how it
// ended, and the link to it; a rated game marked, and each account's name linked to its
// profile with its rating; a computer opponent named from its level.
import { computerName, seatLevel } from "./computer.js";
import { clockText, controlText } from "./timing.js";
import { known, t } from "./words.js";

export function el(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") element.className = value;
    else if (name === "onclick") element.addEventListener("click", value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  element.append(...children.flat(Infinity).filter((child) => child !== null && child !== undefined));
  return element;
}

// Names from /api/catalog: `namer(catalog, "wonders")(id)` is the wonder's name (its id
// when the catalog lacks it).
export function namer(catalog, table) {
  return (id) => catalog?.[table]?.[id]?.name ?? String(id);
}

export function victoryText(victory) {
  const code = `lobby.victory.${victory}`;
  return known(code) ? t(code) : victory ?? "";
}

export function nameOf(entry, seat) {
  const level = seatLevel(entry, seat);
  if (level !== null) return computerName(level);
  return entry.seats[seat]?.name ?? t("player.default", { n: seat + 1 });
}

export const profilePath = (username) => `/players/${encodeURIComponent(username)}`;

// A rating as the lists and profiles show it: "1520", or "1520?" while provisional.
export function ratingText(rating, provisional) {
  return t("rating.value", { rating, provisional: Boolean(provisional) });
}

// A person's name as text, marked translate="no": a page translator must leave it alone.
export function personName(name) {
  return el("span", { class: "person-name", translate: "no" }, name);
}

// An account's name linked to its profile (translate="no" too), with its rating; a guest's
// name as it is.
export function playerName(name, username, rating, provisional) {
  if (!username) return personName(name);
  const link = el("a", { class: "player-link", href: profilePath(username), translate: "no" }, name);
  if (rating === null || rating === undefined) return link;
  return el("span", { class: "player" }, link, " ", el("span", {
    class: "rating", title: provisional ? t("rating.provisional") : null,
  }, t("rating.in_list", { rating: ratingText(rating, provisional) })));
}

export function seatName(entry, seat) {
  const held = entry.seats[seat];
  return playerName(nameOf(entry, seat), held?.username, held?.rating, held?.provisional);
}

// A message with elements in its place of some params (a linked name): `words` is given
// a marker for each element, and its text is cut around them.
export function withElements(params, words) {
  const elements = [];
  const marked = Object.fromEntries(Object.entries(params).map(([name, value]) => {
    if (!(value instanceof Node)) return [name, value];
    elements.push(value);
    return [name, `\u0000${elements.length - 1}\u0000`];
  }));
  return words(marked).split(/\u0000(\d+)\u0000/)
    .map((part, i) => (i % 2 ? elements[Number(part)] : part))
    .filter((part) => part !== "");
}

function ratedMark(entry) {
  return entry.rated
    ? [" ", el("span", { class: "badge rated", title: t("lobby.rated_title") }, t("lobby.rated"))] : null;
}

export function optionsText(entry) {
  const wonders = t(entry.options?.wonder_selection === "first_game"
    ? "lobby.options.first_game" : "lobby.options.draft");
  const first = entry.options?.first_player;
  const starter = first === 0 || first === 1
    ? t("lobby.options.starts", { name: nameOf(entry, first) }) : t("lobby.options.random_start");
  return t("lobby.options", { wonders, starter, control: controlText(entry.time_control) });
}

export function ago(iso) {
  const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds) || seconds < 45) return t("lobby.ago.now");
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return t("lobby.ago.minutes", { n: minutes });
  const hours = Math.round(minutes / 60);
  if (hours < 36) return t("lobby.ago.hours", { n: hours });
  return t("lobby.ago.days", { n: Math.round(hours / 24) });
}

// "12 moves · last move 3 min ago", or when it was joined for a game not begun yet.
export function progress(entry) {
  return entry.version === 0 ? t("lobby.progress.not_begun", { ago: ago(entry.updated_at) })
    : t("lobby.progress.moves", { n: entry.version, ago: ago(entry.updated_at) });
}

// A link to the game: `kind` (open, resume, watch, view) names its text, `label` says more.
export function gameLink(entry, kind, label) {
  return el("a", {
    class: "button-link", href: `/games/${encodeURIComponent(entry.game_id)}`,
    "aria-label": label, "data-focus-key": `${kind}:${entry.game_id}`,
  }, t(`lobby.link.${kind}`));
}

export function row(entry, names, meta, ...actions) {
  return el("li", { class: "entry", "data-game-id": entry.game_id, "data-rated": entry.rated || null },
    el("div", { class: "entry-main" },
      el("span", { class: "entry-names" }, names, ratedMark(entry)),
      el("span", { class: "entry-meta" }, meta)),
    el("div", { class: "entry-actions" }, actions));
}

export function resultText(entry) {
  const victory = victoryText(entry.victory);
  if (entry.winner === null || entry.winner === undefined) return t("lobby.result.shared", { victory });
  return t(entry.winner === entry.my_seat ? "lobby.result.won" : "lobby.result.lost", { victory });
}

export function mineRow(entry, heard) {
  const me = entry.my_seat;
  const other = me === 0 || me === 1 ? 1 - me : 1;
  const opponent = entry.seats[other]?.taken
    ? t("lobby.mine.versus", { name: nameOf(entry, other) }) : t("lobby.mine.no_opponent");
  const badges = [];
  let meta;
  let action;
  const more = [];
  switch (entry.status) {
    case "waiting":
      meta = t(entry.origin === "invite" ? "lobby.mine.waiting_invite" : "lobby.mine.waiting_listed",
        { ago: ago(entry.created_at) });
      action = gameLink(entry, "open", t("lobby.mine.open_label"));
      break;
    case "active":
      meta = [progress(entry), entry.time_control ? ` · ${controlText(entry.time_control)}` : null,
        clockLine(entry, heard)];
      badges.push(entry.to_act === me
        ? el("span", { class: "badge your-turn" }, t("lobby.mine.your_turn"))
        : el("span", { class: "badge" }, t("lobby.mine.their_turn", { name: nameOf(entry, other) })));
      action = gameLink(entry, "resume", t("lobby.mine.resume_label", { opponent }));
      break;
    case "finished":
      badges.push(el("span", {
        class: `badge result ${entry.winner === me ? "won" : entry.winner === null ? "shared" : "lost"}`,
      }, resultText(entry)));
      meta = t("lobby.mine.finished", { ago: ago(entry.updated_at), n: entry.version });
      action = gameLink(entry, "view", t("lobby.mine.finished_label", { opponent }));
      more.push(el("a", {  // the link to share
        class: "button-link", href: `/replay/${encodeURIComponent(entry.game_id)}`,
        "aria-label": t("lobby.mine.replay_label", { opponent }),
      }, t("lobby.link.replay")));
      break;
    case "aborted":
      badges.push(el("span", { class: "badge aborted" }, t("lobby.mine.aborted")));
      meta = t("lobby.mine.stopped", { ago: ago(entry.updated_at), n: entry.version });
      action = gameLink(entry, "view", t("lobby.mine.aborted_label", { opponent }));
      break;
    case "expired":
      badges.push(el("span", { class: "badge aborted" }, t("lobby.mine.expired")));
      meta = t("lobby.mine.expired_meta", { ago: ago(entry.updated_at) });
      action = gameLink(entry, "view", t("lobby.mine.view_label", { opponent }));
      break;
    default:
      meta = entry.status;  // none other is sent (docs/lobby.md): its code, should one come
      action = gameLink(entry, "view", t("lobby.mine.view_label", { opponent }));
  }
  const against = entry.seats[other]?.taken
    ? withElements({ name: seatName(entry, other) }, (params) => t("lobby.mine.versus", params))
    : opponent;
  return row(entry, el("strong", {}, against), meta, ...badges, action, ...more);
}

export function fillList(list, entries, makeRow, emptyText) {
  list.count.textContent = entries.length ? t("lobby.count", { n: entries.length }) : "";
  if (!entries.length) {
    list.box.replaceChildren(el("p", { class: "empty" }, emptyText ?? list.box.dataset.empty));
    return;
  }
  list.box.replaceChildren(el("ul", { class: "entry-list" }, entries.map(makeRow)));
}


// A timed game's clocks as the picture heard at `heard` (performance.now()) gave them:
// " · Ann 4:12 · Bob 3:50", the running one counted down by tickClocks.
export function clockLine(entry, heard) {
  if (!entry.clock) return null;
  return el("span", { class: "entry-clocks" }, [0, 1].map((seat) => {
    const running = entry.clock.running === seat;
    const time = el("span", {
      class: `entry-clock${running ? " running" : ""}`, "data-seat": seat,
      "data-left": entry.clock.remaining[seat], "data-heard": running ? heard : null,
    }, clockText(entry.clock.remaining[seat] - (running ? performance.now() - heard : 0)));
    return [" · ", personName(nameOf(entry, seat)), " ", time];
  }));
}

// The running clocks of the lists shown, counted down every second.
export function tickClocks(container) {
  setInterval(() => {
    const now = performance.now();
    for (const clock of container.querySelectorAll(".entry-clock[data-heard]")) {
      const left = Number(clock.dataset.left) - (now - Number(clock.dataset.heard));
      const text = clockText(left);
      if (clock.textContent !== text) clock.textContent = text;
    }
  }, 1000);
}

// The player's games where it is their turn, told from each lobby picture (the lobby, "My
// games"): the title and favicon while any is waiting in a background tab, and a move
// arriving in one of them chimes and notifies as in a game's own tab.
export class TurnsInGames {
  constructor(notice) {
    this.notice = notice;
    this.known = null;  // "game:version" of each turn waiting, as of the last picture
  }

  // A game arrives when it becomes the player's turn (not while a turn of theirs goes on,
  // as after a wonder that plays again). Heard in a shown tab, the page itself says it.
  update(mine, title) {
    const turns = mine.filter((entry) => entry.status === "active" && entry.to_act === entry.my_seat);
    const arrived = this.known === null ? [] : turns.filter((entry) => !this.known.has(entry.game_id));
    this.known = new Set(turns.map((entry) => entry.game_id));
    const hidden = document.visibilityState === "hidden";
    this.notice.wasMyTurn = !(hidden && arrived.length);  // chimes and notifies only then
    const other = arrived[0] && nameOf(arrived[0], 1 - arrived[0].my_seat);
    return this.notice.update({ title, myTurn: turns.length > 0, opponent: other ?? "" });
  }
}
