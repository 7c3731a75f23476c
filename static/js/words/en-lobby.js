// English for the player pages around the game: the lobby (static/js/lobby.js), the invite
// link's page (join.js); both add it to the shared catalog (addMessages). The forms an
// entry may take are those of static/js/words.js. Refusals from the server are worded by
// the "error.<code>" entries of en-server.js, which come with these (the pages' own calls
// to the server are what they do); the entries below word only what a page says itself.
import server from "./en-server.js";

export default {
  // A name as player.js checks it before asking the server
  "common.name.blank": "Type a name first.",
  "common.name.too_long": { one: "A name has at most {n} character.", other: "A name has at most {n} characters." },
  "common.name.control": "A name cannot hold control characters.",
  ...server,

  // ------------------------------------------------------------ the lobby: the name
  "lobby.ask_name.play": "Pick a name, then we find you an opponent.",
  "lobby.ask_name.play_again": "Pick a name, then press Play again.",
  "lobby.ask_name.create": "Pick a name, then your game is created.",
  "lobby.ask_name.join": "Pick a name, then you join {name}'s game.",

  // ------------------------------------------------------------ the lobby socket
  "lobby.connection.connecting": "Connecting…",
  "lobby.connection.online": "Live",
  "lobby.connection.offline": "Offline: reconnecting…",

  // ------------------------------------------------------------ quick match
  "lobby.queue.elapsed": "{minutes}:{seconds}",
  "lobby.queue.replaced": "You pressed Play in another tab: that one is waiting now.",
  "lobby.queue.left": "You left the queue.",
  "lobby.queue.matched": "Opponent found: opening the game…",

  // ------------------------------------------------------------ joining an open game
  "lobby.join_refused.game_full": "Someone else joined that game first.",
  "lobby.join_refused.own_game": "That is your own game: wait there for an opponent.",
  "lobby.join_refused.not_joinable": "That game can no longer be joined.",
  "lobby.join_refused.not_found": "That game no longer exists.",

  // ------------------------------------------------------------ the lists
  "lobby.count": "({n})",
  "lobby.versus": "{a} vs {b}",
  "lobby.options": "{wonders} · {starter} · {control}",
  "lobby.options.first_game": "the rulebook's wonders",
  "lobby.options.draft": "wonder draft",
  "lobby.options.starts": "{name} starts",
  "lobby.options.random_start": "first player at random",
  "lobby.ago.now": "just now",
  "lobby.ago.minutes": { one: "{n} min ago", other: "{n} min ago" },
  "lobby.ago.hours": { one: "{n} h ago", other: "{n} h ago" },
  "lobby.ago.days": { one: "{n} day ago", other: "{n} days ago" },
  "lobby.progress.not_begun": "not begun · started {ago}",
  "lobby.progress.moves": { one: "{n} move · last move {ago}", other: "{n} moves · last move {ago}" },
  "lobby.link.open": "Open",
  "lobby.link.resume": "Resume",
  "lobby.link.watch": "Watch",
  "lobby.link.view": "View",
  "lobby.link.replay": "Replay",

  // Open games
  "lobby.open.meta": "{options} · offered {ago}",
  "lobby.open.yours": "Yours — waiting",
  "lobby.open.open_label": "Open your game",
  "lobby.open.join": "Join",
  "lobby.open.join_label": "Join {name}'s game",

  // Games in progress
  "lobby.live.meta": "{progress} · {options}",
  "lobby.live.resume_label": "Resume your game {names}",
  "lobby.live.watch_label": "Watch {names}",

  // The player's games
  "lobby.mine.versus": "vs {name}",
  "lobby.mine.no_opponent": "No opponent yet",
  "lobby.mine.no_player": "Pick a name to play: your games will be listed here.",
  "lobby.mine.waiting_invite": "invite link only · created {ago}",
  "lobby.mine.waiting_listed": "listed in the lobby · created {ago}",
  "lobby.mine.open_label": "Open your waiting game",
  "lobby.mine.your_turn": "Your turn",
  "lobby.mine.their_turn": "{name}'s turn",
  "lobby.mine.resume_label": "Resume your game {opponent}",
  "lobby.mine.finished": { one: "finished {ago} · {n} move", other: "finished {ago} · {n} moves" },
  "lobby.mine.finished_label": "View your finished game {opponent}",
  "lobby.mine.aborted": "Aborted by an admin",
  "lobby.mine.expired": "Expired",
  "lobby.mine.replay_label": "Replay the game {opponent}, move by move",
  "replay.setup": { one: "The setup, before the first of {n} move", other: "The setup, before the first of {n} moves" },
  "replay.after": "After move {n} of {last}",
  "replay.revealed": "After the last move: everything revealed",
  "lobby.mine.expired_meta": "nobody joined · expired {ago}",
  "lobby.mine.stopped": { one: "stopped {ago} · {n} move", other: "stopped {ago} · {n} moves" },
  "lobby.mine.aborted_label": "View your aborted game {opponent}",
  "lobby.mine.view_label": "View the game {opponent}",
  "lobby.result.shared": "Shared victory · {victory}",
  "lobby.result.won": "Won · {victory}",
  "lobby.result.lost": "Lost · {victory}",
  "lobby.victory.civilian": "civilian victory",
  "lobby.victory.military": "military supremacy",
  "lobby.victory.science": "scientific supremacy",
  "lobby.victory.resigned": "by resignation",
  "lobby.victory.time": "on time",
  "lobby.victory.abandoned": "by abandonment",

  // ------------------------------------------------------------ the invite link's page
  "join.invited_by": "{name} invites you to play.",
  "join.invited": "You are invited to play.",
  "join.aborted": "This game was aborted.",
  "join.full": "Both seats of this game are taken.",
  "join.watch_instead": "Watch the game instead",
  "join.no_game": "This invite link names no game: check that it was copied whole.",
  "join.own_game": "This is your own game: send the link to your opponent.",
  "join.go_to_game": "Go to your game",
  "join.seat_taken": "Someone else took the seat first.",
  "join.bad_invite": "This invite link is not valid for the game: ask for a new one.",
};
