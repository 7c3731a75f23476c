// Hungarian for the player pages around the game: the lobby (static/js/lobby.js), the invite
// link's page (join.js), "My games", the replay, the leaderboard, a player's profile and the
// site's statistics; each adds it to the shared catalog (addMessages). The forms an
// entry may take are those of static/js/words.js. Refusals from the server are worded by
// the "error.<code>" entries of hu-server.js, which come with these (the pages' own calls
// to the server are what they do); the entries below word only what a page says itself.
import server from "./hu-server.js";
import { signedChange } from "./signed.js";

const numbers = new Intl.NumberFormat("hu");

export default {
  // A name as player.js checks it before asking the server
  "common.name.blank": "Előbb írj be egy nevet.",
  "common.name.too_long": { one: "A név legfeljebb {n} karakterből állhat.", other: "A név legfeljebb {n} karakterből állhat." },
  "common.name.control": "A név nem tartalmazhat vezérlőkaraktert.",
  ...server,

  // ------------------------------------------------------------ the lobby: the name
  "lobby.ask_name.play": "Válassz nevet, és keresünk neked ellenfelet.",
  "lobby.ask_name.play_again": "Válassz nevet, majd nyomd meg újra a Játék gombot.",
  "lobby.ask_name.create": "Válassz nevet, és létrehozzuk a játszmádat.",
  "lobby.ask_name.join": "Válassz nevet, és csatlakozol {name} játszmájához.",

  // ------------------------------------------------------------ the lobby socket
  "lobby.connection.connecting": "Kapcsolódás…",
  "lobby.connection.online": "Élő",
  "lobby.connection.offline": "Nincs kapcsolat: újrakapcsolódás…",

  // ------------------------------------------------------------ quick match
  "lobby.queue.elapsed": "{minutes}:{seconds}",
  "lobby.queue.replaced": "Egy másik lapon megnyomtad a Játék gombot: most az a lap vár.",
  "lobby.queue.left": "Kiléptél a sorból.",
  "lobby.queue.matched": "Megvan az ellenfél: a játszma megnyílik…",

  // ------------------------------------------------------------ playing the computer
  "lobby.ask_name.computer": "Válassz nevet, és indul a játszmád a gép ellen.",
  "lobby.computer.title": "Játék a gép ellen",
  "lobby.computer.hint": "Azonnal indul, amikor csak akarod; sosem értékelt.",
  "lobby.computer.level": "Szint",
  "lobby.computer.about.random": "bármilyen szabályos lépést megtesz",
  "lobby.computer.about.greedy": "azt választja, ami most a legjobbnak tűnik",
  "lobby.computer.about.easy": "kicsit előre gondolkodik",
  "lobby.computer.about.medium": "jobban előre gondolkodik",
  "lobby.computer.about.hard": "a legjobban előre gondolkodik",
  "lobby.computer.starts": "Ki kezd",
  "lobby.computer.starts.random": "Sorsolás",
  "lobby.computer.starts.me": "Én",
  "lobby.computer.starts.computer": "A gép",
  "lobby.computer.wonders": "Csodák",
  "lobby.computer.wonders.draft": "Választás (4 + 4)",
  "lobby.computer.wonders.first_game": "A szabálykönyv szerint",
  "lobby.computer.play": "Játék",
  "lobby.computer.starting": "A játszmád indul…",

  // ------------------------------------------------------------ joining an open game
  "lobby.join_refused.game_full": "Valaki más előbb csatlakozott ahhoz a játszmához.",
  "lobby.join_refused.own_game": "Ez a saját játszmád: ott várd az ellenfeledet.",
  "lobby.join_refused.not_joinable": "Ahhoz a játszmához már nem lehet csatlakozni.",
  "lobby.join_refused.not_found": "Az a játszma már nem létezik.",

  // ------------------------------------------------------------ the lists
  "lobby.count": "({n})",
  "lobby.versus": "{a} – {b}",
  "lobby.options": "{wonders} · {starter} · {control}",
  "lobby.options.first_game": "a szabálykönyv csodái",
  "lobby.options.draft": "csodaválasztás",
  "lobby.options.starts": "{name} kezd",
  "lobby.options.random_start": "sorsolt kezdő",
  "lobby.ago.now": "épp most",
  "lobby.ago.minutes": { one: "{n} perce", other: "{n} perce" },
  "lobby.ago.hours": { one: "{n} órája", other: "{n} órája" },
  "lobby.ago.days": { one: "{n} napja", other: "{n} napja" },
  "lobby.progress.not_begun": "még nem kezdődött el · létrehozva {ago}",
  "lobby.progress.moves": { one: "{n} lépés · utolsó lépés: {ago}", other: "{n} lépés · utolsó lépés: {ago}" },
  "lobby.link.open": "Megnyitás",
  "lobby.link.resume": "Folytatás",
  "lobby.link.watch": "Nézőként",
  "lobby.link.view": "Megtekintés",
  "lobby.link.replay": "Visszajátszás",

  // Open games
  "lobby.open.meta": "{options} · meghirdetve {ago}",
  "lobby.open.yours": "A tiéd – várakozik",
  "lobby.open.open_label": "A játszmád megnyitása",
  "lobby.open.join": "Csatlakozás",
  "lobby.open.join_label": "Csatlakozás {name} játszmájához",

  // Games in progress
  "lobby.live.meta": "{progress} · {options}",
  "lobby.live.resume_label": "A játszmád folytatása: {names}",
  "lobby.live.watch_label": "Követés nézőként: {names}",

  // The player's games
  "lobby.mine.versus": "ellenfél: {name}",
  "lobby.mine.no_opponent": "Még nincs ellenfél",
  "lobby.mine.no_player": "Válassz nevet a játékhoz: itt jelennek majd meg a játszmáid.",
  "lobby.mine.waiting_invite": "csak meghívólinkkel · létrehozva {ago}",
  "lobby.mine.waiting_listed": "a lobbiban meghirdetve · létrehozva {ago}",
  "lobby.mine.open_label": "A várakozó játszmád megnyitása",
  "lobby.mine.your_turn": "Te jössz",
  "lobby.mine.their_turn": "{name} következik",
  "lobby.mine.resume_label": "A játszmád folytatása ({opponent})",
  "lobby.mine.finished": { one: "befejeződött {ago} · {n} lépés", other: "befejeződött {ago} · {n} lépés" },
  "lobby.mine.finished_label": "A befejezett játszmád megtekintése ({opponent})",
  "lobby.mine.aborted": "Érvénytelen: nincs eredmény",
  "lobby.mine.expired": "Lejárt",
  "lobby.mine.replay_label": "A játszma visszajátszása lépésről lépésre ({opponent})",
  "replay.setup": { one: "Kezdőállás, az első lépés előtt (összesen {n} lépés)", other: "Kezdőállás, az első lépés előtt (összesen {n} lépés)" },
  "replay.after": "{n}. lépés után (összesen {last})",
  "replay.revealed": "Az utolsó lépés után: minden felfedve",
  "lobby.mine.expired_meta": "senki sem csatlakozott · lejárt {ago}",
  "lobby.mine.stopped": { one: "megszakítva {ago} · {n} lépés", other: "megszakítva {ago} · {n} lépés" },
  "lobby.mine.aborted_label": "A megszakított játszmád megtekintése ({opponent})",
  "lobby.mine.view_label": "A játszma megtekintése ({opponent})",
  "lobby.result.shared": "Közös győzelem · {victory}",
  "lobby.result.won": "Győzelem · {victory}",
  "lobby.result.lost": "Vereség · {victory}",
  "lobby.victory.civilian": "polgári győzelem",
  "lobby.victory.military": "katonai erőfölény",
  "lobby.victory.science": "tudományos fölény",
  "lobby.victory.resigned": "feladással",
  "lobby.victory.time": "időtúllépéssel",
  "lobby.victory.abandoned": "távozással",

  // ------------------------------------------------------------ ratings, in the lists too
  // A rating as the server rounds it, "?" after one still provisional (few rated games).
  "rating.value": ({ rating, provisional }) => {
    const figure = typeof rating === "number" ? numbers.format(rating) : String(rating);
    return provisional ? `${figure}?` : figure;
  },
  "rating.in_list": "({rating})",
  "rating.provisional": "Ideiglenes értékszám: még túl kevés az értékelt játszma ahhoz, hogy biztos legyen",
  "lobby.rated": "Értékelt",
  "lobby.rated_title": "Értékelt játszma: az eredménye mindkét játékos értékszámát módosítja",

  // ------------------------------------------------------------ the leaderboard
  "leaderboard.note": {
    one: "Legalább {n} értékelt játszmát játszott fiókok, a legmagasabb értékszámtól kezdve. A „?” ideiglenes értékszámot jelöl: még túl kevés a játszma ahhoz, hogy biztos legyen.",
    other: "Legalább {n} értékelt játszmát játszott fiókok, a legmagasabb értékszámtól kezdve. A „?” ideiglenes értékszámot jelöl: még túl kevés a játszma ahhoz, hogy biztos legyen.",
  },
  "leaderboard.empty": "Még senki sincs a ranglistán: a fiókok akkor kerülnek fel, ha már játszottak értékelt játszmát.",
  "leaderboard.empty_page": "A ranglista ezen oldala üres.",
  "leaderboard.page": { one: "Oldal: {page}/{pages} · {n} játékos", other: "Oldal: {page}/{pages} · {n} játékos" },

  // ------------------------------------------------------------ a player's profile
  "profile.not_found": "Nincs játékos ezzel a felhasználónévvel: {username}.",
  "profile.plays_as": "{username}, játékosnév: {name}",
  "profile.deviation": "±{n} eltéréssel",
  "profile.provisional": "ideiglenes: még túl kevés az értékelt játszma",
  "profile.games": { one: "{n} játszma", other: "{n} játszma" },
  "profile.rated_games": { one: "{n} értékelt", other: "{n} értékelt" },
  "profile.wins": { one: "{n} győzelem", other: "{n} győzelem" },
  "profile.losses": { one: "{n} vereség", other: "{n} vereség" },
  "profile.shared": { one: "{n} közös győzelem", other: "{n} közös győzelem" },
  "profile.since": "Regisztrált: {day}",
  "profile.chart.title": "{name} értékszáma az egyes értékelt játszmák után",
  "profile.chart.desc": {
    one: "Eddig egy értékelt játszma: utána {last} lett az értékszám.",
    other: "{n} értékelt játszma: az első után {first}, a legutóbbi után {last}; a legalacsonyabb {low}, a legmagasabb {high}.",
  },
  "profile.chart.point": "{n}. értékelt játszma, {day}: {rating}",
  "profile.chart.none": "Még nincs értékelt játszma.",
  "profile.wonder.picked": { one: "egyszer választották", other: "{n} alkalommal választották" },
  "profile.wonder.win_rate": { one: "{n} játszmából {rate}% győzelem", other: "{n} játszmából {rate}% győzelem" },
  "profile.wonders.none": "Még nincs választott csoda.",
  "profile.wonders.best_hint": { one: "(a legalább egyszer választottak közül)", other: "(a legalább {n} játszmában választottak közül)" },
  "profile.wonders.no_best": { one: "Még nincs.", other: "Még nincs: egy csoda akkor kerül ide, ha már {n} játszmában választották." },
  "profile.recent.none": "Még nincs befejezett játszma.",
  "profile.recent.unrated": "nem értékelt",
  "profile.recent.change_title": "Értékszám-változás",
  // A rating's change, rounded: +12, −8 (a minus sign, not a hyphen).
  "profile.recent.change": ({ change }) => signedChange(change),

  // ------------------------------------------------------------ ends, by kind (tables)
  "standings.kind.civilian": "Polgári győzelem",
  "standings.kind.military": "Katonai erőfölény",
  "standings.kind.science": "Tudományos fölény",
  "standings.kind.resigned": "Feladás",
  "standings.kind.time": "Időtúllépés",
  "standings.kind.abandoned": "Távozás",
  "standings.kind.shared": "Közös győzelem",
  "standings.percent": "{n}%",
  "standings.figure": "{n}",
  "standings.none": "—",

  // ------------------------------------------------------------ the site's statistics
  "stats.games": {
    one: "{n} befejezett játszma ezen a webhelyen (a számok percenként frissülnek).",
    other: "{n} befejezett játszma ezen a webhelyen (a számok percenként frissülnek).",
  },
  "stats.empty": "Még egy játszma sem fejeződött be: a számok az elsővel jelennek meg.",
  "stats.first_player": {
    one: "A kezdő játékos nyerte a győztessel végződött {n} játszma {rate}%-át.",
    other: "A kezdő játékos nyerte a győztessel végződött {n} játszma {rate}%-át.",
  },
  "stats.first_player.none": "Még egyik játszmának sem volt győztese.",
  "stats.length": "Egy játszma átlagosan {moves} áll, és {minutes} tart.",
  "stats.moves": { one: "{n} lépésből", other: "{n} lépésből" },
  "stats.minutes": { one: "{n} percig", other: "{n} percig" },

  // ------------------------------------------------------------ the invite link's page
  "join.invited_by": "{name} meghívott egy játszmára.",
  "join.invited": "Meghívtak egy játszmára.",
  "join.aborted": "Ezt a játszmát megszakították.",
  "join.cancelled": "A létrehozója visszavonta ezt a játszmát: senki sem csatlakozhat hozzá.",
  "join.full": "Ennek a játszmának mindkét helye foglalt.",
  "join.watch_instead": "Inkább nézőként követem",
  "join.no_game": "Ez a meghívólink nem mutat játszmára: ellenőrizd, hogy a teljes linket másoltad-e ki.",
  "join.own_game": "Ez a saját játszmád: küldd el a linket az ellenfelednek.",
  "join.go_to_game": "Tovább a játszmádhoz",
  "join.seat_taken": "Valaki más előbb elfoglalta a helyet.",
  "join.no_code": "Ebből a linkből elveszett a meghívókód, a teljes link végén álló „#code=” kezdetű rész. Kérd el ellenfeledtől a teljes linket (a játszmája oldalán látható, a „Link másolása” gombbal), és azt nyisd meg.",
  "join.bad_invite": "Ez a meghívólink nem érvényes ehhez a játszmához: kérj újat.",
  "join.rated": "Értékelt játszma: az eredménye mindkét játékos értékszámát módosítja, és csak fiókkal lehet csatlakozni hozzá.",
  "join.clock": "Időkorlát: {control}.",
};
