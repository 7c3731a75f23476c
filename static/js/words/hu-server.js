// Hungarian for every refusal code the server sends instead of a sentence. app/codes.py lists
// the codes and their params; tests/api/test_wire_codes.py checks that each has its entry
// here. hu-lobby.js and hu-admin.js spread this file into their pages' catalogs; the game
// page loads it with its first refusal or card dialog (loadWords("server") in words.js).
//   - "error.<code>": a refusal, HTTP {"error": {"code", "params"}} or socket
//     {"type": "error", "code", "params"}; show t(`error.${code}`, params). The engine's
//     codes of an illegal move come as params.detail of "illegal", and have entries too.
//   - "reason.<code>": why a card option is not allowed (view.card_options[].build and
//     .wonders[]: {allowed: false, reason, ...figures}); show t(`reason.${reason}`, option).
// An error's English `message` is for logs and API users: pages show these entries. The
// effects of /api/catalog (effect_details: a kind and its figures) are worded in hu.js.
// Entries take the forms of words.js: a string with {placeholders}, or a function (params, t).

const numbers = new Intl.NumberFormat("hu");
const plurals = new Intl.PluralRules("hu");

// "1 érme", "3 érme", "16 384 bájtot". A Hungarian noun stays singular after a number, so
// both forms are usually the same word; the caller gives it with the suffix the sentence
// needs ("érmébe", "másodpercet"), and may give another form for "other".
function count(n, one, other = one) {
  return `${numbers.format(n)} ${plurals.select(n) === "one" ? one : other}`;
}

// What a pending decision waits for (the view's decision.kind).
const AWAITED = {
  pick_wonder: "egy csoda kiválasztása",
  play_card: "egy kártya kijátszása",
  choose_progress: "egy fejlődéskorong kiválasztása",
  choose_library_token: "egy fejlődéskorong kiválasztása a Nagy Könyvtárral húzottak közül",
  destroy_card: "az ellenfél egyik kártyájának eldobatása",
  build_from_discard: "egy kártya megépítése a dobópakliból",
  choose_starter: "annak eldöntése, ki kezdi a következő kort",
};

export default {
  // ------------------------------------------------------------ reading a message
  "error.malformed": "A szerver nem tudta értelmezni az oldal egyik üzenetét. Töltsd újra az oldalt, és próbáld újra.",
  "error.unknown_type": "A szerver nem értette az oldal egyik üzenetét. Töltsd újra az oldalt, hogy a legfrissebb változatot kapd.",
  "error.too_large": ({ limit }) => `Ez túl nagy a szervernek: egyszerre legfeljebb ${count(limit, "bájtot")} fogad.`,

  // ------------------------------------------------------------ the connection
  "error.not_joined": "Ez az oldal még nem kapcsolódott a játszmához. Várj egy kicsit, és próbáld újra.",
  "error.already_joined": "Ez az oldal már kapcsolódik a játszmához.",
  "error.spectator": "Nézőként figyeled ezt a játszmát: csak a két játékos léphet.",
  "error.timeout": ({ cause }) => (cause === "join"
    ? "A kapcsolat nem csatlakozott időben a játszmához, ezért lezárult. Az oldal magától újrakapcsolódik."
    : "A kapcsolat túl sokáig volt csendes, ezért lezárult. Az oldal magától újrakapcsolódik."),
  "error.too_slow": "Az oldal túlságosan lemaradt a játszmától, ezért bontottuk a kapcsolatot. Magától újrakapcsolódik, és utoléri a játékot.",
  "error.busy": "A szerver túlterhelt. Semmi sem változott: az üzenet hamarosan újra elmegy.",
  "error.unavailable": "A szerver most nem éri el az adatait. Semmi sem változott: próbáld újra egy kicsit később.",

  // ------------------------------------------------------------ games and seats
  "error.not_found": "Nincs ilyen játszma. Ellenőrizd, hogy a teljes linket másoltad-e ki.",
  "error.bad_invite": ({ cause }) => (cause === "missing"
    ? "Ehhez a játszmához csak a meghívólinkkel lehet csatlakozni: kérd el a linket attól, aki létrehozta."
    : "Ez a meghívólink nem érvényes ehhez a játszmához: kérj újat."),
  "error.not_joinable": ({ status }) => ({
    imported: "Ez a játszma tanulmányozásra megőrzött felvétel: senki sem csatlakozhat hozzá.",
    expired: "Senki sem csatlakozott időben ehhez a játszmához: lejárt. Kérj új meghívót.",
    cancelled: "A létrehozója visszavonta ezt a játszmát: senki sem csatlakozhat hozzá.",
  }[status] ?? "Ezt a játszmát érvénytelenítették: senki sem csatlakozhat hozzá többé."),
  "error.game_full": "Ennek a játszmának már mindkét helye foglalt.",
  "error.bad_username": "A felhasználónév 3–24 karakter: betűk, számjegyek, - vagy _.",
  "error.username_taken": "Ez a felhasználónév foglalt: válassz másikat.",
  "error.weak_password": ({ cause, min, max }) => (cause === "short"
    ? `A jelszónak legalább ${count(min, "karakterből")} kell állnia.`
    : cause === "common"
    ? "Ezt a jelszót túl könnyű kitalálni (gyakori jelszó, ismétlés vagy egyszerű minta): válassz hosszabbat, kevésbé szokványosat."
    : `A jelszó legfeljebb ${count(max, "karakterből")} állhat.`),
  "error.already_registered": "Ez a böngésző már be van jelentkezve egy fiókba.",
  "error.bad_login": "Hibás felhasználónév vagy jelszó.",
  "error.not_registered": "Előbb jelentkezz be a fiókodba.",
  "error.too_many_accounts": ({ retry_after: wait }) =>
    `Túl sok fiókot regisztráltak a hálózatodról: próbáld újra ${count(Math.ceil(wait / 60), "perc")} múlva.`,
  "error.session_ended": "Ezt a fiókot mindenhol kijelentkeztették: jelentkezz be újra.",
  "error.rated_needs_account": "Értékelt játszmát csak fiókkal lehet játszani: előbb jelentkezz be, vagy regisztrálj.",
  "error.key_reused": "Ezt a kérést már valaki más elküldte: próbáld újra.",
  "error.too_many_games": ({ limit, retry_after: wait }) =>
    `Egy órán belül ${count(limit, "játszmát")} hoztál létre: próbáld újra ${count(Math.ceil(wait / 60), "perc")} múlva.`,
  "error.too_many_joins": ({ limit, retry_after: wait }) =>
    `Egy órán belül ${count(limit, "játszmához")} csatlakoztál: próbáld újra ${count(Math.ceil(wait / 60), "perc")} múlva.`,
  "error.too_many_sockets": "Túl sok kapcsolat a hálózatodról: zárj be néhány lapot, és próbáld újra.",
  "error.too_many_spectators": ({ limit }) => `Ennek a játszmának már ${count(limit, "nézője")} van: próbáld újra később.`,
  "error.too_fast": ({ retry_after: wait }) => `Túl sok üzenet egyszerre: várj ${count(wait, "másodpercet")}.`,
  "error.own_game": "A játszma másik helye már a tiéd.",
  "error.bad_credentials": "Ennek az oldalnak nincs helye ebben a játszmában. Nyisd meg a játszmát a saját linkedről vagy a lobbiból.",

  // ------------------------------------------------------------ players
  "error.no_player": "Előbb válassz nevet.",
  "error.bad_name": ({ cause, max }) => {
    if (cause === "too_long") return `A név legfeljebb ${count(max, "karakterből")} állhat.`;
    if (cause === "control") return "A név nem tartalmazhat vezérlőkaraktert.";
    return "A névben legalább egy látható karakternek lennie kell.";
  },

  // ------------------------------------------------------------ moves
  "error.client_id_reused": "Ez a lépés összekeveredett egy korábbival, ezért nem történt meg. Próbáld újra.",
  "error.not_started": "A játszma még nem kezdődött el: egy második játékosra vár.",
  "error.expired": "Senki sem csatlakozott időben ehhez a játszmához: lejárt.",
  "error.aborted": "Ezt a játszmát érvénytelenítették: több lépés nem tehető.",
  "error.abort_too_late": "Mindkét játékos lépett már: a játszma nem érvényteleníthető. Feladhatod helyette.",
  "error.abort_instead": "Amíg mindkét játékos nem lépett, semmi sincs kockán: érvénytelenítsd inkább a játszmát.",
  "error.imported": "Ez a játszma tanulmányozásra megőrzött felvétel: nem lehet játszani.",
  "error.game_over": "A játszma véget ért.",
  "error.stale_version": "A játék továbblépett, mielőtt a lépésed megérkezett, ezért nem történt meg. Nézd meg újra a táblát, és válaszd ki a lépésedet.",
  "error.not_your_turn": "Nem te következel.",
  "error.illegal": ({ detail, ...figures }, t) => (detail
    ? t(`error.${detail}`, figures)
    : "A szabályok most nem engedik ezt a lépést."),

  // The engine's reasons for an illegal move (params.detail of "illegal").
  "error.wrong_decision": ({ decision }) => (AWAITED[decision]
    ? `Ez most nem lehetséges, mert a játék mást vár: ${AWAITED[decision]}.`
    : "Ez most nem lehetséges: a játék most valami mást vár."),
  "error.not_offered": ({ wonder, token }) => {
    if (wonder) return "Ez a csoda most nem választható.";
    if (token) return "Ez a fejlődéskorong most nem választható.";
    return "Ez a kártya most nem választható.";
  },
  "error.not_accessible": "Ez a kártya nem vehető el: más kártyák takarják, képpel lefelé fekszik, vagy már elvitték.",
  "error.cannot_afford": ({ price, coins }) => `Nem tudod kifizetni: ${count(price, "érmébe")} kerül, és csak ${count(coins, "érméd")} van.`,
  "error.not_your_wonder": "Ez a csoda nem a tiéd.",
  "error.already_built": "Ez a csoda már elkészült.",
  "error.wonder_cap": "Már hét csoda elkészült: ebben a játszmában több csoda nem építhető.",
  "error.not_your_seat": "Csak a saját helyed nevében léphetsz.",
  "error.cannot_take_back": "Ez a lépés nem vonható vissza: nem ez volt az utolsó lépésed, vagy felfedett valamit.",

  "error.no_take_back": "Nincs függőben visszavonási kérés (lehet, hogy a játék már továbblépett).",
  "error.time_out": "Túl késő: lejárt az idő, és a játszma véget ért.",
  "error.not_abandoned": ({ cause, wait }) => {
    if (cause === "present") return "Az ellenfeled visszatért: a játszma folytatódik.";
    if (cause === "correspondence") return "A levelezési játszma az óra szerint ér véget.";
    if (cause === "computer") return "A gép sosem hagy ott egy játszmát.";
    return `Az ellenfeled csak az imént távozott: ${count(wait, "másodperc")} múlva követelheted magadnak a győzelmet.`;
  },
  "error.unknown_level": "Nincs ilyen gépi szint.",
  "error.computer_declines": "A gép nem fogad el visszavonási kérést.",
  "error.chat_empty": "Az üzenet üres.",
  "error.chat_too_long": ({ max }) => `Egy üzenet legfeljebb ${count(max, "karakterből")} állhat.`,
  "error.chat_too_fast": ({ retry_after: wait }) => `Túl sok üzenet: várj ${count(wait, "másodpercet")}.`,
  "error.chat_not_yours": ({ channel }) => (channel === "players"
    ? "A játékosok csevegésébe csak a játékosok írhatnak." : "A játékosok nem írhatnak a nézők csevegésébe."),

  // ------------------------------------------------------------ rematches
  "error.not_over": "Visszavágót a játszma vége után lehet ajánlani.",
  "error.no_offer": "Nincs elutasítható visszavágó-ajánlat.",
  "error.rematch_started": "A visszavágó már elkezdődött.",

  // ------------------------------------------------------------ requests in general
  "error.invalid_request": "A szerver nem tudta elfogadni ezt a kérést. Ellenőrizd, amit megadtál, és próbáld újra.",
  "error.method_not_allowed": "A szerver itt nem fogad ilyen kérést.",
  "error.bad_address": "A szerver nem tudja értelmezni ezt a címet: ellenőrizd, hogy jól másoltad-e ki a linket.",
  "error.http_error": ({ http_status }) => `A szerver elutasította a kérést (HTTP ${http_status}). Próbáld újra.`,

  // ------------------------------------------------------------ the admin pages
  "error.admin_disabled": "Ezen a szerveren az adminoldalak zárva vannak.",
  "error.admin_required": "Előbb jelentkezz be adminisztrátorként.",
  "error.too_many_attempts": ({ wait }) => `Túl sok sikertelen bejelentkezés: próbáld újra ${count(wait, "másodperc")} múlva.`,
  "error.bad_password": "Hibás jelszó.",
  "error.json_required": "A szerver ezt a kérést csak JSON formátumban fogadja.",
  "error.bad_json": "Ez nem érvényes JSON.",
  "error.bad_request": "A szerver nem tudta elfogadni ezt a kérést: nem ilyet küld ez az oldal.",
  "error.bad_filter": ({ field }) => (field
    ? `Érvénytelen szűrő: „${field}”.`
    : "Az egyik szűrő érvénytelen."),
  "error.bad_seq": ({ max }) => `Nincs ilyen állás: válassz egyet ${numbers.format(0)} és ${numbers.format(max)} között.`,
  "error.bad_reason": ({ cause, max }) => {
    if (cause === "length") return `Az indoklás hossza ${numbers.format(1)} és ${count(max, "karakter")} között lehet.`;
    if (cause === "control") return "Az indoklás nem tartalmazhat vezérlőkaraktert.";
    return "Az indoklást szövegként add meg.";
  },
  "error.not_running": ({ status }) => {
    if (status === "finished") return "Ez a játszma már véget ért: csak várakozó vagy folyamatban lévő játszma szakítható meg.";
    if (status === "aborted") return "Ezt a játszmát már megszakították.";
    return "Importált felvételt nem lehet megszakítani: azzal sosem játszanak.";
  },
  "error.bad_record": ({ field, seq }) => {
    if (seq) return `Ez a játszmafájl érvénytelen: hibás az egyik művelete (sorszám: ${numbers.format(seq)}).`;
    if (field) return `Ez a játszmafájl érvénytelen: hiányzik vagy hibás ez a mező: „${field}”.`;
    return "Ez nem játszmafájl: a játszmafájl az a JSON-fájl, amelyet egy játszma oldala exportál.";
  },
  "error.wrong_engine_version": ({ version, expected }) => (version
    ? `Ezt a játszmát a motor ${version} verziójával játszották; ez a szerver csak ezt a verziót játssza vissza: ${expected}.`
    : `Ezt a játszmát a motor egy másik verziójával játszották; ez a szerver csak ezt a verziót játssza vissza: ${expected}.`),
  "error.illegal_action": ({ seq }) => `A játszmafájl ${numbers.format(seq)}. műveletét a szabályok nem engedik a játszma azon pontján.`,
  "error.hash_mismatch": "A játszmafájl műveletei nem a benne rögzített végállapothoz vezetnek: módosították, vagy hiányos.",
  "error.replay_failed": ({ seq }) => `Ez a játszma már nem játszható vissza ezen a szerveren: a visszajátszás elakad (művelet: ${numbers.format(seq)}).`,

  // ------------------------------------------------------------ card options
  "reason.cannot_afford": ({ price, coins }) => `${count(price, "érmébe")} kerül; csak ${count(coins, "érméd")} van.`,
  "reason.wonder_cap": "Már hét csoda elkészült: több nem építhető.",
  "reason.not_allowed": "A szabályok ezt most nem engedik.",
};
