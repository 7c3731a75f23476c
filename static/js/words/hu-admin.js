// Hungarian for the admin pages' scripts (static/js/admin.js, admin-game.js, admin-import.js).
// admin.js adds it to the shared catalog (addMessages); the forms an entry may take are those of
// static/js/words.js. Refusals are worded by the "error.<code>" entries of hu-server.js,
// which come with these.
import server from "./hu-server.js";

export default {
  ...server,

  // ------------------------------------------------------------ seats and actions
  "admin.seat": "{seat}. hely",
  "admin.seat.lower": "{seat}. hely",
  "admin.action.pick_wonder": "{who} kiválasztotta: {wonder}",
  "admin.action.build": "{who} megépítette: {card}",
  "admin.action.discard": "{who} eldobta érmékért: {card}",
  "admin.action.build_wonder": "{who} megépítette: {wonder}, ezzel a kártyával: {card}",
  "admin.action.choose_progress": "{who} elvette ezt a fejlődéskorongot: {token}",
  "admin.action.destroy": "{who} eldobatta az ellenféllel: {card}",
  "admin.action.build_from_discard": "{who} megépítette a dobópakliból: {card}",
  "admin.action.choose_starter": "{who} úgy döntött, hogy a kort ez a játékos kezdi: {whom}",
  "admin.action.other": "{who}: {action}",

  // ------------------------------------------------------------ what the players cannot see
  "admin.age.age1": "I. kor",
  "admin.age.age2": "II. kor",
  "admin.age.age3": "III. kor",
  "admin.hidden.none": "nincs",
  "admin.hidden.nothing": "Nincs mit mutatni.",
  "admin.hidden.library_draw": "Nagy Könyvtár: {name} ezek közül választ",
  "admin.hidden.draft_round_2": "Második választási forduló (még nincs felkínálva)",
  "admin.hidden.removed": "Az előkészületek során kivéve, {age}",
  "admin.hidden.removed_guilds": "Játékon kívüli céhek",
  "admin.hidden.box_tokens": "Fejlődéskorongok a dobozban",
  "admin.hidden.unused_wonders": "Játékon kívüli csodák",
  "admin.hidden.deck": {
    one: "{age}, még kirakásra vár ({n} kártya, helyről helyre)",
    other: "{age}, még kirakásra vár ({n} kártya, helyről helyre)",
  },

  // ------------------------------------------------------------ a game, action by action
  "admin.step.after": "{n}. művelet után (összesen {last}): {action}",
  "admin.step.setup": "Előkészületek, az első művelet előtt (összesen {last})",
  "admin.abort.no_reason": "Adj meg indoklást: mindkét játékos el fogja olvasni.",
  "admin.abort.confirm": "Végleg megszakítod ezt a játszmát: {game}? Mindkét játékos értesül: „{reason}”.",

  // ------------------------------------------------------------ importing a record
  "admin.import.empty": "Válassz játszmafájlt, vagy illessz be egy játszmát.",
  "admin.import.not_json": "Ez nem JSON: a játszmafájl az a JSON-fájl, amelyet egy játszma oldala exportál.",
  "admin.import.done": "Importálva, a játszma azonosítója: {game}.",
};
