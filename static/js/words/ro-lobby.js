// Romanian for the player pages around the game: the lobby (static/js/lobby.js), the invite
// link's page (join.js), "My games", the replay, the leaderboard, a player's profile and the
// site's statistics; each adds it to the shared catalog (addMessages). The forms an
// entry may take are those of static/js/words.js. Refusals from the server are worded by
// the "error.<code>" entries of ro-server.js, which come with these (the pages' own calls
// to the server are what they do); the entries below word only what a page says itself.
import server from "./ro-server.js";
import { signedChange } from "./signed.js";

// Ratings as plain figures, through Intl.NumberFormat without grouping: 1500, not 1.500.
const ratings = new Intl.NumberFormat("ro", { useGrouping: false });

export default {
  // A name as player.js checks it before asking the server
  "common.name.blank": "Scrie mai întâi un nume.",
  "common.name.too_long": {
    one: "Un nume are cel mult {n} caracter.",
    few: "Un nume are cel mult {n} caractere.",
    other: "Un nume are cel mult {n} de caractere.",
  },
  "common.name.control": "Un nume nu poate conține caractere de control.",
  ...server,

  // ------------------------------------------------------------ the lobby: the name
  "lobby.ask_name.play": "Alege un nume, apoi îți găsim un adversar.",
  "lobby.ask_name.play_again": "Alege un nume, apoi apasă Joacă din nou.",
  "lobby.ask_name.create": "Alege un nume, apoi partida ta este creată.",
  "lobby.ask_name.join": "Alege un nume, apoi intri în partida lui {name}.",

  // ------------------------------------------------------------ the lobby socket
  "lobby.connection.connecting": "Conectare…",
  "lobby.connection.online": "Conectat",
  "lobby.connection.offline": "Deconectat: reconectare…",

  // ------------------------------------------------------------ quick match
  "lobby.queue.elapsed": "{minutes}:{seconds}",
  "lobby.queue.replaced": "Ai apăsat Joacă în altă filă: acum așteaptă aceea.",
  "lobby.queue.left": "Ai ieșit din coadă.",
  "lobby.queue.matched": "Adversar găsit: se deschide partida…",

  // ------------------------------------------------------------ playing the computer
  "lobby.ask_name.computer": "Alege un nume, apoi începe partida ta cu calculatorul.",
  "lobby.computer.title": "Joacă cu calculatorul",
  "lobby.computer.hint": "O partidă imediat, oricând vrei; întotdeauna fără rating.",
  "lobby.computer.level": "Nivel",
  "lobby.computer.about.random": "joacă orice mutare permisă",
  "lobby.computer.about.greedy": "ia ce pare cel mai bun pe moment",
  "lobby.computer.about.easy": "gândește puțin înainte",
  "lobby.computer.about.medium": "gândește mai mult înainte",
  "lobby.computer.about.hard": "gândește cel mai mult înainte",
  "lobby.computer.starts": "Cine începe",
  "lobby.computer.starts.random": "Tras la sorți",
  "lobby.computer.starts.me": "Eu",
  "lobby.computer.starts.computer": "Calculatorul",
  "lobby.computer.wonders": "Minuni",
  "lobby.computer.wonders.draft": "Alegere (4 + 4)",
  "lobby.computer.wonders.first_game": "Cele din regulament",
  "lobby.computer.play": "Joacă",
  "lobby.computer.starting": "Se pornește partida ta…",

  // ------------------------------------------------------------ joining an open game
  "lobby.join_refused.game_full": "Altcineva a intrat primul în acea partidă.",
  "lobby.join_refused.own_game": "Aceea este partida ta: așteaptă acolo un adversar.",
  "lobby.join_refused.not_joinable": "În acea partidă nu se mai poate intra.",
  "lobby.join_refused.not_found": "Acea partidă nu mai există.",

  // ------------------------------------------------------------ the lists
  "lobby.count": "({n})",
  "lobby.versus": "{a} vs {b}",
  "lobby.options": "{wonders} · {starter} · {control}",
  "lobby.options.first_game": "minunile din regulament",
  "lobby.options.draft": "alegerea minunilor",
  "lobby.options.starts": "începe {name}",
  "lobby.options.random_start": "primul jucător tras la sorți",
  "lobby.ago.now": "chiar acum",
  "lobby.ago.minutes": { one: "acum {n} min", few: "acum {n} min", other: "acum {n} min" },
  "lobby.ago.hours": { one: "acum {n} oră", few: "acum {n} ore", other: "acum {n} de ore" },
  "lobby.ago.days": { one: "acum {n} zi", few: "acum {n} zile", other: "acum {n} de zile" },
  "lobby.progress.not_begun": "neîncepută · creată {ago}",
  "lobby.progress.moves": {
    one: "{n} mutare · ultima mutare {ago}",
    few: "{n} mutări · ultima mutare {ago}",
    other: "{n} de mutări · ultima mutare {ago}",
  },
  "lobby.link.open": "Deschide",
  "lobby.link.resume": "Continuă",
  "lobby.link.watch": "Urmărește",
  "lobby.link.view": "Vezi",
  "lobby.link.replay": "Reluare",

  // Open games
  "lobby.open.meta": "{options} · propusă {ago}",
  "lobby.open.yours": "A ta — în așteptare",
  "lobby.open.open_label": "Deschide partida ta",
  "lobby.open.join": "Intră",
  "lobby.open.join_label": "Intră în partida lui {name}",

  // Games in progress
  "lobby.live.meta": "{progress} · {options}",
  "lobby.live.resume_label": "Continuă partida ta {names}",
  "lobby.live.watch_label": "Urmărește {names}",

  // The player's games
  "lobby.mine.versus": "vs {name}",
  "lobby.mine.no_opponent": "Niciun adversar încă",
  "lobby.mine.no_player": "Alege un nume ca să joci: partidele tale vor apărea aici.",
  "lobby.mine.waiting_invite": "doar cu link de invitație · creată {ago}",
  "lobby.mine.waiting_listed": "afișată în lobby · creată {ago}",
  "lobby.mine.open_label": "Deschide partida ta în așteptare",
  "lobby.mine.your_turn": "Rândul tău",
  "lobby.mine.their_turn": "Rândul lui {name}",
  "lobby.mine.resume_label": "Continuă partida ta {opponent}",
  "lobby.mine.finished": {
    one: "încheiată {ago} · {n} mutare",
    few: "încheiată {ago} · {n} mutări",
    other: "încheiată {ago} · {n} de mutări",
  },
  "lobby.mine.finished_label": "Vezi partida ta încheiată {opponent}",
  "lobby.mine.aborted": "Anulată: fără rezultat",
  "lobby.mine.expired": "Expirată",
  "lobby.mine.replay_label": "Reia partida {opponent}, mutare cu mutare",
  "replay.setup": {
    one: "Pregătirea, înainte de prima mutare (din {n} în total)",
    few: "Pregătirea, înainte de prima mutare (din {n} în total)",
    other: "Pregătirea, înainte de prima mutare (din {n} în total)",
  },
  "replay.after": "După mutarea {n} din {last}",
  "replay.revealed": "După ultima mutare: totul la vedere",
  "lobby.mine.expired_meta": "nu a intrat nimeni · expirată {ago}",
  "lobby.mine.stopped": {
    one: "oprită {ago} · {n} mutare",
    few: "oprită {ago} · {n} mutări",
    other: "oprită {ago} · {n} de mutări",
  },
  "lobby.mine.aborted_label": "Vezi partida ta oprită {opponent}",
  "lobby.mine.view_label": "Vezi partida {opponent}",
  "lobby.result.shared": "Victorie împărțită · {victory}",
  "lobby.result.won": "Câștigată · {victory}",
  "lobby.result.lost": "Pierdută · {victory}",
  "lobby.victory.civilian": "victorie civilă",
  "lobby.victory.military": "supremație militară",
  "lobby.victory.science": "supremație științifică",
  "lobby.victory.resigned": "prin abandon",
  "lobby.victory.time": "prin expirarea timpului",
  "lobby.victory.abandoned": "prin părăsirea partidei",

  // ------------------------------------------------------------ ratings, in the lists too
  // A rating as the server rounds it, "?" after one still provisional (few rated games).
  "rating.value": ({ rating, provisional }) => (provisional ? `${ratings.format(rating)}?` : ratings.format(rating)),
  "rating.in_list": "({rating})",
  "rating.provisional": "Un rating provizoriu: prea puține partide cu rating ca să fie sigur",
  "lobby.rated": "Cu rating",
  "lobby.rated_title": "O partidă cu rating: rezultatul ei schimbă ratingul ambilor jucători",

  // ------------------------------------------------------------ the leaderboard
  "leaderboard.note": {
    one: "Conturile cu cel puțin {n} partidă cu rating, în ordinea descrescătoare a ratingului. Un „?” marchează un rating provizoriu: prea puține partide ca să fie sigur.",
    few: "Conturile cu cel puțin {n} partide cu rating, în ordinea descrescătoare a ratingului. Un „?” marchează un rating provizoriu: prea puține partide ca să fie sigur.",
    other: "Conturile cu cel puțin {n} de partide cu rating, în ordinea descrescătoare a ratingului. Un „?” marchează un rating provizoriu: prea puține partide ca să fie sigur.",
  },
  "leaderboard.empty": "Încă nu este nimeni în clasament: conturile apar aici după ce joacă partide cu rating.",
  "leaderboard.empty_page": "Această pagină a clasamentului este goală.",
  "leaderboard.page": {
    one: "Pagina {page} din {pages} · {n} jucător",
    few: "Pagina {page} din {pages} · {n} jucători",
    other: "Pagina {page} din {pages} · {n} de jucători",
  },

  // ------------------------------------------------------------ a player's profile
  "profile.not_found": "Niciun jucător nu are numele de utilizator {username}.",
  "profile.plays_as": "{username}, joacă sub numele {name}",
  "profile.deviation": "plus sau minus {n}",
  "profile.provisional": "provizoriu: prea puține partide cu rating deocamdată",
  "profile.games": { one: "{n} partidă", few: "{n} partide", other: "{n} de partide" },
  "profile.rated_games": { one: "{n} cu rating", few: "{n} cu rating", other: "{n} cu rating" },
  "profile.wins": { one: "{n} câștigată", few: "{n} câștigate", other: "{n} câștigate" },
  "profile.losses": { one: "{n} pierdută", few: "{n} pierdute", other: "{n} pierdute" },
  "profile.shared": { one: "{n} împărțită", few: "{n} împărțite", other: "{n} împărțite" },
  "profile.since": "Cont creat pe {day}",
  "profile.chart.title": "{name}: ratingul după fiecare partidă cu rating",
  "profile.chart.desc": {
    one: "O singură partidă cu rating până acum: după ea, un rating de {last}.",
    few: "{n} partide cu rating: de la {first} după prima la {last} după cea mai recentă; minim {low}, maxim {high}.",
    other: "{n} de partide cu rating: de la {first} după prima la {last} după cea mai recentă; minim {low}, maxim {high}.",
  },
  "profile.chart.point": "Partida cu rating nr. {n}, {day}: {rating}",
  "profile.chart.none": "Nicio partidă cu rating încă.",
  "profile.wonder.picked": { one: "aleasă o dată", few: "aleasă de {n} ori", other: "aleasă de {n} de ori" },
  "profile.wonder.win_rate": {
    one: "{rate}% victorii din {n} partidă",
    few: "{rate}% victorii din {n} partide",
    other: "{rate}% victorii din {n} de partide",
  },
  "profile.wonders.none": "Nicio minune aleasă încă.",
  "profile.wonders.best_hint": {
    one: "(dintre cele alese cel puțin o dată)",
    few: "(dintre cele alese în {n} partide sau mai multe)",
    other: "(dintre cele alese în {n} de partide sau mai multe)",
  },
  "profile.wonders.no_best": {
    one: "Niciuna încă.",
    few: "Niciuna încă: o minune apare aici după ce a fost aleasă în {n} partide.",
    other: "Niciuna încă: o minune apare aici după ce a fost aleasă în {n} de partide.",
  },
  "profile.recent.none": "Nicio partidă încheiată încă.",
  "profile.recent.unrated": "fără rating",
  "profile.recent.change_title": "Schimbarea ratingului",
  // A rating's change, rounded: +12, −8 (a minus sign, not a hyphen).
  "profile.recent.change": ({ change }) => signedChange(change),

  // ------------------------------------------------------------ ends, by kind (tables)
  "standings.kind.civilian": "Victorie civilă",
  "standings.kind.military": "Supremație militară",
  "standings.kind.science": "Supremație științifică",
  "standings.kind.resigned": "Abandon",
  "standings.kind.time": "Timp expirat",
  "standings.kind.abandoned": "Părăsirea partidei",
  "standings.kind.shared": "Victorie împărțită",
  "standings.percent": "{n}%",
  "standings.figure": "{n}",
  "standings.none": "—",

  // ------------------------------------------------------------ the site's statistics
  "stats.games": {
    one: "{n} partidă încheiată pe acest site (cifrele se actualizează în fiecare minut).",
    few: "{n} partide încheiate pe acest site (cifrele se actualizează în fiecare minut).",
    other: "{n} de partide încheiate pe acest site (cifrele se actualizează în fiecare minut).",
  },
  "stats.empty": "Nicio partidă nu s-a încheiat încă: cifrele apar odată cu prima.",
  "stats.first_player": {
    one: "Jucătorul care a început a câștigat {rate}% din {n} partidă cu un câștigător.",
    few: "Jucătorul care a început a câștigat {rate}% din cele {n} partide cu un câștigător.",
    other: "Jucătorul care a început a câștigat {rate}% din cele {n} de partide cu un câștigător.",
  },
  "stats.first_player.none": "Nicio partidă nu a avut încă un câștigător.",
  "stats.length": "O partidă are în medie {moves} și durează {minutes}.",
  "stats.moves": { one: "{n} mutare", few: "{n} mutări", other: "{n} de mutări" },
  "stats.minutes": { one: "{n} minut", few: "{n} minute", other: "{n} de minute" },

  // ------------------------------------------------------------ the invite link's page
  "join.invited_by": "{name} te invită să joci.",
  "join.invited": "Ai primit o invitație la joc.",
  "join.aborted": "Această partidă a fost oprită.",
  "join.cancelled": "Creatorul a renunțat la această partidă: nimeni nu mai poate intra în ea.",
  "join.full": "Ambele locuri ale acestei partide sunt ocupate.",
  "join.watch_instead": "Urmărește partida",
  "join.no_game": "Acest link de invitație nu indică nicio partidă: verifică dacă a fost copiat întreg.",
  "join.own_game": "Aceasta este partida ta: trimite linkul adversarului tău.",
  "join.go_to_game": "Mergi la partida ta",
  "join.seat_taken": "Altcineva a ocupat primul locul.",
  "join.no_code": "Acestui link i s-a pierdut codul de invitație, partea de la „#code=” încolo, cu care se încheie linkul întreg. Cere-i adversarului linkul întreg (pagina partidei lui îl arată, cu butonul „Copiază linkul”) și deschide-l pe acela.",
  "join.bad_invite": "Acest link de invitație nu este valabil pentru partidă: cere unul nou.",
  "join.rated": "O partidă cu rating: rezultatul ei schimbă ratingul ambilor jucători și doar un cont poate intra în ea.",
  "join.clock": "Timp de joc: {control}.",
};
