// Helpers shared by the admin pages: actions in words, and the panel of what the players
// cannot see (the revealed view's "hidden" part, docs/engine.md). Every text is set with
// textContent: player names come from players.
import { computerName } from "./computer.js";
import { namer } from "./lists.js";
import { known, pageWords, t } from "./words.js";

await pageWords("admin");

// A message of our own (showError of api.js words the failures of requests).
export function say(element, text) {
  element.textContent = text;
  element.hidden = false;
}

export function seatNames(players) {
  return [0, 1].map((seat) => {
    const player = players.find((p) => p.seat === seat);
    if (player?.computer) return computerName(player.computer);
    return player?.name || t("admin.seat", { seat });
  });
}

// One action (its JSON form) in words, e.g. "Ann built Scriptorium".
export function actionWords(action, seat, names, catalog) {
  const card = namer(catalog, "cards");
  const wonder = namer(catalog, "wonders");
  const token = namer(catalog, "tokens");
  const who = names[seat] ?? t("admin.seat", { seat });
  switch (action?.type) {
    case "pick_wonder": return t("admin.action.pick_wonder", { who, wonder: wonder(action.wonder) });
    case "build": return t("admin.action.build", { who, card: card(action.card) });
    case "discard": return t("admin.action.discard", { who, card: card(action.card) });
    case "build_wonder":
      return t("admin.action.build_wonder", { who, wonder: wonder(action.wonder), card: card(action.card) });
    case "choose_progress": return t("admin.action.choose_progress", { who, token: token(action.token) });
    case "destroy": return t("admin.action.destroy", { who, card: card(action.card) });
    case "build_from_discard": return t("admin.action.build_from_discard", { who, card: card(action.card) });
    case "choose_starter": return t("admin.action.choose_starter", {
      who, whom: names[action.seat] ?? t("admin.seat.lower", { seat: action.seat }),
    });
    // Said as the game's log says them (event.resigned, event.time, event.abandoned, …).
    case "forfeit": return t(`event.${action.reason}`, { name: names[action.seat] ?? who });
    case "take_back": return t("event.taken_back", { name: names[action.seat] ?? who });
    default: return t("admin.action.other", { who, action: JSON.stringify(action) });
  }
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const AGES = ["age1", "age2", "age3"];

function ageWords(age) {
  return known(`admin.age.${age}`) ? t(`admin.age.${age}`) : age;
}

// The hidden identities of one position, grouped as the rules name them.
export function renderHidden(container, hidden, names, catalog) {
  const card = namer(catalog, "cards");
  const wonder = namer(catalog, "wonders");
  const token = namer(catalog, "tokens");
  const rows = [];
  const row = (key, title, items) => {
    rows.push(el("dt", {}, title));
    rows.push(el("dd", { "data-hidden": key }, items.length ? items.join(", ") : t("admin.hidden.none")));
  };
  if (!hidden) {
    container.replaceChildren(el("p", { class: "empty" }, t("admin.hidden.nothing")));
    return;
  }
  if (hidden.library_draw) {
    const { seat, tokens } = hidden.library_draw;
    row("library_draw", t("admin.hidden.library_draw", {
      name: names[seat] ?? t("admin.seat.lower", { seat }),
    }), tokens.map(token));
  }
  if (hidden.draft_round_2?.length) {
    row("draft_round_2", t("admin.hidden.draft_round_2"), hidden.draft_round_2.map(wonder));
  }
  for (const age of AGES) {
    row(`removed_${age}`, t("admin.hidden.removed", { age: ageWords(age) }),
      (hidden.removed_cards?.[age] ?? []).map(card));
  }
  row("removed_guilds", t("admin.hidden.removed_guilds"), (hidden.removed_cards?.guilds ?? []).map(card));
  row("box_tokens", t("admin.hidden.box_tokens"), (hidden.box_tokens ?? []).map(token));
  row("unused_wonders", t("admin.hidden.unused_wonders"), (hidden.unused_wonders ?? []).map(wonder));
  const decks = Object.entries(hidden.decks ?? {}).map(([age, cards]) => el("details", { "data-hidden": `deck_${age}` },
    el("summary", {}, t("admin.hidden.deck", { age: ageWords(age), n: cards.length })),
    el("ol", { start: "0" }, cards.map((id) => el("li", {}, card(id))))));
  container.replaceChildren(el("dl", { class: "admin-hidden-list" }, rows), ...decks);
}
