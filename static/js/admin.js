// Helpers shared by the admin pages: actions in words, and the panel of what the players
// cannot see (the revealed view's "hidden" part, docs/engine.md). Every text is set with
// textContent: player names come from players.

// A message of our own (showError of api.js words the failures of requests).
export function say(element, text) {
  element.textContent = text;
  element.hidden = false;
}

export function seatNames(players) {
  return [0, 1].map((seat) => players.find((p) => p.seat === seat)?.name || `Seat ${seat}`);
}

function namer(catalog, table) {
  return (id) => catalog?.[table]?.[id]?.name ?? String(id);
}

// One action (its JSON form) in words, e.g. "Ann built Scriptorium".
export function actionWords(action, seat, names, catalog) {
  const card = namer(catalog, "cards");
  const wonder = namer(catalog, "wonders");
  const token = namer(catalog, "tokens");
  const who = names[seat] ?? `Seat ${seat}`;
  switch (action?.type) {
    case "pick_wonder": return `${who} picked ${wonder(action.wonder)}`;
    case "build": return `${who} built ${card(action.card)}`;
    case "discard": return `${who} discarded ${card(action.card)} for coins`;
    case "build_wonder": return `${who} built ${wonder(action.wonder)} with ${card(action.card)}`;
    case "choose_progress": return `${who} took the ${token(action.token)} progress token`;
    case "destroy": return `${who} made the opponent discard ${card(action.card)}`;
    case "build_from_discard": return `${who} built ${card(action.card)} from the discard pile`;
    case "choose_starter": return `${who} chose ${names[action.seat] ?? `seat ${action.seat}`} to start the age`;
    default: return `${who}: ${JSON.stringify(action)}`;
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

const AGES = { age1: "Age I", age2: "Age II", age3: "Age III" };

// The hidden identities of one position, grouped as the rules name them.
export function renderHidden(container, hidden, names, catalog) {
  const card = namer(catalog, "cards");
  const wonder = namer(catalog, "wonders");
  const token = namer(catalog, "tokens");
  const rows = [];
  const row = (key, title, items) => {
    rows.push(el("dt", {}, title));
    rows.push(el("dd", { "data-hidden": key }, items.length ? items.join(", ") : "none"));
  };
  if (!hidden) {
    container.replaceChildren(el("p", { class: "empty" }, "Nothing to show."));
    return;
  }
  if (hidden.library_draw) {
    const { seat, tokens } = hidden.library_draw;
    row("library_draw", `The Great Library: ${names[seat] ?? `seat ${seat}`} chooses among`, tokens.map(token));
  }
  if (hidden.draft_round_2?.length) row("draft_round_2", "Second draft round (not offered yet)", hidden.draft_round_2.map(wonder));
  for (const [age, title] of Object.entries(AGES)) {
    row(`removed_${age}`, `Removed at setup, ${title}`, (hidden.removed_cards?.[age] ?? []).map(card));
  }
  row("removed_guilds", "Guilds not in play", (hidden.removed_cards?.guilds ?? []).map(card));
  row("box_tokens", "Progress tokens in the box", (hidden.box_tokens ?? []).map(token));
  row("unused_wonders", "Wonders out of the game", (hidden.unused_wonders ?? []).map(wonder));
  const decks = Object.entries(hidden.decks ?? {}).map(([age, cards]) => el("details", { "data-hidden": `deck_${age}` },
    el("summary", {}, `${AGES[age] ?? age}, still to be laid out (${cards.length} cards, slot by slot)`),
    el("ol", { start: "0" }, cards.map((id) => el("li", {}, card(id))))));
  container.replaceChildren(el("dl", { class: "admin-hidden-list" }, rows), ...decks);
}
