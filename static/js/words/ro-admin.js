// Romanian for the admin pages' scripts (static/js/admin.js, admin-game.js, admin-import.js).
// admin.js adds it to the shared catalog (addMessages); the forms an entry may take are those of
// static/js/words.js. Refusals are worded by the "error.<code>" entries of ro-server.js,
// which come with these.
import server from "./ro-server.js";

export default {
  ...server,

  // ------------------------------------------------------------ seats and actions
  "admin.seat": "Locul {seat}",
  "admin.seat.lower": "locul {seat}",
  "admin.action.pick_wonder": "{who} a ales {wonder}",
  "admin.action.build": "{who} a construit {card}",
  "admin.action.discard": "{who} a aruncat {card} pentru monede",
  "admin.action.build_wonder": "{who} a construit {wonder} cu cartea {card}",
  "admin.action.choose_progress": "{who} a luat jetonul de progres {token}",
  "admin.action.destroy": "{who} a aruncat o carte a adversarului: {card}",
  "admin.action.build_from_discard": "{who} a construit {card} din cărțile aruncate",
  "admin.action.choose_starter": "{who} a ales ca {whom} să înceapă era",
  "admin.action.other": "{who}: {action}",

  // ------------------------------------------------------------ what the players cannot see
  "admin.age.age1": "Era I",
  "admin.age.age2": "Era II",
  "admin.age.age3": "Era III",
  "admin.hidden.none": "nimic",
  "admin.hidden.nothing": "Nimic de arătat.",
  "admin.hidden.library_draw": "Marea Bibliotecă: {name} alege dintre",
  "admin.hidden.draft_round_2": "A doua rundă a alegerii minunilor (încă neoferită)",
  "admin.hidden.removed": "Scoase la pregătirea jocului, {age}",
  "admin.hidden.removed_guilds": "Ghilde care nu sunt în joc",
  "admin.hidden.box_tokens": "Jetoane de progres rămase în cutie",
  "admin.hidden.unused_wonders": "Minuni scoase din joc",
  "admin.hidden.deck": {
    one: "{age}, încă de așezat ({n} carte, poziție cu poziție)",
    few: "{age}, încă de așezat ({n} cărți, poziție cu poziție)",
    other: "{age}, încă de așezat ({n} de cărți, poziție cu poziție)",
  },

  // ------------------------------------------------------------ a game, action by action
  "admin.step.after": "După acțiunea {n} din {last}: {action}",
  "admin.step.setup": "Pregătirea, înainte de prima acțiune ({last} în total)",
  "admin.abort.no_reason": "Scrie un motiv: ambii jucători îl vor citi.",
  "admin.abort.confirm": "Oprești definitiv partida {game}? Ambii jucători vor fi anunțați: „{reason}”.",

  // ------------------------------------------------------------ importing a record
  "admin.import.empty": "Alege un fișier cu o înregistrare sau lipește o înregistrare.",
  "admin.import.not_json": "Acesta nu este JSON: o înregistrare este fișierul JSON exportat de pagina unei partide.",
  "admin.import.done": "Importată ca partida {game}.",
};
