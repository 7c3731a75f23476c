// English for the player pages around the game: the lobby (static/js/lobby.js), the invite
// link's page (join.js), "My games", the replay, the leaderboard, a player's profile and the
// site's statistics; each adds it to the shared catalog (addMessages). The forms an
// entry may take are those of static/js/words.js. Refusals from the server are worded by
// the "error.<code>" entries of en-server.js, which come with these (the pages' own calls
// to the server are what they do); the entries below word only what a page says itself.
import server from "./en-server.js";
import { signedChange } from "./signed.js";

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

  // ------------------------------------------------------------ playing the computer
  "lobby.ask_name.computer": "Pick a name, then your game against the computer starts.",
  "lobby.computer.title": "Play the computer",
  "lobby.computer.hint": "A game at once, whenever you like; never rated.",
  "lobby.computer.level": "Level",
  "lobby.computer.about.random": "plays any legal move",
  "lobby.computer.about.greedy": "takes what looks best right now",
  "lobby.computer.about.easy": "thinks ahead a little",
  "lobby.computer.about.medium": "thinks ahead more",
  "lobby.computer.about.hard": "thinks ahead the most",
  "lobby.computer.starts": "Who starts",
  "lobby.computer.starts.random": "Drawn at random",
  "lobby.computer.starts.me": "Me",
  "lobby.computer.starts.computer": "The computer",
  "lobby.computer.wonders": "Wonders",
  "lobby.computer.wonders.draft": "Draft (4 + 4)",
  "lobby.computer.wonders.first_game": "The rulebook's",
  "lobby.computer.play": "Play",
  "lobby.computer.starting": "Starting your game…",

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
  "lobby.mine.aborted": "Aborted: no result",
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

  // ------------------------------------------------------------ ratings, in the lists too
  // A rating as the server rounds it, "?" after one still provisional (few rated games).
  "rating.value": ({ rating, provisional }) => (provisional ? `${rating}?` : String(rating)),
  "rating.in_list": "({rating})",
  "rating.provisional": "A provisional rating: too few rated games yet to be sure of it",
  "lobby.rated": "Rated",
  "lobby.rated_title": "A rated game: its result moves both players' ratings",

  // ------------------------------------------------------------ the leaderboard
  "leaderboard.note": {
    one: "Accounts with at least {n} rated game, the highest rating first. A “?” marks a provisional rating: too few games yet to be sure of it.",
    other: "Accounts with at least {n} rated games, the highest rating first. A “?” marks a provisional rating: too few games yet to be sure of it.",
  },
  "leaderboard.empty": "No one is on the leaderboard yet: it lists accounts once they have played rated games.",
  "leaderboard.empty_page": "This page of the leaderboard is empty.",
  "leaderboard.page": { one: "Page {page} of {pages} · {n} player", other: "Page {page} of {pages} · {n} players" },

  // ------------------------------------------------------------ a player's profile
  "profile.not_found": "No player has the username {username}.",
  "profile.plays_as": "{username}, playing as {name}",
  "profile.deviation": "give or take {n}",
  "profile.provisional": "provisional: too few rated games yet",
  "profile.games": { one: "{n} game", other: "{n} games" },
  "profile.rated_games": { one: "{n} rated", other: "{n} rated" },
  "profile.wins": { one: "{n} won", other: "{n} won" },
  "profile.losses": { one: "{n} lost", other: "{n} lost" },
  "profile.shared": { one: "{n} shared", other: "{n} shared" },
  "profile.since": "Registered {day}",
  "profile.chart.title": "{name}'s rating after each rated game",
  "profile.chart.desc": {
    one: "One rated game so far: a rating of {last} after it.",
    other: "{n} rated games: from {first} after the first to {last} after the latest; lowest {low}, highest {high}.",
  },
  "profile.chart.point": "Rated game {n}, {day}: {rating}",
  "profile.chart.none": "No rated game yet.",
  "profile.wonder.picked": { one: "drafted once", other: "drafted {n} times" },
  "profile.wonder.win_rate": { one: "won {rate}% of {n} game", other: "won {rate}% of {n} games" },
  "profile.wonders.none": "No wonder drafted yet.",
  "profile.wonders.best_hint": { one: "(of those drafted at least once)", other: "(of those drafted in {n} games or more)" },
  "profile.wonders.no_best": { one: "None yet.", other: "None yet: a wonder counts here once it was drafted in {n} games." },
  "profile.recent.none": "No finished game yet.",
  "profile.recent.unrated": "unrated",
  "profile.recent.change_title": "Rating change",
  // A rating's change, rounded: +12, −8 (a minus sign, not a hyphen).
  "profile.recent.change": ({ change }) => signedChange(change),

  // ------------------------------------------------------------ ends, by kind (tables)
  "standings.kind.civilian": "Civilian victory",
  "standings.kind.military": "Military supremacy",
  "standings.kind.science": "Scientific supremacy",
  "standings.kind.resigned": "Resignation",
  "standings.kind.time": "Out of time",
  "standings.kind.abandoned": "Abandonment",
  "standings.kind.shared": "Shared victory",
  "standings.percent": "{n}%",
  "standings.figure": "{n}",
  "standings.none": "—",

  // ------------------------------------------------------------ the site's statistics
  "stats.games": {
    one: "{n} finished game on this site (the figures are updated every minute).",
    other: "{n} finished games on this site (the figures are updated every minute).",
  },
  "stats.empty": "No game has finished yet: the figures appear with the first.",
  "stats.first_player": {
    one: "The starting player won {rate}% of the {n} game with a winner.",
    other: "The starting player won {rate}% of the {n} games with a winner.",
  },
  "stats.first_player.none": "No game has had a winner yet.",
  "stats.length": "On average a game lasts {moves} and {minutes}.",
  "stats.moves": { one: "{n} move", other: "{n} moves" },
  "stats.minutes": { one: "{n} minute", other: "{n} minutes" },

  // ------------------------------------------------------------ the invite link's page
  "join.invited_by": "{name} invites you to play.",
  "join.invited": "You are invited to play.",
  "join.aborted": "This game was aborted.",
  "join.cancelled": "Its creator cancelled this game: nobody can join it.",
  "join.full": "Both seats of this game are taken.",
  "join.watch_instead": "Watch the game instead",
  "join.no_game": "This invite link names no game: check that it was copied whole.",
  "join.own_game": "This is your own game: send the link to your opponent.",
  "join.go_to_game": "Go to your game",
  "join.seat_taken": "Someone else took the seat first.",
  "join.no_code": "This link has lost its invite code, the part from “#code=” on that ends the whole link. Ask your opponent for the whole link (their game page shows it, with a “Copy link” button) and open that.",
  "join.bad_invite": "This invite link is not valid for the game: ask for a new one.",
  "join.rated": "A rated game: its result moves both players' ratings, and only an account may join it.",
  "join.clock": "Clock: {control}.",
};
