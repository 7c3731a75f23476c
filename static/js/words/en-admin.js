// English for the admin pages' scripts (static/js/admin.js, admin-game.js, admin-import.js).
// admin.js adds it to the shared catalog (addMessages); the forms an entry may take are those of
// static/js/words.js. Refusals are worded by the "error.<code>" entries of en-server.js,
// which come with these.
import server from "./en-server.js";

export default {
  ...server,

  // ------------------------------------------------------------ seats and actions
  "admin.seat": "Seat {seat}",
  "admin.seat.lower": "seat {seat}",
  "admin.action.pick_wonder": "{who} picked {wonder}",
  "admin.action.build": "{who} built {card}",
  "admin.action.discard": "{who} discarded {card} for coins",
  "admin.action.build_wonder": "{who} built {wonder} with {card}",
  "admin.action.choose_progress": "{who} took the {token} progress token",
  "admin.action.destroy": "{who} made the opponent discard {card}",
  "admin.action.build_from_discard": "{who} built {card} from the discard pile",
  "admin.action.choose_starter": "{who} chose {whom} to start the age",
  "admin.action.other": "{who}: {action}",

  // ------------------------------------------------------------ what the players cannot see
  "admin.age.age1": "Age I",
  "admin.age.age2": "Age II",
  "admin.age.age3": "Age III",
  "admin.hidden.none": "none",
  "admin.hidden.nothing": "Nothing to show.",
  "admin.hidden.library_draw": "The Great Library: {name} chooses among",
  "admin.hidden.draft_round_2": "Second draft round (not offered yet)",
  "admin.hidden.removed": "Removed at setup, {age}",
  "admin.hidden.removed_guilds": "Guilds not in play",
  "admin.hidden.box_tokens": "Progress tokens in the box",
  "admin.hidden.unused_wonders": "Wonders out of the game",
  "admin.hidden.deck": {
    one: "{age}, still to be laid out ({n} card, slot by slot)",
    other: "{age}, still to be laid out ({n} cards, slot by slot)",
  },

  // ------------------------------------------------------------ a game, action by action
  "admin.step.after": "After action {n} of {last}: {action}",
  "admin.step.setup": "Setup, before the first action ({last} in all)",
  "admin.abort.no_reason": "Give a reason: both players will read it.",
  "admin.abort.confirm": "Abort game {game} for good? Both players are told: “{reason}”.",

  // ------------------------------------------------------------ importing a record
  "admin.import.empty": "Choose a record file or paste a record.",
  "admin.import.not_json": "This is not JSON: a record is the JSON file a game page exports.",
  "admin.import.done": "Imported as game {game}.",
};
