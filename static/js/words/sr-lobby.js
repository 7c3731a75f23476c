// Serbian (Latin script) for the player pages around the game: the lobby (static/js/lobby.js),
// the invite link's page (join.js), "My games", the replay, the leaderboard, a player's
// profile and the site's statistics; each adds it to the shared catalog (addMessages). The
// forms an entry may take are those of static/js/words.js. Refusals from the server are worded
// by the "error.<code>" entries of sr-server.js, which come with these (the pages' own calls
// to the server are what they do); the entries below word only what a page says itself.
// Serbian's "one" plural form also serves 21, 31, …, so those forms keep the figure {n}.
import server from "./sr-server.js";
import { signedChange } from "./signed.js";

export default {
  // A name as player.js checks it before asking the server
  "common.name.blank": "Prvo upišite ime.",
  "common.name.too_long": {
    one: "Ime može imati najviše {n} znak.",
    few: "Ime može imati najviše {n} znaka.",
    other: "Ime može imati najviše {n} znakova.",
  },
  "common.name.control": "Ime ne sme sadržati kontrolne znakove.",
  ...server,

  // ------------------------------------------------------------ the lobby: the name
  "lobby.ask_name.play": "Izaberite ime, pa ćemo vam naći protivnika.",
  "lobby.ask_name.play_again": "Izaberite ime, pa ponovo pritisnite „Igraj“.",
  "lobby.ask_name.create": "Izaberite ime, pa će vaša partija biti napravljena.",
  "lobby.ask_name.join": "Izaberite ime, pa ćete se pridružiti partiji igrača {name}.",

  // ------------------------------------------------------------ the lobby socket
  "lobby.connection.connecting": "Povezivanje…",
  "lobby.connection.online": "Uživo",
  "lobby.connection.offline": "Van mreže: ponovno povezivanje…",

  // ------------------------------------------------------------ quick match
  "lobby.queue.elapsed": "{minutes}:{seconds}",
  "lobby.queue.replaced": "Pritisnuli ste „Igraj“ u drugoj kartici: sada čeka ona.",
  "lobby.queue.left": "Izašli ste iz reda čekanja.",
  "lobby.queue.matched": "Protivnik je pronađen: otvaranje partije…",

  // ------------------------------------------------------------ playing the computer
  "lobby.ask_name.computer": "Izaberite ime, pa počinje vaša partija protiv računara.",
  "lobby.computer.title": "Igrajte protiv računara",
  "lobby.computer.hint": "Partija odmah, kad god želite; nikad ne utiče na rejting.",
  "lobby.computer.level": "Nivo",
  "lobby.computer.about.random": "igra bilo koji dozvoljen potez",
  "lobby.computer.about.greedy": "uzima ono što trenutno izgleda najbolje",
  "lobby.computer.about.easy": "razmišlja malo unapred",
  "lobby.computer.about.medium": "razmišlja više unapred",
  "lobby.computer.about.hard": "razmišlja najdalje unapred",
  "lobby.computer.starts": "Ko počinje",
  "lobby.computer.starts.random": "Nasumično",
  "lobby.computer.starts.me": "Ja",
  "lobby.computer.starts.computer": "Računar",
  "lobby.computer.wonders": "Svetska čuda",
  "lobby.computer.wonders.draft": "Odabir (4 + 4)",
  "lobby.computer.wonders.first_game": "Kao u pravilima",
  "lobby.computer.play": "Igraj",
  "lobby.computer.starting": "Pokretanje partije…",

  // ------------------------------------------------------------ joining an open game
  "lobby.join_refused.game_full": "Neko drugi se prvi pridružio toj partiji.",
  "lobby.join_refused.own_game": "To je vaša partija: tamo sačekajte protivnika.",
  "lobby.join_refused.not_joinable": "Toj partiji se više ne može pridružiti.",
  "lobby.join_refused.not_found": "Ta partija više ne postoji.",

  // ------------------------------------------------------------ the lists
  "lobby.count": "({n})",
  "lobby.versus": "{a} – {b}",
  "lobby.options": "{wonders} · {starter} · {control}",
  "lobby.options.first_game": "čuda iz pravila",
  "lobby.options.draft": "odabir čuda",
  "lobby.options.starts": "{name} počinje",
  "lobby.options.random_start": "prvi igrač nasumično",
  "lobby.ago.now": "upravo sada",
  "lobby.ago.minutes": { one: "pre {n} min", few: "pre {n} min", other: "pre {n} min" },
  "lobby.ago.hours": { one: "pre {n} h", few: "pre {n} h", other: "pre {n} h" },
  "lobby.ago.days": { one: "pre {n} dan", few: "pre {n} dana", other: "pre {n} dana" },
  "lobby.progress.not_begun": "nije počela · otvorena {ago}",
  "lobby.progress.moves": {
    one: "{n} potez · poslednji {ago}",
    few: "{n} poteza · poslednji {ago}",
    other: "{n} poteza · poslednji {ago}",
  },
  "lobby.link.open": "Otvori",
  "lobby.link.resume": "Nastavi",
  "lobby.link.watch": "Gledaj",
  "lobby.link.view": "Pogledaj",
  "lobby.link.replay": "Reprodukuj",

  // Open games
  "lobby.open.meta": "{options} · ponuđena {ago}",
  "lobby.open.yours": "Vaša — čeka",
  "lobby.open.open_label": "Otvori svoju partiju",
  "lobby.open.join": "Pridruži se",
  "lobby.open.join_label": "Pridruži se partiji igrača {name}",

  // Games in progress
  "lobby.live.meta": "{progress} · {options}",
  "lobby.live.resume_label": "Nastavi svoju partiju: {names}",
  "lobby.live.watch_label": "Gledaj: {names}",

  // The player's games
  "lobby.mine.versus": "protivnik: {name}",
  "lobby.mine.no_opponent": "Još nema protivnika",
  "lobby.mine.no_player": "Izaberite ime da biste igrali: ovde će biti navedene vaše partije.",
  "lobby.mine.waiting_invite": "samo preko linka za poziv · otvorena {ago}",
  "lobby.mine.waiting_listed": "u lobiju · otvorena {ago}",
  "lobby.mine.open_label": "Otvori svoju partiju koja čeka",
  "lobby.mine.your_turn": "Vaš potez",
  "lobby.mine.their_turn": "Na potezu: {name}",
  "lobby.mine.resume_label": "Nastavi svoju partiju ({opponent})",
  "lobby.mine.finished": {
    one: "završena {ago} · {n} potez",
    few: "završena {ago} · {n} poteza",
    other: "završena {ago} · {n} poteza",
  },
  "lobby.mine.finished_label": "Pogledaj svoju završenu partiju ({opponent})",
  "lobby.mine.aborted": "Poništena: bez rezultata",
  "lobby.mine.expired": "Istekla",
  "lobby.mine.replay_label": "Reprodukuj partiju ({opponent}), potez po potez",
  "replay.setup": {
    one: "Priprema, pre prvog od {n} poteza",
    few: "Priprema, pre prvog od {n} poteza",
    other: "Priprema, pre prvog od {n} poteza",
  },
  "replay.after": "Posle poteza {n} od {last}",
  "replay.revealed": "Posle poslednjeg poteza: sve je otkriveno",
  "lobby.mine.expired_meta": "niko se nije pridružio · istekla {ago}",
  "lobby.mine.stopped": {
    one: "zaustavljena {ago} · {n} potez",
    few: "zaustavljena {ago} · {n} poteza",
    other: "zaustavljena {ago} · {n} poteza",
  },
  "lobby.mine.aborted_label": "Pogledaj svoju prekinutu partiju ({opponent})",
  "lobby.mine.view_label": "Pogledaj partiju ({opponent})",
  "lobby.result.shared": "Podeljena pobeda · {victory}",
  "lobby.result.won": "Pobeda · {victory}",
  "lobby.result.lost": "Poraz · {victory}",
  "lobby.victory.civilian": "građanska pobeda",
  "lobby.victory.military": "vojna nadmoć",
  "lobby.victory.science": "naučna nadmoć",
  "lobby.victory.resigned": "predajom",
  "lobby.victory.time": "istekom vremena",
  "lobby.victory.abandoned": "napuštanjem partije",

  // ------------------------------------------------------------ ratings, in the lists too
  // A rating as the server rounds it, "?" after one still provisional (few rated games).
  "rating.value": ({ rating, provisional }) => (provisional ? `${rating}?` : String(rating)),
  "rating.in_list": "({rating})",
  "rating.provisional": "Privremeni rejting: još premalo rejting partija da bi bio pouzdan",
  "lobby.rated": "Rejting",
  "lobby.rated_title": "Rejting partija: njen ishod menja rejting oba igrača",

  // ------------------------------------------------------------ the leaderboard
  "leaderboard.note": {
    one: "Nalozi sa najmanje {n} rejting partijom, od najvišeg rejtinga. Oznaka „?“ označava privremeni rejting: još premalo partija da bi bio pouzdan.",
    few: "Nalozi sa najmanje {n} rejting partije, od najvišeg rejtinga. Oznaka „?“ označava privremeni rejting: još premalo partija da bi bio pouzdan.",
    other: "Nalozi sa najmanje {n} rejting partija, od najvišeg rejtinga. Oznaka „?“ označava privremeni rejting: još premalo partija da bi bio pouzdan.",
  },
  "leaderboard.empty": "Na rang-listi još nema nikoga: nalog se pojavljuje na njoj kada odigra rejting partije.",
  "leaderboard.empty_page": "Ova stranica rang-liste je prazna.",
  "leaderboard.page": {
    one: "Stranica {page} od {pages} · {n} igrač",
    few: "Stranica {page} od {pages} · {n} igrača",
    other: "Stranica {page} od {pages} · {n} igrača",
  },

  // ------------------------------------------------------------ a player's profile
  "profile.not_found": "Nijedan igrač nema korisničko ime {username}.",
  "profile.plays_as": "{username}, igra pod imenom {name}",
  "profile.deviation": "± {n}",
  "profile.provisional": "privremeni: još premalo rejting partija",
  "profile.games": { one: "{n} partija", few: "{n} partije", other: "{n} partija" },
  "profile.rated_games": { one: "{n} rejting partija", few: "{n} rejting partije", other: "{n} rejting partija" },
  "profile.wins": { one: "{n} pobeda", few: "{n} pobede", other: "{n} pobeda" },
  "profile.losses": { one: "{n} poraz", few: "{n} poraza", other: "{n} poraza" },
  "profile.shared": { one: "{n} podeljena pobeda", few: "{n} podeljene pobede", other: "{n} podeljenih pobeda" },
  "profile.since": "Registracija: {day}",
  "profile.chart.title": "Rejting igrača {name} posle svake rejting partije",
  "profile.chart.desc": {
    one: "{n} rejting partija: od {first} posle prve do {last} posle poslednje; najniži {low}, najviši {high}.",
    few: "{n} rejting partije: od {first} posle prve do {last} posle poslednje; najniži {low}, najviši {high}.",
    other: "{n} rejting partija: od {first} posle prve do {last} posle poslednje; najniži {low}, najviši {high}.",
  },
  "profile.chart.point": "Rejting partija {n}, {day}: {rating}",
  "profile.chart.none": "Još nema rejting partija.",
  "profile.wonder.picked": { one: "odabrano {n} put", few: "odabrano {n} puta", other: "odabrano {n} puta" },
  "profile.wonder.win_rate": {
    one: "{rate}% pobeda u {n} partiji",
    few: "{rate}% pobeda u {n} partije",
    other: "{rate}% pobeda u {n} partija",
  },
  "profile.wonders.none": "Još nijedno odabrano svetsko čudo.",
  "profile.wonders.best_hint": {
    one: "(od onih odabranih u najmanje {n} partiji)",
    few: "(od onih odabranih u najmanje {n} partije)",
    other: "(od onih odabranih u najmanje {n} partija)",
  },
  "profile.wonders.no_best": {
    one: "Još nijedno: čudo se ovde računa kada bude odabrano u {n} partiji.",
    few: "Još nijedno: čudo se ovde računa kada bude odabrano u {n} partije.",
    other: "Još nijedno: čudo se ovde računa kada bude odabrano u {n} partija.",
  },
  "profile.recent.none": "Još nema završenih partija.",
  "profile.recent.unrated": "bez rejtinga",
  "profile.recent.change_title": "Promena rejtinga",
  // A rating's change, rounded: +12, −8 (a minus sign, not a hyphen).
  "profile.recent.change": ({ change }) => signedChange(change),

  // ------------------------------------------------------------ ends, by kind (tables)
  "standings.kind.civilian": "Građanska pobeda",
  "standings.kind.military": "Vojna nadmoć",
  "standings.kind.science": "Naučna nadmoć",
  "standings.kind.resigned": "Predaja",
  "standings.kind.time": "Isteklo vreme",
  "standings.kind.abandoned": "Napuštanje",
  "standings.kind.shared": "Podeljena pobeda",
  "standings.percent": "{n}%",
  "standings.figure": "{n}",
  "standings.none": "—",

  // ------------------------------------------------------------ the site's statistics
  "stats.games": {
    one: "{n} završena partija na ovom sajtu (brojke se osvežavaju svakog minuta).",
    few: "{n} završene partije na ovom sajtu (brojke se osvežavaju svakog minuta).",
    other: "{n} završenih partija na ovom sajtu (brojke se osvežavaju svakog minuta).",
  },
  "stats.empty": "Još nijedna partija nije završena: brojke se pojavljuju sa prvom.",
  "stats.first_player": {
    one: "Igrač koji počinje pobedio je u {rate}% od {n} partije sa pobednikom.",
    few: "Igrač koji počinje pobedio je u {rate}% od {n} partije sa pobednikom.",
    other: "Igrač koji počinje pobedio je u {rate}% od {n} partija sa pobednikom.",
  },
  "stats.first_player.none": "Još nijedna partija nije imala pobednika.",
  "stats.length": "Partija u proseku ima {moves} i traje {minutes}.",
  "stats.moves": { one: "{n} potez", few: "{n} poteza", other: "{n} poteza" },
  "stats.minutes": { one: "{n} minut", few: "{n} minuta", other: "{n} minuta" },

  // ------------------------------------------------------------ the invite link's page
  "join.invited_by": "{name} vas poziva na partiju.",
  "join.invited": "Pozvani ste na partiju.",
  "join.aborted": "Ova partija je prekinuta.",
  "join.cancelled": "Osnivač je otkazao ovu partiju: niko joj se ne može pridružiti.",
  "join.full": "Oba mesta u ovoj partiji su zauzeta.",
  "join.watch_instead": "Umesto toga gledajte partiju",
  "join.no_game": "Ovaj link za poziv ne vodi ni do jedne partije: proverite da li je kopiran ceo.",
  "join.own_game": "Ovo je vaša partija: pošaljite link protivniku.",
  "join.go_to_game": "Idi na svoju partiju",
  "join.seat_taken": "Neko drugi je prvi zauzeo mesto.",
  "join.no_code": "Ovom linku nedostaje kod poziva, deo od „#code=” nadalje kojim se ceo link završava. Zatražite od protivnika ceo link (prikazan je na stranici njegove partije, uz dugme „Kopiraj link”) i otvorite njega.",
  "join.bad_invite": "Ovaj link za poziv ne važi za ovu partiju: zatražite novi.",
  "join.rated": "Rejting partija: njen ishod menja rejting oba igrača, a pridružiti joj se može samo korisnik sa nalogom.",
  "join.clock": "Kontrola vremena: {control}.",
};
