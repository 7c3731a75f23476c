// The game board: both cities, the age structure, the military track, the progress
// tokens, the discard pile, the wonder draft, pending decisions and the end screen.
//
//   renderBoard(root, model, handlers)
//     root      the element to fill (its content is replaced on every call)
//     model     { view, seat, catalog, names, lastMove }
//     handlers  { act(actionJson) }
//
// Everything is drawn with HTML, CSS (static/css/board.css) and small inline SVG glyphs.
// Every button that sends an action carries data-action="<notation>"; every card the
// viewer may take on a normal turn is a <button data-card="<id>"> that opens its options.
// A seat's view prices each accessible card and each of its unbuilt wonders (view.prices,
// on either seat's turn): drawn on them as a .bd-price-now tag, marked when unaffordable.

const SVG_NS = "http://www.w3.org/2000/svg";

const COLORS = ["brown", "grey", "blue", "green", "yellow", "red", "purple"];
// A mark for each card colour, so that colour is never the only cue.
const COLOR_INFO = {
  brown: { mark: "Br", kind: "raw materials" },
  grey: { mark: "Gy", kind: "manufactured goods" },
  blue: { mark: "Bl", kind: "civilian building" },
  green: { mark: "Gn", kind: "scientific building" },
  yellow: { mark: "Ye", kind: "commercial building" },
  red: { mark: "Rd", kind: "military building" },
  purple: { mark: "Pu", kind: "guild" },
};
const RESOURCE_MARK = { wood: "W", clay: "C", stone: "S", glass: "G", papyrus: "P" };
const ROMAN = ["", "I", "II", "III"];
const VICTORY_WORDS = {
  civilian: "civilian victory (most points)",
  military: "military supremacy (the conflict pawn reached a capital)",
  science: "scientific supremacy (six different science symbols)",
};
const SCORE_ROWS = [
  ["blue", "Blue cards"], ["green", "Green cards"], ["yellow", "Yellow cards"],
  ["purple", "Guilds (purple)"], ["wonders", "Wonders"], ["progress", "Progress tokens"],
  ["coins", "Coins (1 per 3)"], ["military", "Military"], ["total", "Total"],
];

// UI state that outlives a render, per root element.
const uiState = new WeakMap();

// ---------------------------------------------------------------------------------------
// The entry point
// ---------------------------------------------------------------------------------------

export function renderBoard(root, model, handlers) {
  let ui = uiState.get(root);
  if (!ui) {
    ui = { openCard: null, discardOpen: false, root };
    uiState.set(root, ui);
  }
  const focus = rememberFocus(root);
  const scrolls = rememberScroll(root);

  const view = model?.view;
  if (!view) {
    root.replaceChildren(h("p", { class: "bd-empty" }, "Waiting for the game…"));
    return;
  }
  const ctx = makeContext(model, handlers, ui);
  if (ui.openCard && !ctx.cardOptions.has(ui.openCard)) ui.openCard = null;

  const board = h("div", { class: "bd", "data-age": String(view.age), "data-phase": view.phase },
    renderStatus(ctx),
    view.outcome ? renderOutcome(ctx) : null,
    renderPrompt(ctx),
    renderCity(ctx, ctx.top, "top"),
    renderTable(ctx),
    renderCity(ctx, ctx.bottom, "bottom"),
    renderCardDialog(ctx),
  );
  root.classList.add("bd-root");
  root.replaceChildren(board);

  restoreScroll(root, scrolls);
  const dialog = root.querySelector("dialog.bd-dialog");
  if (dialog && ui.openCard) {
    openDialog(dialog);
    if (!focus || !restoreFocus(dialog, focus)) focusFirst(dialog);
  } else if (focus) {
    restoreFocus(root, focus);
  }
}

// The events of an update in words, as the board's "last move" line says them (the page's
// game log uses the same sentences).
export function describeEvents(model, events) {
  const ctx = makeContext(model, { act() {} }, null);
  return events.map((event) => describeEvent(ctx, event)).filter(Boolean);
}

function makeContext(model, handlers, ui) {
  const view = model.view;
  const seat = model.seat === 0 || model.seat === 1 ? model.seat : null;
  const catalog = model.catalog ?? { cards: {}, wonders: {}, tokens: {} };
  const legal = new Map((view.legal_actions ?? []).map((entry) => [entry.notation, entry]));
  const cardOptions = new Map((view.card_options ?? []).map((option) => [option.card, option]));
  // What building costs the viewer now; only a seat's view has prices.
  const prices = seat !== null && view.prices ? view.prices : { cards: {}, wonders: {} };
  const bottom = seat ?? 0;
  const lastMove = model.lastMove ?? null;
  const events = lastMove?.events ?? [];
  const decision = view.decision ?? null;
  const ctx = {
    view, seat, catalog, handlers, ui, legal, cardOptions, prices, lastMove, events, decision,
    bottom, top: 1 - bottom,
    names: model.names ?? [],
    myTurn: seat !== null && decision !== null && decision.seat === seat && view.to_act === seat,
    newAge: events.some((e) => e.type === "age_started"),
  };
  ctx.revealed = new Set(events.filter((e) => e.type === "card_revealed").map((e) => e.slot));
  ctx.name = (s) => playerName(ctx, s);
  return ctx;
}

function playerName(ctx, seat) {
  // The board says "you" itself: a "(you)" the page may have added to the name is dropped.
  const given = String(ctx.names?.[seat] ?? "").replace(/\s*\(you\)\s*$/i, "").trim();
  return given || `Player ${seat + 1}`;
}

// "You" where the viewer is meant, the name otherwise.
function who(ctx, seat) {
  return seat === ctx.seat ? "You" : ctx.name(seat);
}

function possessive(ctx, seat) {
  return seat === ctx.seat ? "your" : `${ctx.name(seat)}'s`;
}

// ---------------------------------------------------------------------------------------
// Small DOM helpers
// ---------------------------------------------------------------------------------------

function h(tag, props, ...children) {
  const el = document.createElement(tag);
  setProps(el, props);
  append(el, children);
  return el;
}

function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value !== null && value !== undefined) el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function setProps(el, props) {
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "style") {
      for (const [name, v] of Object.entries(value)) el.style.setProperty(name, String(v));
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else el.setAttribute(key, value === true ? "" : String(value));
  }
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.append(child);
    else el.append(document.createTextNode(String(child)));
  }
}

function hidden(text) {
  return h("span", { class: "bd-sr" }, text);
}

// The content of a control named by its content: the drawn face, hidden from assistive
// technology, then the words that say all it shows. No aria-label then disagrees with the
// text on screen (glyph letters and figures that no label can repeat word for word:
// WCAG 2.5.3, axe's label-content-name-mismatch), and the name still starts with the
// thing's own name, as printed on it.
function spokenAs(label, content) {
  const face = [content].flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (c instanceof Element ? c : h("span", {}, c instanceof Node ? c : String(c))));
  for (const element of face) element.setAttribute("aria-hidden", "true");
  return [...face, hidden(label)];
}

function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

function listWords(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

function words(id) {
  return String(id ?? "").replace(/_/g, " ");
}

// ---------------------------------------------------------------------------------------
// Focus and scroll kept across renders
// ---------------------------------------------------------------------------------------

function rememberFocus(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  const keyed = active.closest("[data-focus-key]");
  if (!keyed) return null;
  return { key: keyed.getAttribute("data-focus-key") };
}

function restoreFocus(scope, focus) {
  for (const el of scope.querySelectorAll("[data-focus-key]")) {
    if (el.getAttribute("data-focus-key") === focus.key && !el.disabled) {
      el.focus({ preventScroll: true });
      return true;
    }
  }
  return false;
}

function rememberScroll(root) {
  const out = {};
  for (const el of root.querySelectorAll("[data-scroll-key]")) {
    out[el.getAttribute("data-scroll-key")] = el.scrollLeft;
  }
  return out;
}

function restoreScroll(root, scrolls) {
  for (const el of root.querySelectorAll("[data-scroll-key]")) {
    const left = scrolls[el.getAttribute("data-scroll-key")];
    if (left) el.scrollLeft = left;
  }
}

// ---------------------------------------------------------------------------------------
// Glyphs: resources, coins, shields, points, science symbols, chains
// ---------------------------------------------------------------------------------------

function resourceIcon(resource, count = 1) {
  const out = [];
  for (let i = 0; i < count; i += 1) {
    out.push(h("span", { class: `bd-res bd-res--${resource}`, title: resource, "aria-hidden": "true" },
      RESOURCE_MARK[resource] ?? resource.slice(0, 1).toUpperCase()));
  }
  return out;
}

// Resource units as icons, with their words for screen readers.
function resources(map) {
  const entries = Object.entries(map ?? {}).filter(([, n]) => n > 0);
  if (!entries.length) return null;
  return h("span", { class: "bd-res-list" },
    entries.map(([r, n]) => resourceIcon(r, n)),
    hidden(entries.map(([r, n]) => `${n} ${r}`).join(", ")));
}

function coin(amount, label) {
  return h("span", { class: "bd-coin", title: label ?? plural(amount, "coin") },
    h("span", { "aria-hidden": "true" }, String(amount)), hidden(label ?? plural(amount, "coin")));
}

function shieldSvg() {
  return s("svg", { viewBox: "0 0 16 16", class: "bd-glyph", "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M8 1.2 14 3.4v4.2c0 3.6-2.6 6.1-6 7.2-3.4-1.1-6-3.6-6-7.2V3.4Z", class: "bd-shield-body" }),
    s("path", { d: "M8 3v10", class: "bd-shield-line" }));
}

function shields(n) {
  const icons = [];
  for (let i = 0; i < n; i += 1) icons.push(shieldSvg());
  return h("span", { class: "bd-shields", title: plural(n, "shield") }, icons, hidden(plural(n, "shield")));
}

function points(n) {
  if (!n) return null;
  return h("span", { class: "bd-vp", title: plural(n, "victory point") },
    h("span", { "aria-hidden": "true" }, `${n}`), h("span", { class: "bd-vp-unit", "aria-hidden": "true" }, "VP"),
    hidden(plural(n, "point")));
}

function linkSvg() {
  return s("svg", { viewBox: "0 0 16 16", class: "bd-glyph bd-link-glyph", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1.5, y: 5, width: 8, height: 6, rx: 3 }),
    s("rect", { x: 6.5, y: 5, width: 8, height: 6, rx: 3 }));
}

function chainChip(symbol, prefix) {
  return h("span", { class: "bd-chain", title: `${prefix ? `${prefix} ` : ""}chain symbol: ${words(symbol)}` },
    linkSvg(), h("span", {}, words(symbol)));
}

// The viewer's price now (an entry of view.prices), in words.
function priceNowWords(price) {
  const cost = price.chain ? "free through a chain"
    : !price.total ? "free"
      : `${plural(price.total, "coin")}${price.trade ? `, ${price.trade} of them for trading` : ""}`;
  return `Your price: ${cost}${price.affordable ? "" : "; you cannot afford it"}`;
}

// The viewer's price now as a tag: "free", a chain mark and "free", or the coins with the
// trading part ("3 (2 trade)"); an unaffordable one is crossed out, with a ✕ (and, when
// `roomy`, how many coins are missing), not by colour alone.
function priceTag(ctx, price, roomy = false) {
  if (!price) return null;
  const short = !price.affordable;
  const missing = price.total - (ctx.view.players?.[ctx.seat]?.coins ?? 0);
  const text = priceNowWords(price);
  let shown;
  if (price.chain) shown = [linkSvg(), h("span", { class: "bd-price-amount" }, "free")];
  else if (!price.total) shown = h("span", { class: "bd-price-amount" }, "free");
  else {
    shown = [h("span", { class: "bd-price-amount" }, h("span", { class: "bd-coin" }, String(price.total))),
      price.trade ? h("span", { class: "bd-price-trade" }, ` (${price.trade} trade)`) : null];
  }
  return h("span", {
    class: `bd-price-now${price.chain ? " is-chain" : ""}${short ? " is-unaffordable" : ""}`,
    title: text, "data-price": String(price.total), "data-affordable": String(price.affordable),
  },
  h("span", { class: "bd-price-shown", "aria-hidden": "true" },
    short ? h("span", { class: "bd-price-cross" }, "✕") : null, shown,
    short && roomy && missing > 0 ? h("span", { class: "bd-price-missing" }, ` need ${missing} more`) : null),
  hidden(text));
}

const SCIENCE_PATHS = {
  globe: [
    ["circle", { cx: 8, cy: 8, r: 6 }], ["ellipse", { cx: 8, cy: 8, rx: 2.6, ry: 6 }],
    ["path", { d: "M2 8h12M3.2 4.6h9.6M3.2 11.4h9.6" }],
  ],
  wheel: [
    ["circle", { cx: 8, cy: 8, r: 6 }], ["circle", { cx: 8, cy: 8, r: 1.4 }],
    ["path", { d: "M8 2v12M2 8h12M3.8 3.8l8.4 8.4M12.2 3.8l-8.4 8.4" }],
  ],
  sundial: [
    ["path", { d: "M1.5 12h13" }], ["path", { d: "M2.5 12a5.5 5.5 0 0 1 11 0" }],
    ["path", { d: "M8 12V4.5l3.5 7.5" }],
  ],
  mortar: [
    ["path", { d: "M2 7h12l-1.6 4.6a2 2 0 0 1-1.9 1.4H5.5a2 2 0 0 1-1.9-1.4Z" }],
    ["path", { d: "M9 7l4-5.5" }], ["path", { d: "M6 13v1.5h4V13" }],
  ],
  plumb_line: [
    ["path", { d: "M8 1.5 2 13.5h12Z" }], ["path", { d: "M8 1.5v8" }], ["circle", { cx: 8, cy: 10.6, r: 1.2 }],
  ],
  quill: [
    ["path", { d: "M13.5 1.5C8 2.5 4.5 6.5 3.2 12.8" }],
    ["path", { d: "M13.5 1.5c-.5 5-3.5 8.5-8.6 9.6" }], ["path", { d: "M2 14.5l1.4-2" }],
  ],
  law: [
    ["path", { d: "M8 2v11.5M4.5 14h7M2.5 4h11" }],
    ["path", { d: "M2.5 4 1 8.5h3Z" }], ["path", { d: "M13.5 4 12 8.5h3Z" }],
  ],
};

function scienceIcon(symbol) {
  const parts = SCIENCE_PATHS[symbol] ?? [["circle", { cx: 8, cy: 8, r: 5 }]];
  return h("span", { class: "bd-sci", title: `science symbol: ${words(symbol)}` },
    s("svg", { viewBox: "0 0 16 16", class: "bd-glyph", "aria-hidden": "true", focusable: "false" },
      parts.map(([tag, attrs]) => s(tag, attrs))),
    hidden(`${words(symbol)} symbol`));
}

function pawnSvg() {
  return s("svg", { viewBox: "0 0 20 20", class: "bd-pawn-glyph", "aria-hidden": "true", focusable: "false" },
    s("path", { d: "M10 1.5 17.5 10 10 18.5 2.5 10Z" }),
    s("path", { d: "M10 5.5 14 10l-4 4.5L6 10Z", class: "bd-pawn-core" }));
}

// ---------------------------------------------------------------------------------------
// Card, wonder and token facts from the catalog
// ---------------------------------------------------------------------------------------

function cardInfo(ctx, id) {
  return ctx.catalog.cards?.[id] ?? { name: words(id), color: "brown", cost: { coins: 0, resources: {} }, effects: [], effect_details: [], points: 0, age: 1 };
}

function wonderInfo(ctx, id) {
  return ctx.catalog.wonders?.[id] ?? { name: words(id), cost: { coins: 0, resources: {} }, effects: [], effect_details: [], points: 0 };
}

function tokenInfo(ctx, id) {
  return ctx.catalog.tokens?.[id] ?? { name: words(id), effects: [], points: 0 };
}

function cardName(ctx, id) { return cardInfo(ctx, id).name; }
function wonderName(ctx, id) { return wonderInfo(ctx, id).name; }
function tokenName(ctx, id) { return tokenInfo(ctx, id).name; }

function costWords(cost) {
  const parts = [];
  if (cost?.coins) parts.push(plural(cost.coins, "coin"));
  for (const [r, n] of Object.entries(cost?.resources ?? {})) parts.push(`${n} ${r}`);
  return parts.length ? parts.join(", ") : "free";
}

function costChips(cost) {
  const parts = [];
  if (cost?.coins) parts.push(coin(cost.coins));
  const res = resources(cost?.resources);
  if (res) parts.push(res);
  if (!parts.length) return h("span", { class: "bd-free" }, "free");
  return parts;
}

// A full description, for aria-labels and tooltips.
function describeCard(ctx, id) {
  const card = cardInfo(ctx, id);
  const parts = [`${card.name}, ${card.color} card (${COLOR_INFO[card.color]?.kind ?? card.color})`,
    `cost: ${costWords(card.cost)}`];
  if (card.chain_from) parts.push(`free with the ${words(card.chain_from)} chain symbol`);
  if (card.effects.length) parts.push(card.effects.join("; "));
  if (card.points) parts.push(plural(card.points, "point"));
  if (card.chain_to) parts.push(`gives the ${words(card.chain_to)} chain symbol`);
  return parts.join(". ");
}

function describeWonder(ctx, id) {
  const wonder = wonderInfo(ctx, id);
  const parts = [`${wonder.name}, wonder`, `cost: ${costWords(wonder.cost)}`];
  if (wonder.effects.length) parts.push(wonder.effects.join("; "));
  if (wonder.points) parts.push(plural(wonder.points, "point"));
  return parts.join(". ");
}

function describeToken(ctx, id) {
  const token = tokenInfo(ctx, id);
  const parts = [`${token.name}, progress token`];
  if (token.effects.length) parts.push(token.effects.join("; "));
  if (token.points) parts.push(plural(token.points, "point"));
  return parts.join(". ");
}

// The effects in short form: icons where an icon says it, short words otherwise. Each
// detail is {kind, text, ...figures} from the catalog.
function effectChips(details) {
  return (details ?? []).map((detail) => effectChip(detail));
}

function effectChip(detail) {
  const { kind, text } = detail;
  switch (kind) {
    case "produce_one_of":
      return h("span", { class: "bd-fx bd-fx--choice", title: text },
        detail.resources.map((r, i) => [i ? h("span", { class: "bd-slash", "aria-hidden": "true" }, "/") : null, resourceIcon(r)]),
        hidden(`one of ${detail.resources.join(" or ")}`));
    case "produce":
      return h("span", { class: "bd-fx", title: text },
        Object.entries(detail.resources).map(([r, n]) => resourceIcon(r, n)), hidden(text.toLowerCase()));
    case "trade_price_one":
      return h("span", { class: "bd-fx bd-fx--trade", title: text },
        detail.resources.map((r) => resourceIcon(r)), h("span", { "aria-hidden": "true" }, "="), coin(1, "1 coin each"),
        hidden(text.toLowerCase()));
    case "shields": return shields(detail.amount);
    case "science": return scienceIcon(detail.symbol);
    case "coins":
      return h("span", { class: "bd-fx", title: text }, coin(detail.amount, `take ${plural(detail.amount, "coin")}`));
    default:
      return h("span", { class: "bd-fx bd-fx--text", title: text }, shortText(detail));
  }
}

const PER_WORDS = { "brown+grey": "brown+grey", wonder: "wonder", coin_set_of_3: "3 coins" };

function shortText(detail) {
  const per = PER_WORDS[detail.per] ?? detail.per;
  switch (detail.kind) {
    case "coins_per_own": return `${plural(detail.amount, "coin")} / ${per}`;
    case "coins_per_most": return `${plural(detail.amount, "coin")} / ${per} (most)`;
    case "points_per_most": return `${detail.amount} VP / ${per} (most)`;
    case "opponent_loses_coins": return `opponent −${detail.amount} coins`;
    case "play_again": return "play again";
    case "destroy_opponent_card": return `discard an opponent's ${detail.color} card`;
    case "build_from_discard": return "build a discarded card free";
    case "progress_from_box": return `keep 1 of ${detail.amount} boxed tokens`;
    default: return detail.text;
  }
}

// ---------------------------------------------------------------------------------------
// Card faces
// ---------------------------------------------------------------------------------------

// The inside of a face-up card: colour band with its mark and effect, name, cost, chains.
function cardFaceParts(ctx, id) {
  const card = cardInfo(ctx, id);
  const color = COLOR_INFO[card.color] ?? { mark: "?" };
  return [
    // The chips are hidden from assistive technology: the card's label says it all in
    // words, and starts with the card's name (the text a speech user reads off the card).
    h("span", { class: "bd-card-band", "aria-hidden": "true" },
      h("span", { class: "bd-card-mark" }, color.mark),
      h("span", { class: "bd-card-fx" }, effectChips(card.effect_details), points(card.points)),
      card.chain_to ? h("span", { class: "bd-card-chain-to" }, chainChip(card.chain_to, "gives")) : null),
    h("span", { class: "bd-card-name" }, card.name),
    h("span", { class: "bd-card-cost", "aria-hidden": "true" }, costChips(card.cost),
      card.chain_from ? chainChip(card.chain_from, "free with") : null),
  ];
}

function backLabel(back) {
  return back === "guild" ? "Guild" : ROMAN[Number(String(back).replace("age", ""))] ?? "?";
}

function backWords(back) {
  return back === "guild" ? "face-down guild card" : `face-down Age ${backLabel(back)} card`;
}

// ---------------------------------------------------------------------------------------
// Status line: whose turn, age, counters; the last move
// ---------------------------------------------------------------------------------------

const DECISION_DOING = {
  pick_wonder: "picking a wonder",
  play_card: "taking a card",
  choose_progress: "choosing a progress token",
  choose_library_token: "choosing a token with The Great Library",
  destroy_card: "choosing one of your cards to discard",
  build_from_discard: "building a card from the discard pile",
  choose_starter: "choosing who starts the age",
};

const DECISION_ASK = {
  pick_wonder: "Your pick: choose a wonder",
  play_card: "Your turn: take one of the highlighted cards",
  choose_progress: "Choose a progress token",
  choose_library_token: "The Great Library: keep one token",
  destroy_card: "Choose a card of your opponent's to discard",
  build_from_discard: "The Mausoleum: build a discarded card for free",
  choose_starter: "Choose who starts the age",
};

function turnText(ctx) {
  const { view, decision } = ctx;
  if (view.outcome) {
    const { winner, victory } = view.outcome;
    if (winner === null || winner === undefined) return `Shared victory (${victory})`;
    return `${who(ctx, winner)} ${winner === ctx.seat ? "win" : "wins"}: ${victory} victory`;
  }
  if (!decision) return "Waiting…";
  if (ctx.myTurn) return DECISION_ASK[decision.kind] ?? "Your turn";
  let doing = DECISION_DOING[decision.kind] ?? "playing";
  if (decision.kind === "destroy_card" && ctx.seat === null) doing = "choosing a card to discard";
  return `${ctx.name(decision.seat)} is ${doing}`;
}

function renderStatus(ctx) {
  const { view, decision } = ctx;
  const stage = view.phase === "draft" ? `Wonder draft, round ${view.draft?.round ?? 1}`
    : view.phase === "over" ? "Game over" : `Age ${ROMAN[view.age] ?? view.age}`;
  const facts = [];
  if (view.phase === "play") facts.push(`${plural(view.cards_left ?? 0, "card")} left in this age`);
  if (view.phase !== "draft") facts.push(`${view.wonders_built ?? 0} of 7 wonders built`);
  if (ctx.seat === null) facts.push("You are watching");
  const actor = decision && !view.outcome ? decision.seat : null;
  return h("header", { class: `bd-status${ctx.myTurn ? " is-my-turn" : ""}` },
    h("div", { class: "bd-status-main" },
      h("h2", { class: "bd-stage" }, stage),
      h("p", { class: "bd-turn", role: "status", "aria-live": "polite" },
        actor !== null ? h("span", { class: `bd-turn-dot bd-seat-${actor === ctx.bottom ? "bottom" : "top"}`, "aria-hidden": "true" }) : null,
        turnText(ctx))),
    facts.length ? h("p", { class: "bd-facts" }, facts.join(" · ")) : null,
    renderLastMove(ctx));
}

function renderLastMove(ctx) {
  const move = ctx.lastMove;
  if (!move) return null;
  const sentences = ctx.events.map((e) => describeEvent(ctx, e)).filter(Boolean);
  if (!sentences.length && move.notation) sentences.push(`${ctx.name(move.seat)}: ${move.notation}`);
  if (!sentences.length) return null;
  const mine = move.seat === ctx.seat;
  return h("section", { class: `bd-last${mine ? " is-mine" : " is-theirs"}`, "aria-label": "Last move" },
    h("h3", { class: "bd-last-title" }, mine ? "Your last move" : `Last move: ${ctx.name(move.seat)}`),
    h("p", { class: "bd-last-list" }, `${sentences.join(". ")}.`));
}

function paymentPhrase(payment) {
  if (!payment) return "";
  if (payment.chain) return " for free through a chain";
  if (!payment.total) return " for free";
  const bits = [];
  if (payment.trade) bits.push(`${payment.trade} for resources`);
  return ` for ${plural(payment.total, "coin")}${bits.length ? ` (${bits.join(", ")})` : ""}`;
}

function describeEvent(ctx, e) {
  const name = (seat) => who(ctx, seat);
  switch (e.type) {
    case "wonder_picked": return `${name(e.seat)} took ${wonderName(ctx, e.wonder)}`;
    case "draft_round": return `Second draft round: ${listWords((e.wonders ?? []).map((w) => wonderName(ctx, w)))}`;
    case "age_started": return `Age ${ROMAN[e.age] ?? e.age} begins`;
    case "card_built": return `${name(e.seat)} built ${cardName(ctx, e.card)}${paymentPhrase(e.payment)}`;
    case "card_discarded": return `${name(e.seat)} discarded ${cardName(ctx, e.card)} for ${plural(e.coins, "coin")}`;
    case "wonder_built": return `${name(e.seat)} built ${wonderName(ctx, e.wonder)} with ${cardName(ctx, e.card)}${paymentPhrase(e.payment)}`;
    case "card_revealed": return `${cardName(ctx, e.card)} was turned face up`;
    case "coins_gained": return `${name(e.seat)} gained ${plural(e.coins, "coin")}`;
    case "coins_lost": return `${name(e.seat)} lost ${plural(e.coins, "coin")}`;
    case "pawn_moved": {
      const toward = e.pawn === 0 ? "to the centre" : `toward ${possessive(ctx, e.pawn > 0 ? 1 : 0)} capital`;
      return `${plural(e.shields, "shield")}: the conflict pawn moved ${toward} (${Math.abs(e.pawn)} from the centre)`;
    }
    case "looted": return `${name(e.seat)} lost ${plural(e.coins_lost, "coin")} to a military token`;
    case "science_pair": return `${name(e.seat)} gathered a pair of ${words(e.symbol)} symbols`;
    case "progress_taken": return `${name(e.seat)} took the ${tokenName(ctx, e.token)} progress token${e.source === "great_library" ? " (The Great Library)" : ""}`;
    case "library_drawn": {
      const n = e.tokens ? e.tokens.length : e.count;
      return `${name(e.seat)} drew ${plural(n ?? 3, "token")} with The Great Library`;
    }
    case "card_destroyed": return `${cardName(ctx, e.card)} of ${ctx.seat === e.seat ? "yours" : ctx.name(e.seat)} was discarded`;
    case "card_built_from_discard": return `${name(e.seat)} built ${cardName(ctx, e.card)} from the discard pile`;
    case "wonder_retired": return `${wonderName(ctx, e.wonder)} (${ctx.name(e.seat)}) left the game: seven wonders are built`;
    case "play_again": return `${name(e.seat)} ${e.seat === ctx.seat ? "play" : "plays"} again`;
    case "play_again_lost": return `${possessive(ctx, e.seat).replace(/^y/, "Y")} extra turn is lost (end of the age)`;
    case "starter_chosen": return `${name(e.seat)} chose ${e.starter === e.seat ? (e.seat === ctx.seat ? "yourself" : "themselves") : (e.starter === ctx.seat ? "you" : ctx.name(e.starter))} to start`;
    case "game_over": return e.winner === null || e.winner === undefined ? "The game ends in a shared victory"
      : `${name(e.winner)} ${e.winner === ctx.seat ? "win" : "wins"}: ${words(e.victory)}`;
    default: return null;
  }
}

// ---------------------------------------------------------------------------------------
// The end screen
// ---------------------------------------------------------------------------------------

function renderOutcome(ctx) {
  const outcome = ctx.view.outcome;
  const winner = outcome.winner;
  let title;
  if (winner === null || winner === undefined) title = "Shared victory";
  else if (winner === ctx.seat) title = "You win!";
  else title = `${ctx.name(winner)} wins`;
  const scores = outcome.scores ?? ctx.view.players.map((p) => p.score);
  const order = [ctx.bottom, ctx.top];
  let tieNote = null;
  if (outcome.victory === "civilian" && scores[0]?.total === scores[1]?.total) {
    tieNote = winner === null || winner === undefined
      ? "Equal points and equal blue points: the victory is shared."
      : "Equal points: the tie goes to the more blue-card points.";
  }
  const seatClass = (s) => (s === ctx.bottom ? "bd-seat-bottom" : "bd-seat-top");
  return h("section", { id: "end-screen", class: "bd-outcome", "aria-labelledby": "bd-outcome-title" },
    h("h2", { id: "bd-outcome-title", class: "bd-outcome-title" }, title),
    h("p", { class: "bd-outcome-kind" }, winner === null || winner === undefined
      ? `Both players share a ${VICTORY_WORDS[outcome.victory] ?? outcome.victory}.`
      : `${who(ctx, winner)} ${winner === ctx.seat ? "win" : "wins"} by ${VICTORY_WORDS[outcome.victory] ?? outcome.victory}.`),
    tieNote ? h("p", { class: "bd-outcome-note" }, tieNote) : null,
    h("table", { class: "bd-score" },
      h("caption", {}, "Score by category"),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col" }, "Category"),
        order.map((seat) => h("th", { scope: "col", class: seatClass(seat) },
          ctx.name(seat), seat === ctx.seat ? " (you)" : "", seat === winner ? h("span", { class: "bd-crown" }, " ★ winner") : null)))),
      h("tbody", {}, SCORE_ROWS.map(([key, label]) => h("tr", { class: key === "total" ? "is-total" : null },
        h("th", { scope: "row" }, label),
        order.map((seat) => h("td", {}, String(scores[seat]?.[key] ?? 0))))))));
}

// ---------------------------------------------------------------------------------------
// Pending decisions: the draft and every choice other than taking a card
// ---------------------------------------------------------------------------------------

function actionButton(ctx, notation, fallbackAction, content, props = {}) {
  const entry = ctx.legal.get(notation);
  const allowed = ctx.myTurn && !!entry;
  const action = entry?.action ?? fallbackAction;
  return h("button", {
    type: "button",
    class: `bd-action ${props.class ?? ""}`.trim(),
    "data-action": notation,
    "data-focus-key": notation,
    disabled: !allowed,
    "aria-describedby": props.describedby ?? null,
    onclick: () => {
      if (!allowed) return;
      ctx.ui.openCard = null;
      const dialog = ctx.ui.root.querySelector("dialog.bd-dialog");
      if (dialog?.open) dialog.close();
      ctx.handlers?.act?.(action);
    },
  }, props.label ? spokenAs(props.label, content) : content);
}

function renderPrompt(ctx) {
  const { view, decision } = ctx;
  if (view.outcome || !decision) return null;
  const kind = decision.kind;
  const mine = ctx.myTurn;
  let title = mine ? DECISION_ASK[kind] : `Waiting: ${ctx.name(decision.seat)} is ${DECISION_DOING[kind] ?? "playing"}`;
  let body = null;
  let help = null;

  if (kind === "pick_wonder") {
    const offer = view.draft?.offer ?? decision.options ?? [];
    help = mine
      ? "Pick a wonder for your city. Each player ends the draft with four."
      : "The wonders on offer:";
    body = h("ul", { class: "bd-choices bd-choices--wonders" }, offer.map((id) => h("li", {},
      mine ? actionButton(ctx, `pick:${id}`, { type: "pick_wonder", wonder: id }, wonderTileParts(ctx, id),
        { class: "bd-wonder-choice", label: `Pick ${describeWonder(ctx, id)}` })
        : h("div", { class: "bd-wonder bd-wonder-choice", "aria-label": describeWonder(ctx, id), role: "group" }, wonderTileParts(ctx, id)))));
  } else if (kind === "play_card") {
    // The structure itself is the prompt: there, accessible cards are buttons.
    return null;
  } else if (kind === "choose_progress" || kind === "choose_library_token") {
    const library = kind === "choose_library_token";
    if (library && !mine) {
      help = `${ctx.name(decision.seat)} drew ${plural(decision.count ?? 3, "progress token")} out of the game with The Great Library and keeps one. Only they see them.`;
      title = `Waiting: ${ctx.name(decision.seat)} is choosing a token (The Great Library)`;
    } else {
      help = library
        ? "Three tokens drawn from the box: keep one, the others go back unseen."
        : mine ? "You gathered a pair of identical science symbols." : "A pair of identical science symbols was gathered.";
      body = h("ul", { class: "bd-choices bd-choices--tokens" }, (decision.options ?? []).map((id) => h("li", {},
        mine ? actionButton(ctx, `progress:${id}`, { type: "choose_progress", token: id }, tokenParts(ctx, id),
          { class: "bd-token-choice", label: `Take ${describeToken(ctx, id)}` })
          : h("div", { class: "bd-token-choice", role: "group", "aria-label": describeToken(ctx, id) }, tokenParts(ctx, id)))));
    }
  } else if (kind === "destroy_card") {
    const options = decision.options ?? [];
    const colors = [...new Set(options.map((id) => cardInfo(ctx, id).color))];
    const victim = 1 - decision.seat;
    title = mine ? `Choose one of ${ctx.name(victim)}'s ${listWords(colors)} cards to discard`
      : `Waiting: ${ctx.name(decision.seat)} chooses one of ${possessive(ctx, victim)} ${listWords(colors)} cards to discard`;
    help = "The card goes to the discard pile.";
    body = h("ul", { class: "bd-choices bd-choices--cards" }, options.map((id) => h("li", {},
      mine ? actionButton(ctx, `destroy:${id}`, { type: "destroy", card: id }, miniCardParts(ctx, id),
        { class: `bd-mini bd-card--${cardInfo(ctx, id).color}`, label: `Discard ${describeCard(ctx, id)}` })
        : miniCard(ctx, id))));
  } else if (kind === "build_from_discard") {
    help = mine ? "Any card of the discard pile, built without paying its cost." : "They build one card of the discard pile for free.";
    body = h("ul", { class: "bd-choices bd-choices--cards" }, (decision.options ?? []).map((id) => h("li", {},
      mine ? actionButton(ctx, `mausoleum:${id}`, { type: "build_from_discard", card: id }, miniCardParts(ctx, id),
        { class: `bd-mini bd-card--${cardInfo(ctx, id).color}`, label: `Build ${describeCard(ctx, id)}` })
        : miniCard(ctx, id))));
  } else if (kind === "choose_starter") {
    const age = ROMAN[view.age] ?? view.age;
    title = mine ? `Choose who starts Age ${age}` : `Waiting: ${ctx.name(decision.seat)} chooses who starts Age ${age}`;
    help = "The player with the weaker military (or, with the pawn in the centre, who took the last card) chooses.";
    const options = decision.options ?? [0, 1];
    if (mine) {
      body = h("ul", { class: "bd-choices bd-choices--starter" }, options.map((seat) => h("li", {},
        actionButton(ctx, `starter:${seat}`, { type: "choose_starter", seat },
          [h("span", { class: `bd-turn-dot bd-seat-${seat === ctx.bottom ? "bottom" : "top"}`, "aria-hidden": "true" }),
            seat === ctx.seat ? `I start (${ctx.name(seat)})` : `${ctx.name(seat)} starts`],
          { class: "bd-starter-choice" }))));
    }
  }

  return h("section", { class: `bd-prompt${mine ? " is-mine" : ""}`, "aria-labelledby": "bd-prompt-title" },
    h("h2", { id: "bd-prompt-title", class: "bd-prompt-title" }, title),
    help ? h("p", { class: "bd-prompt-help" }, help) : null,
    body);
}

// ---------------------------------------------------------------------------------------
// Wonders, tokens and small cards
// ---------------------------------------------------------------------------------------

// A wonder: name, points, cost and effects (in words, or as icons when compact).
function wonderTileParts(ctx, id, extra, compact = false) {
  const wonder = wonderInfo(ctx, id);
  const head = h("span", { class: "bd-wonder-head" },
    h("span", { class: "bd-wonder-mark", "aria-hidden": "true" }, "W"),
    h("span", { class: "bd-wonder-name" }, wonder.name),
    points(wonder.points));
  if (compact) {
    return [
      head,
      h("span", { class: "bd-wonder-line" },
        h("span", { class: "bd-wonder-cost" }, costChips(wonder.cost)),
        wonder.effects.length ? h("span", { class: "bd-wonder-arrow", "aria-hidden": "true" }, "→") : null,
        h("span", { class: "bd-wonder-chips" }, effectChips(wonder.effect_details))),
      extra ?? null,
    ];
  }
  return [
    head,
    h("span", { class: "bd-wonder-cost" }, h("span", { class: "bd-label" }, "Cost "), costChips(wonder.cost)),
    h("span", { class: "bd-wonder-fx" }, wonder.effects.map((text) => h("span", { class: "bd-wonder-effect" }, text))),
    extra ?? null,
  ];
}

function tokenDisc(ctx, id) {
  const token = tokenInfo(ctx, id);
  return h("span", { class: "bd-token-disc", "aria-hidden": "true" }, token.name.slice(0, 2));
}

function tokenParts(ctx, id) {
  const token = tokenInfo(ctx, id);
  return [
    tokenDisc(ctx, id),
    h("span", { class: "bd-token-text" },
      h("span", { class: "bd-token-name" }, token.name, " ", points(token.points)),
      h("span", { class: "bd-token-fx" }, token.effects.join(". "))),
  ];
}

function miniCardParts(ctx, id, badge) {
  const card = cardInfo(ctx, id);
  const color = COLOR_INFO[card.color] ?? { mark: "?" };
  return [
    h("span", { class: "bd-mini-mark", "aria-hidden": "true" }, color.mark),
    h("span", { class: "bd-mini-name" }, card.name),
    h("span", { class: "bd-mini-fx" }, effectChips(card.effect_details), points(card.points)),
    badge ?? null,
  ];
}

function miniCard(ctx, id, badge) {
  const card = cardInfo(ctx, id);
  return h("div", { class: `bd-mini bd-card--${card.color}${badge ? " is-last" : ""}`, title: describeCard(ctx, id), "aria-label": describeCard(ctx, id), role: "group" },
    miniCardParts(ctx, id, badge));
}

function badge(text, kind = "last") {
  return h("span", { class: `bd-badge bd-badge--${kind}` }, text);
}

// ---------------------------------------------------------------------------------------
// A city
// ---------------------------------------------------------------------------------------

// What the last move added to each city: cards, wonders, tokens.
function lastMoveMarks(ctx) {
  const marks = { cards: new Set(), wonders: new Set(), tokens: new Set() };
  for (const e of ctx.events) {
    if (e.type === "card_built" || e.type === "card_built_from_discard") marks.cards.add(`${e.seat}:${e.card}`);
    if (e.type === "wonder_built") marks.wonders.add(`${e.seat}:${e.wonder}`);
    if (e.type === "progress_taken") marks.tokens.add(`${e.seat}:${e.token}`);
  }
  return marks;
}

function renderCity(ctx, seat, position) {
  const player = ctx.view.players?.[seat];
  if (!player) return null;
  const marks = lastMoveMarks(ctx);
  const acting = ctx.decision && !ctx.view.outcome && ctx.decision.seat === seat;
  const mine = seat === ctx.seat;
  const titleId = `bd-city-${position}`;
  return h("section", {
    class: `bd-city bd-city--${position} bd-seat-${position}${acting ? " is-acting" : ""}`,
    "aria-labelledby": titleId,
  },
  h("header", { class: "bd-city-head" },
    h("h2", { id: titleId, class: "bd-city-title" },
      h("span", { class: `bd-turn-dot bd-seat-${position}`, "aria-hidden": "true" }),
      mine ? `Your city (${ctx.name(seat)})` : `${ctx.name(seat)}'s city`),
    acting ? badge(mine ? "your turn" : "to play", "turn") : null,
    ctx.view.first_player === seat ? h("span", { class: "bd-first" }, "started the game") : null,
    h("span", { class: "bd-city-coins" }, coin(player.coins), h("span", { "aria-hidden": "true", class: "bd-label" }, " coins")),
    h("span", { class: "bd-city-points" }, `${plural(player.score?.total ?? 0, "point")} so far`)),
  h("div", { class: "bd-city-body" },
    renderCityStats(ctx, player, marks),
    renderWonders(ctx, player, marks),
    renderCityCards(ctx, player, marks)));
}

function statRow(label, ...content) {
  return [h("dt", {}, label), h("dd", {}, ...content)];
}

function renderCityStats(ctx, player, marks) {
  const production = Object.entries(player.production ?? {}).filter(([, n]) => n > 0);
  const choices = player.production_choices ?? [];
  const science = Object.entries(player.science ?? {});
  const lead = player.shields_lead ?? 0;
  return h("dl", { class: "bd-stats" },
    statRow("Produces",
      production.length ? production.map(([r, n]) => h("span", { class: "bd-prod" }, resourceIcon(r, n), hidden(`${n} ${r}`))) : null,
      choices.map((options) => h("span", { class: "bd-prod bd-prod--choice", title: `one of ${options.join(" / ")}` },
        options.map((r, i) => [i ? h("span", { class: "bd-slash", "aria-hidden": "true" }, "/") : null, resourceIcon(r)]),
        hidden(`one of ${options.join(" or ")}`))),
      !production.length && !choices.length ? h("span", { class: "bd-none" }, "nothing") : null),
    statRow("Buys at",
      Object.entries(player.unit_prices ?? {}).map(([r, price]) => h("span", { class: "bd-price", title: `${r}: ${plural(price, "coin")} a unit` },
        resourceIcon(r), h("span", { "aria-hidden": "true" }, String(price)), hidden(`${r} ${plural(price, "coin")}`)))),
    statRow("Military",
      h("span", { class: `bd-lead${lead > 0 ? " is-ahead" : lead < 0 ? " is-behind" : ""}` },
        shieldSvg(), lead > 0 ? `leads by ${lead}` : lead < 0 ? `behind by ${-lead}` : "even")),
    statRow("Science",
      science.length ? science.map(([sym, n]) => h("span", { class: "bd-sci-count" }, scienceIcon(sym), n > 1 ? `×${n}` : null))
        : h("span", { class: "bd-none" }, "none"),
      science.length ? h("span", { class: "bd-muted" }, ` ${science.length} of 6 different`) : null),
    statRow("Chains",
      (player.chains ?? []).length ? player.chains.map((c) => chainChip(c)) : h("span", { class: "bd-none" }, "none")),
    statRow("Progress",
      (player.progress_tokens ?? []).length
        ? player.progress_tokens.map((id) => h("span", {
          class: `bd-token-chip${marks.tokens.has(`${player.seat}:${id}`) ? " is-last" : ""}`,
          title: describeToken(ctx, id),
        }, tokenDisc(ctx, id), tokenName(ctx, id), marks.tokens.has(`${player.seat}:${id}`) ? badge("new") : null))
        : h("span", { class: "bd-none" }, "none")),
    statRow("Discard gives", coin(player.sale_value ?? 2)));
}

function renderWonders(ctx, player, marks) {
  const wonders = player.wonders ?? [];
  const retired = player.retired_wonders ?? [];
  if (!wonders.length && !retired.length) {
    return h("div", { class: "bd-wonders" }, h("h3", { class: "bd-sub" }, "Wonders"), h("p", { class: "bd-none" }, "none yet"));
  }
  return h("div", { class: "bd-wonders" },
    h("h3", { class: "bd-sub" }, `Wonders (${wonders.filter((w) => w.built).length} built)`),
    h("ul", { class: "bd-wonder-list" },
      wonders.map((w) => {
        const isLast = marks.wonders.has(`${player.seat}:${w.wonder}`);
        const tucked = w.built && w.card ? tuckedCard(ctx, w.card) : null;
        // Only the viewer's own unbuilt wonders have a price (view.prices).
        const price = !w.built && player.seat === ctx.seat ? ctx.prices.wonders?.[w.wonder] : null;
        const label = `${describeWonder(ctx, w.wonder)}. ${w.built ? `Built, with ${cardName(ctx, w.card)} tucked under it` : "Not built yet"}${price ? `. ${priceNowWords(price)}` : ""}`;
        return h("li", {
          class: `bd-wonder bd-wonder--compact ${w.built ? "is-built" : "is-unbuilt"}${isLast ? " is-last" : ""}${price && !price.affordable ? " is-unaffordable" : ""}`,
          "aria-label": label, title: label,
        },
        wonderTileParts(ctx, w.wonder,
          h("span", { class: "bd-wonder-state" },
            w.built ? badge("built", "built") : h("span", { class: "bd-muted" }, "not built"),
            price ? h("span", { class: "bd-wonder-price" }, h("span", { class: "bd-label" }, "costs you "), priceTag(ctx, price, true)) : null,
            isLast ? badge("new") : null), true),
        tucked);
      }),
      retired.map((id) => h("li", { class: "bd-wonder bd-wonder--compact is-retired", "aria-label": `${describeWonder(ctx, id)}. Out of the game` },
        wonderTileParts(ctx, id, h("span", { class: "bd-wonder-state" }, badge("out of the game", "retired")), true)))));
}

function tuckedCard(ctx, id) {
  const card = cardInfo(ctx, id);
  const back = card.guild ? "guild" : `age${card.age}`;
  return h("span", { class: `bd-tucked bd-back--${back}` },
    h("span", { class: "bd-tucked-age", "aria-hidden": "true" }, backLabel(back)),
    ` tucked: ${card.name}`);
}

function renderCityCards(ctx, player, marks) {
  const byColor = player.cards_by_color ?? {};
  const groups = COLORS.filter((c) => (byColor[c] ?? []).length);
  const count = groups.reduce((n, c) => n + byColor[c].length, 0);
  return h("div", { class: "bd-cards" },
    h("h3", { class: "bd-sub" }, `Buildings (${count})`),
    groups.length
      ? h("div", { class: "bd-color-groups" }, groups.map((color) => h("div", {
        class: `bd-color-group bd-card--${color}`, role: "group",
        "aria-label": `${color} cards: ${byColor[color].length}`,
      },
      h("h4", { class: "bd-color-head" },
        h("span", { class: "bd-card-mark", "aria-hidden": "true" }, COLOR_INFO[color].mark),
        ` ${color} `, h("span", { class: "bd-count" }, `(${byColor[color].length})`)),
      h("ul", { class: "bd-stack" }, byColor[color].map((id) => {
        const isLast = marks.cards.has(`${player.seat}:${id}`);
        return h("li", {}, miniCard(ctx, id, isLast ? badge("new") : null));
      })))))
      : h("p", { class: "bd-none" }, "No buildings yet."));
}

// ---------------------------------------------------------------------------------------
// The table: military track, progress tokens, structure, discard pile
// ---------------------------------------------------------------------------------------

function renderTable(ctx) {
  const { view } = ctx;
  return h("section", { class: "bd-table", "aria-label": "The table" },
    renderMilitary(ctx),
    view.phase === "draft" ? renderDraftNote(ctx) : renderStructure(ctx),
    h("div", { class: "bd-side" },
      renderProgressBoard(ctx),
      renderDiscard(ctx)));
}

function renderDraftNote(ctx) {
  return h("section", { class: "bd-structure-wrap bd-structure-wrap--draft", "aria-label": "Age structure" },
    h("p", { class: "bd-muted" }, "The cards of Age I are laid out once both players have four wonders."));
}

function zoneOf(d) {
  const a = Math.abs(d);
  if (a === 0) return { vp: 0, name: "centre" };
  if (a <= 2) return { vp: 2 };
  if (a <= 5) return { vp: 5 };
  if (a <= 8) return { vp: 10 };
  return { vp: null, name: "capital" };
}

function renderMilitary(ctx) {
  const { view } = ctx;
  const pawn = view.military?.pawn ?? 0;
  // Displayed left to right: the bottom player's capital (-9) to the top player's (+9).
  const flip = ctx.bottom === 1 ? -1 : 1;
  const shown = pawn * flip;
  const bottomName = ctx.name(ctx.bottom);
  const topName = ctx.name(ctx.top);

  let summary;
  if (pawn === 0) summary = "The conflict pawn is on the centre: nobody leads.";
  else {
    const leader = pawn > 0 ? 0 : 1;
    const d = Math.abs(pawn);
    const zone = zoneOf(pawn);
    summary = d >= 9
      ? `The conflict pawn is in ${possessive(ctx, 1 - leader)} capital: military supremacy.`
      : view.outcome
        ? `${who(ctx, leader)} ${leader === ctx.seat ? "lead" : "leads"} by ${plural(d, "shield")}: ${zone.vp} points.`
        : `${who(ctx, leader)} ${leader === ctx.seat ? "lead" : "leads"} by ${plural(d, "shield")}: ${zone.vp} points for now, ${9 - d} more to ${possessive(ctx, 1 - leader)} capital.`;
  }

  const zones = [
    { span: 1, label: "capital", cls: "capital", side: "bottom" },
    { span: 3, label: "10", cls: "z10", side: "bottom" },
    { span: 3, label: "5", cls: "z5", side: "bottom" },
    { span: 2, label: "2", cls: "z2", side: "bottom" },
    { span: 1, label: "0", cls: "z0", side: null },
    { span: 2, label: "2", cls: "z2", side: "top" },
    { span: 3, label: "5", cls: "z5", side: "top" },
    { span: 3, label: "10", cls: "z10", side: "top" },
    { span: 1, label: "capital", cls: "capital", side: "top" },
  ];
  const loot = view.military?.loot_tokens ?? [];
  const lootFor = (seat, coins) => loot.find((t) => t.seat === seat && t.coins === coins);
  // Loot tokens lie on the side of the seat that loses coins.
  const lootCells = [
    { start: 2, span: 3, token: lootFor(ctx.bottom, 5) },
    { start: 5, span: 3, token: lootFor(ctx.bottom, 2) },
    { start: 13, span: 3, token: lootFor(ctx.top, 2) },
    { start: 16, span: 3, token: lootFor(ctx.top, 5) },
  ];

  const spaces = [];
  for (let i = 0; i < 19; i += 1) {
    const d = i - 9;
    const here = d === shown;
    const zone = zoneOf(d);
    const side = d < 0 ? " bd-space--bottom" : d > 0 ? " bd-space--top" : "";
    spaces.push(h("span", {
      class: `bd-space bd-space--${zone.vp === null ? "capital" : `z${zone.vp}`}${side}${here ? " has-pawn" : ""}`,
      style: { "grid-column": String(i + 1) },
      "aria-hidden": "true",
    }, here ? pawnSvg() : null));
  }

  let col = 1;
  const zoneCells = zones.map((zone) => {
    const cell = h("span", {
      class: `bd-zone bd-zone--${zone.cls}${zone.side ? ` bd-zone--${zone.side}` : ""}`,
      style: { "grid-column": `${col} / span ${zone.span}` },
      "aria-hidden": "true",
    }, zone.cls === "capital" ? "⌂" : zone.cls === "z0" ? "·" : [zone.label, h("span", { class: "bd-vp-unit" }, "VP")]);
    col += zone.span;
    return cell;
  });

  const lootTokens = lootCells.map((cell) => {
    const token = cell.token;
    const available = token ? token.available : false;
    return h("span", {
      class: `bd-loot${available ? "" : " is-gone"}`,
      style: { "grid-column": `${cell.start} / span ${cell.span}` },
      "aria-hidden": "true",
    }, available ? `−${token?.coins}` : "");
  });

  const lootWords = loot.filter((t) => t.available)
    .map((t) => `${t.coins}-coin token on ${possessive(ctx, t.seat)} side`);

  return h("section", { class: "bd-military", "aria-labelledby": "bd-military-title" },
    h("div", { class: "bd-military-head" },
      h("h2", { id: "bd-military-title", class: "bd-sub" }, "Military"),
      h("p", { class: "bd-track-summary" }, summary)),
    h("div", { class: "bd-track-scroll", "data-scroll-key": "track" },
      h("div", { class: "bd-track-ends" },
        h("span", { class: "bd-end bd-seat-bottom" }, ctx.bottom === ctx.seat ? `Your capital (${bottomName})` : `${bottomName}'s capital`),
        h("span", { class: "bd-end bd-seat-top" }, `${topName}'s capital`)),
      h("div", {
        class: "bd-track",
        role: "img",
        "aria-label": `Military track. ${summary} Loot tokens left: ${lootWords.length ? listWords(lootWords) : "none"}.`,
      }, zoneCells, spaces, lootTokens)),
    h("p", { class: "bd-track-help bd-muted" },
      "Zones give 2, 5 or 10 points to the leader; a ", h("span", { class: "bd-loot bd-loot--inline", "aria-hidden": "true" }, "−2"),
      " or ", h("span", { class: "bd-loot bd-loot--inline", "aria-hidden": "true" }, "−5"),
      " token costs that side's player coins when the pawn first enters its zone."));
}

function renderProgressBoard(ctx) {
  const tokens = ctx.view.progress_board ?? [];
  const choosing = ctx.decision?.kind === "choose_progress" && !ctx.view.outcome;
  return h("section", { class: `bd-progress${choosing ? " is-choosing" : ""}`, "aria-labelledby": "bd-progress-title" },
    h("h2", { id: "bd-progress-title", class: "bd-sub" }, `Progress tokens on the board (${tokens.length})`),
    tokens.length
      ? h("ul", { class: "bd-token-list" }, tokens.map((id) => h("li", {
        class: "bd-token", title: describeToken(ctx, id),
      }, tokenParts(ctx, id))))
      : h("p", { class: "bd-none" }, "None left."));
}

function renderDiscard(ctx) {
  const pile = ctx.view.discard ?? [];
  const open = ctx.ui.discardOpen;
  const listId = "bd-discard-list";
  return h("section", { class: "bd-discard", "aria-labelledby": "bd-discard-title" },
    h("h2", { id: "bd-discard-title", class: "bd-sub" },
      h("button", {
        type: "button", class: "bd-toggle", "aria-expanded": open ? "true" : "false", "aria-controls": listId,
        "data-focus-key": "discard-toggle",
        onclick: (event) => {
          ctx.ui.discardOpen = !ctx.ui.discardOpen;
          const button = event.currentTarget;
          button.setAttribute("aria-expanded", ctx.ui.discardOpen ? "true" : "false");
          const list = ctx.ui.root.querySelector(`#${listId}`);
          if (list) list.hidden = !ctx.ui.discardOpen;
          button.querySelector(".bd-toggle-verb").textContent = ctx.ui.discardOpen ? "Hide" : "Show";
        },
      }, h("span", { class: "bd-toggle-verb" }, open ? "Hide" : "Show"), ` discard pile (${pile.length})`)),
    h("div", { id: listId, class: "bd-discard-list", hidden: !open },
      pile.length ? h("ul", { class: "bd-stack bd-stack--discard" }, pile.map((id) => h("li", {}, miniCard(ctx, id))))
        : h("p", { class: "bd-none" }, "Empty.")));
}

// The age structure, laid out like the table: cards overlap the row above.
function renderStructure(ctx) {
  const { view } = ctx;
  const slots = view.structure ?? [];  // every slot of the age, taken ones included
  const maxX = Math.max(0, ...slots.map((slot) => slot.x));
  const maxRow = Math.max(0, ...slots.map((slot) => slot.row));

  // The slot the last move emptied (when still in the same age).
  const taken = new Map();
  if (!ctx.newAge) {
    for (const e of ctx.events) {
      if ((e.type === "card_built" || e.type === "card_discarded" || e.type === "wonder_built") && Number.isInteger(e.slot)) {
        taken.set(e.slot, e);
      }
    }
  }

  const items = [];
  slots.forEach((slot, i) => {
    const style = { "--x": String(slot.x), "--row": String(slot.row), "z-index": String(slot.row + 1) };
    if (slot.taken) {
      const e = taken.get(i);
      if (e) items.push(h("li", { class: "bd-slot bd-slot--ghost", style }, ghostCard(ctx, e)));
      return;
    }
    items.push(h("li", { class: "bd-slot", style }, structureCard(ctx, slot)));
  });

  const myPick = ctx.myTurn && ctx.decision?.kind === "play_card";
  if (slots.every((slot) => slot.taken)) {
    const last = [...taken.values()].pop();
    return h("section", { class: "bd-structure-wrap", "aria-labelledby": "bd-structure-title" },
      h("h2", { id: "bd-structure-title", class: "bd-sub" }, `Age ${ROMAN[view.age] ?? view.age} structure`),
      h("p", { class: "bd-muted" }, "Every card of this age has been taken",
        last ? `; the last one, ${cardName(ctx, last.card)}, by ${who(ctx, last.seat) === "You" ? "you" : ctx.name(last.seat)}.` : "."));
  }
  return h("section", { class: "bd-structure-wrap", "aria-labelledby": "bd-structure-title" },
    h("div", { class: "bd-structure-head" },
      h("h2", { id: "bd-structure-title", class: "bd-sub" },
        `Age ${ROMAN[view.age] ?? view.age} structure`,
        h("span", { class: "bd-muted" }, ` · ${plural(view.cards_left ?? 0, "card")} left`)),
      myPick ? h("p", { class: "bd-structure-help" }, "Your turn: pick a highlighted card to build, discard or use it for a wonder.") : null),
    h("div", { class: "bd-structure-scroll", "data-scroll-key": "structure" },
      h("ul", {
        class: `bd-structure bd-structure--age${view.age}`,
        style: { "--max-x": String(maxX), "--max-row": String(maxRow) },
        "aria-label": `Age ${ROMAN[view.age] ?? view.age} cards, top row first`,
      }, items)));
}

function ghostCard(ctx, e) {
  const verb = e.type === "card_built" ? "built" : e.type === "card_discarded" ? "discarded"
    : `for ${wonderName(ctx, e.wonder)}`;
  const text = `${who(ctx, e.seat)} took ${cardName(ctx, e.card)} (${verb})`;
  return h("div", { class: "bd-ghost", "aria-label": `Last move: ${text}`, role: "note" },
    h("span", { class: "bd-ghost-who" }, who(ctx, e.seat)),
    h("span", { class: "bd-ghost-card" }, cardName(ctx, e.card)),
    h("span", { class: "bd-ghost-verb" }, verb));
}

function structureCard(ctx, slot) {
  const isNew = ctx.revealed.has(slot.slot);
  const classes = ["bd-card"];
  if (!slot.face_up && slot.revealed && slot.card) {
    // Only an admin's view names a face-down card: drawn face up, marked as face down.
    const card = cardInfo(ctx, slot.card);
    const label = `${backWords(slot.back)}, hidden from the players: ${describeCard(ctx, slot.card)}`;
    classes.push(`bd-card--${card.color}`, "is-revealed");
    return h("div", { class: classes.join(" "), role: "img", "aria-label": label, title: label, "data-revealed-card": slot.card },
      cardFaceParts(ctx, slot.card), badge("face down", "facedown"));
  }
  if (!slot.face_up || !slot.card) {
    classes.push("bd-card--back", `bd-back--${slot.back}`);
    if (slot.accessible) classes.push("is-accessible");
    return h("div", { class: classes.join(" "), role: "img", "aria-label": backWords(slot.back) },
      h("span", { class: "bd-back-label", "aria-hidden": "true" }, backLabel(slot.back)));
  }
  const card = cardInfo(ctx, slot.card);
  const price = slot.accessible ? ctx.prices.cards?.[slot.card] : null;
  classes.push(`bd-card--${card.color}`);
  if (slot.accessible) classes.push("is-accessible");
  if (isNew) classes.push("is-new");
  if (price) classes.push("has-price");
  if (price && !price.affordable) classes.push("is-unaffordable");
  const newBadge = isNew ? badge("new", "new") : null;
  let label = describeCard(ctx, slot.card);
  if (slot.accessible) label += ". Can be taken";
  if (price) label += `. ${priceNowWords(price)}`;
  if (isNew) label += ". New: just turned face up";

  const interactive = ctx.myTurn && ctx.decision?.kind === "play_card" && slot.accessible && ctx.cardOptions.has(slot.card);
  if (interactive) {
    classes.push("is-playable");
    return h("button", {
      type: "button",
      class: classes.join(" "),
      "data-card": slot.card,
      "data-focus-key": `card:${slot.card}`,
      "aria-haspopup": "dialog",
      onclick: () => openCardOptions(ctx, slot.card),
    }, spokenAs(`${label}. Open its options`, [cardFaceParts(ctx, slot.card), newBadge, priceTag(ctx, price)]));
  }
  return h("div", { class: classes.join(" "), role: "img", "aria-label": label, title: label },
    cardFaceParts(ctx, slot.card), newBadge, priceTag(ctx, price));
}

// ---------------------------------------------------------------------------------------
// The card options panel (a modal dialog; Escape closes it)
// ---------------------------------------------------------------------------------------

function openCardOptions(ctx, cardId) {
  ctx.ui.openCard = cardId;
  const old = ctx.ui.root.querySelector("dialog.bd-dialog");
  const fresh = renderCardDialog(ctx);
  if (old) old.replaceWith(fresh);
  else ctx.ui.root.querySelector(".bd")?.append(fresh);
  openDialog(fresh);
  focusFirst(fresh);
}

function openDialog(dialog) {
  if (dialog.open) return;
  if (typeof dialog.showModal === "function") {
    try {
      dialog.showModal();
      return;
    } catch {
      // not connected or already open elsewhere: fall back to a plain open panel
    }
  }
  dialog.setAttribute("open", "");
}

function focusFirst(dialog) {
  const first = dialog.querySelector("button.bd-action:not([disabled])") ?? dialog.querySelector("button");
  first?.focus();
}

function closeCardOptions(ctx, dialog) {
  const card = ctx.ui.openCard;
  ctx.ui.openCard = null;
  if (dialog.open) dialog.close();
  // Give focus back to the card the panel was opened from.
  if (card) {
    const button = ctx.ui.root.querySelector(`[data-card="${CSS.escape(card)}"]`);
    button?.focus();
  }
}

function renderCardDialog(ctx) {
  const cardId = ctx.ui.openCard;
  const option = cardId ? ctx.cardOptions.get(cardId) : null;
  const dialog = h("dialog", { class: "bd-dialog", "aria-labelledby": "bd-dialog-title" });
  dialog.addEventListener("cancel", (event) => {
    event.preventDefault();
    closeCardOptions(ctx, dialog);
  });
  dialog.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      closeCardOptions(ctx, dialog);
    }
  });
  dialog.addEventListener("click", (event) => {
    // A click on the backdrop (outside the panel) closes it.
    if (event.target === dialog) closeCardOptions(ctx, dialog);
  });
  if (!option) return dialog;

  const card = cardInfo(ctx, cardId);
  const me = ctx.view.players[ctx.seat];
  const buildNotation = `build:${cardId}`;
  const discardNotation = `discard:${cardId}`;
  const buildAllowed = option.build?.allowed && ctx.legal.has(buildNotation);
  const buildReasonId = "bd-reason-build";

  const wonderOptions = (option.wonders ?? []).map((w) => {
    const notation = `wonder:${w.wonder}:${cardId}`;
    const reasonId = `bd-reason-${w.wonder}`;
    return h("li", { class: "bd-option bd-option--wonder" },
      actionButton(ctx, notation, { type: "build_wonder", wonder: w.wonder, card: cardId },
        [h("span", { class: "bd-option-verb" }, `Build ${wonderName(ctx, w.wonder)}`),
          h("span", { class: "bd-option-price" }, priceWords(w.payment))],
        { class: "bd-option-button", describedby: w.allowed ? `bd-pay-${w.wonder}` : `${reasonId} bd-pay-${w.wonder}` }),
      !w.allowed && w.reason ? h("p", { class: "bd-reason", id: reasonId }, `Not possible: ${w.reason}`) : null,
      h("div", { class: "bd-wonder bd-wonder--inline" }, wonderTileParts(ctx, w.wonder)),
      paymentDetails(ctx, wonderInfo(ctx, w.wonder).cost, w.payment, `bd-pay-${w.wonder}`));
  });

  append(dialog, [
    h("div", { class: "bd-dialog-panel" },
      h("header", { class: "bd-dialog-head" },
        h("h2", { id: "bd-dialog-title", class: "bd-dialog-title" },
          h("span", { class: `bd-card-mark bd-card--${card.color}`, "aria-hidden": "true" }, COLOR_INFO[card.color]?.mark),
          ` ${card.name}`),
        h("button", {
          type: "button", class: "bd-close", "aria-label": "Close (Escape)", "data-focus-key": "dialog-close",
          onclick: () => closeCardOptions(ctx, dialog),
        }, "×")),
      h("div", { class: "bd-dialog-card" },
        h("div", { class: `bd-card bd-card--${card.color} bd-card--large`, "aria-hidden": "true" }, cardFaceParts(ctx, cardId)),
        h("div", { class: "bd-dialog-facts" },
          h("p", {}, h("strong", {}, `${card.color[0].toUpperCase()}${card.color.slice(1)} card`), ` (${COLOR_INFO[card.color]?.kind ?? ""}), Age ${ROMAN[card.age] ?? card.age}`),
          h("p", {}, h("span", { class: "bd-label" }, "Cost: "), costWords(card.cost),
            card.chain_from ? `; free if your city holds the ${words(card.chain_from)} chain symbol` : ""),
          card.effects.length ? h("ul", { class: "bd-effects" }, card.effects.map((t) => h("li", {}, t))) : null,
          card.points ? h("p", {}, plural(card.points, "victory point")) : null,
          card.chain_to ? h("p", {}, `Gives the ${words(card.chain_to)} chain symbol (later cards with it are free).`) : null,
          h("p", { class: "bd-muted" }, `You have ${plural(me?.coins ?? 0, "coin")}.`))),
      h("ul", { class: "bd-options" },
        h("li", { class: "bd-option bd-option--build" },
          actionButton(ctx, buildNotation, { type: "build", card: cardId },
            [h("span", { class: "bd-option-verb" }, `Build ${card.name}`),
              h("span", { class: "bd-option-price" }, priceWords(option.build?.payment))],
            { class: "bd-option-button", describedby: buildAllowed ? "bd-pay-build" : `${buildReasonId} bd-pay-build` }),
          !buildAllowed && option.build?.reason ? h("p", { class: "bd-reason", id: buildReasonId }, `Not possible: ${option.build.reason}`) : null,
          paymentDetails(ctx, card.cost, option.build?.payment, "bd-pay-build")),
        h("li", { class: "bd-option bd-option--discard" },
          actionButton(ctx, discardNotation, { type: "discard", card: cardId },
            [h("span", { class: "bd-option-verb" }, `Discard ${card.name}`),
              h("span", { class: "bd-option-price" }, `+${plural(option.discard?.coins ?? 0, "coin")}`)],
            { class: "bd-option-button" }),
          option.discard && !option.discard.allowed && option.discard.reason
            ? h("p", { class: "bd-reason" }, `Not possible: ${option.discard.reason}`) : null,
          h("p", { class: "bd-muted" }, "Take 2 coins plus 1 per yellow card in your city; the card goes to the discard pile.")),
        wonderOptions.length
          ? h("li", { class: "bd-option-group" },
            h("h3", { class: "bd-sub" }, "Or build one of your wonders with it (the card is tucked under)"),
            h("ul", { class: "bd-options bd-options--wonders" }, wonderOptions))
          : h("li", { class: "bd-option bd-muted" }, "All your wonders are built."))),
  ]);
  return dialog;
}

function priceWords(payment) {
  if (!payment) return "";
  if (payment.chain) return "free (chain)";
  if (!payment.total) return "free";
  return `pay ${plural(payment.total, "coin")}`;
}

// How a build is paid: what the city produces, what is bought at which unit price.
function paymentDetails(ctx, cost, payment, id) {
  if (!payment) return null;
  if (payment.chain) {
    return h("p", { class: "bd-pay", id }, linkSvg(), " Free through a chain symbol: no resources, no coins.");
  }
  const need = { ...(cost?.resources ?? {}) };
  const take = (list) => {
    const out = {};
    for (const r of list ?? []) out[r] = (out[r] ?? 0) + 1;
    return out;
  };
  const bought = {};
  for (const b of payment.bought ?? []) bought[b.resource] = b.units;
  const choice = take(payment.from_choice);
  const waived = take(payment.waived);
  const own = {};
  for (const [r, n] of Object.entries(need)) {
    const rest = n - (bought[r] ?? 0) - (waived[r] ?? 0);
    if (rest > 0) own[r] = rest;
  }
  const rows = [];
  if (Object.keys(own).length) {
    rows.push(h("li", {}, h("span", { class: "bd-label" }, "Your city produces: "), resources(own),
      Object.keys(choice).length ? h("span", { class: "bd-muted" }, ` (of which from "one of" producers: ${Object.entries(choice).map(([r, n]) => `${n} ${r}`).join(", ")})`) : null));
  }
  if (Object.keys(waived).length) {
    rows.push(h("li", {}, h("span", { class: "bd-label" }, "Waived by your progress token: "), resources(waived)));
  }
  for (const b of payment.bought ?? []) {
    rows.push(h("li", { class: "bd-pay-buy" }, h("span", { class: "bd-label" }, "Buy: "), resourceIcon(b.resource, b.units),
      ` ${b.units} ${b.resource} × ${plural(b.unit_price, "coin")} = ${plural(b.units * b.unit_price, "coin")}`));
  }
  if (payment.coins) rows.push(h("li", {}, h("span", { class: "bd-label" }, "Coin cost: "), plural(payment.coins, "coin")));
  if (!Object.keys(need).length && !payment.coins) rows.push(h("li", {}, "No cost."));
  rows.push(h("li", { class: "bd-pay-total" }, h("span", { class: "bd-label" }, "Total: "),
    payment.total ? plural(payment.total, "coin") : "nothing to pay",
    payment.to_opponent ? ` (${plural(payment.to_opponent, "coin")} of it to your opponent, Economy)` : ""));
  return h("ul", { class: "bd-pay", id }, rows);
}
