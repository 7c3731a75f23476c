// The game log: each event of an update in words.

const cardName = (catalog, id) => catalog.cards[id]?.name ?? id;
const wonderName = (catalog, id) => catalog.wonders[id]?.name ?? id;
const tokenName = (catalog, id) => catalog.tokens[id]?.name ?? id;

function paid(payment) {
  if (!payment) return "";
  if (payment.chain) return " for free (chain)";
  if (payment.total === 0) return " for free";
  const bought = payment.bought.map((b) => `${b.units} ${b.resource} at ${b.unit_price}`);
  return ` for ${payment.total} coin${payment.total === 1 ? "" : "s"}` +
    (bought.length ? ` (bought ${bought.join(", ")})` : "");
}

export function describe(event, catalog, names) {
  const who = (seat) => names[seat];
  switch (event.type) {
    case "wonder_picked": return `${who(event.seat)} took ${wonderName(catalog, event.wonder)}.`;
    case "draft_round": return "The second round of the wonder draft begins.";
    case "age_started": return `Age ${event.age} begins.`;
    case "card_built": return `${who(event.seat)} built ${cardName(catalog, event.card)}${paid(event.payment)}.`;
    case "card_discarded": return `${who(event.seat)} discarded ${cardName(catalog, event.card)} for ${event.coins} coins.`;
    case "wonder_built": return `${who(event.seat)} built ${wonderName(catalog, event.wonder)}${paid(event.payment)}.`;
    case "card_revealed": return `${cardName(catalog, event.card)} is revealed.`;
    case "coins_gained": return `${who(event.seat)} takes ${event.coins} coins.`;
    case "coins_lost": return `${who(event.seat)} loses ${event.coins} coins.`;
    case "pawn_moved": return `${who(event.seat)} moves the conflict pawn ${event.shields} space${event.shields === 1 ? "" : "s"}.`;
    case "looted": return `${who(event.seat)} loses ${event.coins_lost} coins to a military token.`;
    case "science_pair": return `${who(event.seat)} has a pair of ${event.symbol.replace("_", " ")} symbols.`;
    case "progress_taken": return `${who(event.seat)} takes the progress token ${tokenName(catalog, event.token)}.`;
    case "library_drawn": return event.tokens
      ? `You draw ${event.tokens.map((t) => tokenName(catalog, t)).join(", ")} from the Great Library.`
      : `${who(event.seat)} draws ${event.count} progress tokens from the Great Library.`;
    case "card_destroyed": return `${who(event.seat)} loses ${cardName(catalog, event.card)}.`;
    case "card_built_from_discard": return `${who(event.seat)} builds ${cardName(catalog, event.card)} from the discard pile.`;
    case "wonder_retired": return `${wonderName(catalog, event.wonder)} leaves the game: seven wonders are built.`;
    case "play_again": return `${who(event.seat)} plays again.`;
    case "play_again_lost": return `${who(event.seat)} loses the extra turn: the age is over.`;
    case "starter_chosen": return `${who(event.seat)} chooses ${who(event.starter)} to start the age.`;
    case "game_over": return event.winner === null
      ? `The game ends in a shared victory (${event.victory}).`
      : `${who(event.winner)} wins: ${event.victory} victory.`;
    default: return event.type.replace(/_/g, " ");
  }
}
