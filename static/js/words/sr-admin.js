// Serbian (Latin script) for the admin pages' scripts (static/js/admin.js, admin-game.js,
// admin-import.js). admin.js adds it to the shared catalog (addMessages); the forms an entry
// may take are those of static/js/words.js. Refusals are worded by the "error.<code>" entries
// of sr-server.js, which come with these.
import server from "./sr-server.js";

export default {
  ...server,

  // ------------------------------------------------------------ seats and actions
  "admin.seat": "Mesto {seat}",
  "admin.seat.lower": "mesto {seat}",
  "admin.action.pick_wonder": "{who} bira svetsko čudo: {wonder}",
  "admin.action.build": "{who} gradi: {card}",
  "admin.action.discard": "{who} prodaje kartu za novčiće: {card}",
  "admin.action.build_wonder": "{who} gradi čudo {wonder} pomoću karte {card}",
  "admin.action.choose_progress": "{who} uzima token progresa: {token}",
  "admin.action.destroy": "{who} odbacuje protivnikovu kartu: {card}",
  "admin.action.build_from_discard": "{who} gradi iz odbačenih karata: {card}",
  "admin.action.choose_starter": "{who} bira ko počinje doba: {whom}",
  "admin.action.other": "{who}: {action}",

  // ------------------------------------------------------------ what the players cannot see
  "admin.age.age1": "Doba I",
  "admin.age.age2": "Doba II",
  "admin.age.age3": "Doba III",
  "admin.hidden.none": "nema",
  "admin.hidden.nothing": "Nema ničega za prikaz.",
  "admin.hidden.library_draw": "Velika biblioteka: {name} bira između",
  "admin.hidden.draft_round_2": "Drugi krug odabira (još nije ponuđen)",
  "admin.hidden.removed": "Uklonjeno pri pripremi, {age}",
  "admin.hidden.removed_guilds": "Gilde koje nisu u igri",
  "admin.hidden.box_tokens": "Tokeni progresa u kutiji",
  "admin.hidden.unused_wonders": "Svetska čuda van igre",
  "admin.hidden.deck": {
    one: "{age}, još neraspoređeno ({n} karta, mesto po mesto)",
    few: "{age}, još neraspoređeno ({n} karte, mesto po mesto)",
    other: "{age}, još neraspoređeno ({n} karata, mesto po mesto)",
  },

  // ------------------------------------------------------------ a game, action by action
  "admin.step.after": "Posle akcije {n} od {last}: {action}",
  "admin.step.setup": "Priprema, pre prve akcije (ukupno {last})",
  "admin.abort.no_reason": "Navedite razlog: oba igrača će ga pročitati.",
  "admin.abort.confirm": "Trajno prekinuti partiju {game}? Oba igrača dobijaju poruku: „{reason}“.",

  // ------------------------------------------------------------ importing a record
  "admin.import.empty": "Izaberite datoteku sa zapisom ili nalepite zapis.",
  "admin.import.not_json": "Ovo nije JSON: zapis je JSON datoteka koju izvozi stranica partije.",
  "admin.import.done": "Uvezeno kao partija {game}.",
};
