// English for every refusal code the server sends instead of a sentence. app/codes.py lists
// the codes and their params; tests/api/test_wire_codes.py checks that each has its entry
// here. en-lobby.js and en-admin.js spread this file into their pages' catalogs; the game
// page loads it with its first refusal or card dialog (loadWords("server") in words.js).
//   - "error.<code>": a refusal, HTTP {"error": {"code", "params"}} or socket
//     {"type": "error", "code", "params"}; show t(`error.${code}`, params). The engine's
//     codes of an illegal move come as params.detail of "illegal", and have entries too.
//   - "reason.<code>": why a card option is not allowed (view.card_options[].build and
//     .wonders[]: {allowed: false, reason, ...figures}); show t(`reason.${reason}`, option).
// An error's English `message` is for logs and API users: pages show these entries. The
// effects of /api/catalog (effect_details: a kind and its figures) are worded in en.js.
// Entries take the forms of words.js: a string with {placeholders}, or a function (params, t).

const numbers = new Intl.NumberFormat("en");

// "1 coin", "3 coins", "16,384 bytes".
function count(n, one, other = `${one}s`) {
  return `${numbers.format(n)} ${n === 1 ? one : other}`;
}

// What a pending decision waits for (the view's decision.kind).
const AWAITED = {
  pick_wonder: "a wonder to be picked",
  play_card: "a card to be played",
  choose_progress: "a progress token to be chosen",
  choose_library_token: "a progress token to be chosen from the Great Library's draw",
  destroy_card: "a card of the opponent to be discarded",
  build_from_discard: "a card to be built from the discard pile",
  choose_starter: "the player who starts the next age to be chosen",
};

export default {
  // ------------------------------------------------------------ reading a message
  "error.malformed": "The server could not read a message from this page. Reload the page and try again.",
  "error.unknown_type": "The server did not understand a message from this page. Reload the page to get its latest version.",
  "error.too_large": ({ limit }) => `That is too large for the server: it takes at most ${count(limit, "byte")} at once.`,

  // ------------------------------------------------------------ the connection
  "error.not_joined": "This page is not connected to the game yet. Wait a moment and try again.",
  "error.already_joined": "This page is already connected to the game.",
  "error.spectator": "You are watching this game: only its two players can make moves.",
  "error.timeout": ({ cause }) => (cause === "join"
    ? "The connection did not join the game in time and was closed. The page reconnects by itself."
    : "The connection stayed silent too long and was closed. The page reconnects by itself."),
  "error.too_slow": "This page fell too far behind the game and was disconnected. It reconnects and catches up by itself.",
  "error.busy": "The server is busy. Nothing was changed: it is sent again in a moment.",
  "error.unavailable": "The server cannot reach its records just now. Nothing was changed: try again in a moment.",

  // ------------------------------------------------------------ games and seats
  "error.not_found": "There is no such game. Check that the link was copied whole.",
  "error.bad_invite": ({ cause }) => (cause === "missing"
    ? "This game is joined with its invite link only: ask the player who created it for the link."
    : "This invite link is not valid for this game: ask for a new one."),
  "error.not_joinable": ({ status }) => ({
    imported: "This game is a record kept for study: nobody can join it.",
    expired: "Nobody joined this game in time: it has expired. Ask for a new invite.",
    cancelled: "Its creator cancelled this game: nobody can join it.",
  }[status] ?? "This game was aborted: nobody can join it any more."),
  "error.game_full": "Both seats of this game are already taken.",
  "error.bad_username": "A username has 3 to 24 letters, digits, - or _.",
  "error.username_taken": "This username is taken: pick another.",
  "error.weak_password": ({ cause, min, max }) => (cause === "short"
    ? `A password has at least ${count(min, "character")}.`
    : cause === "common"
    ? "This password is too easy to guess (a common one, a repeat or a simple pattern): pick a longer, less common one."
    : `A password has at most ${count(max, "character")}.`),
  "error.already_registered": "This browser is already logged in to an account.",
  "error.bad_login": "Wrong username or password.",
  "error.not_registered": "Log in to your account first.",
  "error.too_many_accounts": ({ retry_after: wait }) =>
    `Too many accounts registered from your network: try again in ${count(Math.ceil(wait / 60), "minute")}.`,
  "error.session_ended": "This account was logged out everywhere: log in again.",
  "error.rated_needs_account": "Rated games are between accounts: log in or register first.",
  "error.key_reused": "This request was already made by someone else: try again.",
  "error.too_many_games": ({ limit, retry_after: wait }) =>
    `You have created ${count(limit, "game")} within the hour: try again in ${count(Math.ceil(wait / 60), "minute")}.`,
  "error.too_many_joins": ({ limit, retry_after: wait }) =>
    `You have joined ${count(limit, "game")} within the hour: try again in ${count(Math.ceil(wait / 60), "minute")}.`,
  "error.too_many_sockets": "Too many connections from your network: close some tabs and try again.",
  "error.too_many_spectators": ({ limit }) => `This game already has ${count(limit, "spectator")}: try again later.`,
  "error.too_fast": ({ retry_after: wait }) => `Too many messages at once: wait ${count(wait, "second")}.`,
  "error.own_game": "You already hold the other seat of this game.",
  "error.bad_credentials": "This page does not hold a seat in this game. Open the game from your own link or from the lobby.",

  // ------------------------------------------------------------ players
  "error.no_player": "Pick a name first.",
  "error.bad_name": ({ cause, max }) => {
    if (cause === "too_long") return `A name has at most ${count(max, "character")}.`;
    if (cause === "control") return "A name cannot contain control characters.";
    return "A name needs at least one visible character.";
  },

  // ------------------------------------------------------------ moves
  "error.client_id_reused": "This move was mixed up with an earlier one and was not played. Try it again.",
  "error.not_started": "The game has not started yet: it is waiting for a second player.",
  "error.expired": "Nobody joined this game in time: it has expired.",
  "error.aborted": "This game was aborted: no more moves can be played.",
  "error.abort_too_late": "Both players have made a move: the game can no longer be aborted. You may resign instead.",
  "error.abort_instead": "Nothing is at stake before both players have made a move: abort the game instead.",
  "error.imported": "This game is a record kept for study: it cannot be played.",
  "error.game_over": "The game is over.",
  "error.stale_version": "The game moved on before your move arrived, so it was not played. Look at the board again and choose your move.",
  "error.not_your_turn": "It is not your turn.",
  "error.illegal": ({ detail, ...figures }, t) => (detail
    ? t(`error.${detail}`, figures)
    : "The rules do not allow that move now."),

  // The engine's reasons for an illegal move (params.detail of "illegal").
  "error.wrong_decision": ({ decision }) => (AWAITED[decision]
    ? `That is not possible now: the game is waiting for ${AWAITED[decision]}.`
    : "That is not possible now: the game is waiting for something else."),
  "error.not_offered": ({ wonder, token }) => {
    if (wonder) return "That wonder cannot be chosen now.";
    if (token) return "That progress token cannot be chosen now.";
    return "That card cannot be chosen now.";
  },
  "error.not_accessible": "That card cannot be taken: it is covered by other cards, face down, or already gone.",
  "error.cannot_afford": ({ price, coins }) => `You cannot afford it: it costs ${count(price, "coin")} and you have ${count(coins, "coin")}.`,
  "error.not_your_wonder": "That wonder is not one of yours.",
  "error.already_built": "That wonder is already built.",
  "error.wonder_cap": "Seven wonders are already built: no more wonders can be built in this game.",
  "error.not_your_seat": "You can only act for your own seat.",
  "error.cannot_take_back": "That action cannot be taken back: it was not your last action, or it revealed something.",

  "error.no_take_back": "There is no take-back on offer (the game may have moved on).",
  "error.time_out": "Too late: the time ran out, and the game is over.",
  "error.not_abandoned": ({ cause, wait }) => {
    if (cause === "present") return "Your opponent is back: the game goes on.";
    if (cause === "correspondence") return "A correspondence game ends by its clock.";
    if (cause === "computer") return "The computer never leaves a game.";
    return `Your opponent left only a moment ago: you can claim the win in ${count(wait, "second")}.`;
  },
  "error.unknown_level": "There is no such computer level.",
  "error.computer_declines": "The computer does not take moves back.",
  "error.chat_empty": "The message is empty.",
  "error.chat_too_long": ({ max }) => `A message has at most ${count(max, "character")}.`,
  "error.chat_too_fast": ({ retry_after: wait }) => `Too many messages: wait ${count(wait, "second")}.`,
  "error.chat_not_yours": ({ channel }) => (channel === "players"
    ? "Only the players write in the players' chat." : "Players do not write in the spectators' chat."),

  // ------------------------------------------------------------ rematches
  "error.not_over": "A rematch can be offered once the game is over.",
  "error.no_offer": "There is no rematch offer to decline.",
  "error.rematch_started": "The rematch has already started.",

  // ------------------------------------------------------------ requests in general
  "error.invalid_request": "The server could not accept that request. Check what you entered and try again.",
  "error.method_not_allowed": "The server does not take that request here.",
  "error.bad_address": "The server cannot read that address: check that the link was copied right.",
  "error.http_error": ({ http_status }) => `The server refused the request (HTTP ${http_status}). Try again.`,

  // ------------------------------------------------------------ the admin pages
  "error.admin_disabled": "The admin pages are closed on this server.",
  "error.admin_required": "Log in as an administrator first.",
  "error.too_many_attempts": ({ wait }) => `Too many failed logins: try again in ${count(wait, "second")}.`,
  "error.bad_password": "Wrong password.",
  "error.json_required": "The server takes this request as JSON only.",
  "error.bad_json": "That is not valid JSON.",
  "error.bad_request": "The server could not accept that request: it is not what this page sends.",
  "error.bad_filter": ({ field }) => (field
    ? `The filter “${field}” is not valid.`
    : "One of the filters is not valid."),
  "error.bad_seq": ({ max }) => `There is no such position: pick one from 0 to ${numbers.format(max)}.`,
  "error.bad_reason": ({ cause, max }) => {
    if (cause === "length") return `A reason has 1 to ${count(max, "character")}.`;
    if (cause === "control") return "A reason cannot contain control characters.";
    return "Give the reason as text.";
  },
  "error.not_running": ({ status }) => {
    if (status === "finished") return "This game is already over: only a waiting or running game can be aborted.";
    if (status === "aborted") return "This game was already aborted.";
    return "An imported record cannot be aborted: it is never played.";
  },
  "error.bad_record": ({ field, seq }) => {
    if (seq) return `This game record is not valid: its action ${numbers.format(seq)} is not right.`;
    if (field) return `This game record is not valid: its “${field}” is missing or wrong.`;
    return "This is not a game record: a record is the JSON file a game page exports.";
  },
  "error.wrong_engine_version": ({ version, expected }) => (version
    ? `This record was played under engine version ${version}; this server replays version ${expected} only.`
    : `This record was played under another engine version; this server replays version ${expected} only.`),
  "error.illegal_action": ({ seq }) => `The record's action ${numbers.format(seq)} is not allowed by the rules at that point of the game.`,
  "error.hash_mismatch": "The record's actions do not lead to the final state it states: it was changed or is incomplete.",
  "error.replay_failed": ({ seq }) => `This game no longer replays on this server: its action ${numbers.format(seq)} fails.`,

  // ------------------------------------------------------------ card options
  "reason.cannot_afford": ({ price, coins }) => `It costs ${count(price, "coin")}; you have ${count(coins, "coin")}.`,
  "reason.wonder_cap": "Seven wonders are already built: no more can be built.",
  "reason.not_allowed": "The rules do not allow it now.",
};

