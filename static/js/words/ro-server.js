// Romanian for every refusal code the server sends instead of a sentence. app/codes.py lists
// the codes and their params; tests/api/test_wire_codes.py checks that each has its entry
// here. ro-lobby.js and ro-admin.js spread this file into their pages' catalogs; the game
// page loads it with its first refusal or card dialog (loadWords("server") in words.js).
//   - "error.<code>": a refusal, HTTP {"error": {"code", "params"}} or socket
//     {"type": "error", "code", "params"}; show t(`error.${code}`, params). The engine's
//     codes of an illegal move come as params.detail of "illegal", and have entries too.
//   - "reason.<code>": why a card option is not allowed (view.card_options[].build and
//     .wonders[]: {allowed: false, reason, ...figures}); show t(`reason.${reason}`, option).
// An error's English `message` is for logs and API users: pages show these entries. The
// effects of /api/catalog (effect_details: a kind and its figures) are worded in ro.js.
// Entries take the forms of words.js: a string with {placeholders}, or a function (params, t).

const numbers = new Intl.NumberFormat("ro");
const plurals = new Intl.PluralRules("ro");

// "1 monedă", "3 monede", "20 de monede", "16.384 de octeți": Romanian takes "de" before the
// noun in the "other" plural form (20 and up, except 101–119 and the like).
function count(n, one, many) {
  const form = plurals.select(n);
  if (form === "one") return `${numbers.format(n)} ${one}`;
  if (form === "few") return `${numbers.format(n)} ${many}`;
  return `${numbers.format(n)} de ${many}`;
}

const coins = (n) => count(n, "monedă", "monede");
const characters = (n) => count(n, "caracter", "caractere");
const minutes = (n) => count(n, "minut", "minute");
const seconds = (n) => count(n, "secundă", "secunde");
const games = (n) => count(n, "partidă", "partide");

// What a pending decision waits for (the view's decision.kind).
const AWAITED = {
  pick_wonder: "alegerea unei minuni",
  play_card: "jucarea unei cărți",
  choose_progress: "alegerea unui jeton de progres",
  choose_library_token: "alegerea unui jeton de progres dintre cele trase cu Marea Bibliotecă",
  destroy_card: "aruncarea unei cărți a adversarului",
  build_from_discard: "construirea unei cărți dintre cele aruncate",
  choose_starter: "alegerea jucătorului care începe era următoare",
};

export default {
  // ------------------------------------------------------------ reading a message
  "error.malformed": "Serverul nu a putut citi un mesaj de la această pagină. Reîncarcă pagina și încearcă din nou.",
  "error.unknown_type": "Serverul nu a înțeles un mesaj de la această pagină. Reîncarcă pagina ca să primești ultima ei versiune.",
  "error.too_large": ({ limit }) => `Mesajul este prea mare pentru server: acceptă cel mult ${count(limit, "octet", "octeți")} o dată.`,

  // ------------------------------------------------------------ the connection
  "error.not_joined": "Această pagină nu este încă conectată la partidă. Așteaptă puțin și încearcă din nou.",
  "error.already_joined": "Această pagină este deja conectată la partidă.",
  "error.spectator": "Urmărești această partidă: doar cei doi jucători ai ei pot face mutări.",
  "error.timeout": ({ cause }) => (cause === "join"
    ? "Conexiunea nu a intrat la timp în partidă și a fost închisă. Pagina se reconectează singură."
    : "Conexiunea a stat prea mult fără activitate și a fost închisă. Pagina se reconectează singură."),
  "error.too_slow": "Această pagină a rămas prea mult în urma partidei și a fost deconectată. Se reconectează și recuperează singură.",
  "error.busy": "Serverul este ocupat. Nu s-a schimbat nimic: mesajul se retrimite imediat.",
  "error.unavailable": "Serverul nu își poate accesa datele în acest moment. Nu s-a schimbat nimic: încearcă din nou imediat.",

  // ------------------------------------------------------------ games and seats
  "error.not_found": "Această partidă nu există. Verifică dacă linkul a fost copiat întreg.",
  "error.bad_invite": ({ cause }) => (cause === "missing"
    ? "În această partidă se intră doar cu linkul de invitație: cere linkul jucătorului care a creat-o."
    : "Acest link de invitație nu este valabil pentru această partidă: cere unul nou."),
  "error.not_joinable": ({ status }) => ({
    imported: "Această partidă este o înregistrare păstrată pentru studiu: nu se poate intra în ea.",
    expired: "Nu a intrat nimeni la timp în această partidă: a expirat. Cere o invitație nouă.",
    cancelled: "Creatorul a renunțat la această partidă: nimeni nu mai poate intra în ea.",
  }[status] ?? "Această partidă a fost anulată: nimeni nu mai poate intra în ea."),
  "error.game_full": "Ambele locuri ale acestei partide sunt deja ocupate.",
  "error.bad_username": "Un nume de utilizator are între 3 și 24 de litere, cifre, - sau _.",
  "error.username_taken": "Acest nume de utilizator este deja luat: alege altul.",
  "error.weak_password": ({ cause, min, max }) => (cause === "short"
    ? `O parolă are cel puțin ${characters(min)}.`
    : cause === "common"
    ? "Această parolă e prea ușor de ghicit (una des folosită, o repetiție sau un tipar simplu): alege una mai lungă și mai puțin obișnuită."
    : `O parolă are cel mult ${characters(max)}.`),
  "error.already_registered": "Acest browser este deja autentificat într-un cont.",
  "error.bad_login": "Nume de utilizator sau parolă greșită.",
  "error.not_registered": "Autentifică-te mai întâi în contul tău.",
  "error.too_many_accounts": ({ retry_after: wait }) =>
    `Prea multe conturi create din rețeaua ta: încearcă din nou peste ${minutes(Math.ceil(wait / 60))}.`,
  "error.session_ended": "Acest cont a fost deconectat peste tot: autentifică-te din nou.",
  "error.rated_needs_account": "Partidele cu rating se joacă între conturi: autentifică-te sau creează un cont mai întâi.",
  "error.key_reused": "Această cerere a fost deja făcută de altcineva: încearcă din nou.",
  "error.too_many_games": ({ limit, retry_after: wait }) =>
    `Ai creat ${games(limit)} în ultima oră: încearcă din nou peste ${minutes(Math.ceil(wait / 60))}.`,
  "error.too_many_joins": ({ limit, retry_after: wait }) =>
    `Ai intrat în ${games(limit)} în ultima oră: încearcă din nou peste ${minutes(Math.ceil(wait / 60))}.`,
  "error.too_many_sockets": "Prea multe conexiuni din rețeaua ta: închide câteva file și încearcă din nou.",
  "error.too_many_spectators": ({ limit }) => `Această partidă are deja ${count(limit, "spectator", "spectatori")}: încearcă din nou mai târziu.`,
  "error.too_fast": ({ retry_after: wait }) => `Prea multe mesaje deodată: așteaptă ${seconds(wait)}.`,
  "error.own_game": "Ocupi deja celălalt loc al acestei partide.",
  "error.bad_credentials": "Această pagină nu ocupă niciun loc în această partidă. Deschide partida din linkul tău sau din lobby.",

  // ------------------------------------------------------------ players
  "error.no_player": "Alege mai întâi un nume.",
  "error.bad_name": ({ cause, max }) => {
    if (cause === "too_long") return `Un nume are cel mult ${characters(max)}.`;
    if (cause === "control") return "Un nume nu poate conține caractere de control.";
    return "Un nume are nevoie de cel puțin un caracter vizibil.";
  },

  // ------------------------------------------------------------ moves
  "error.client_id_reused": "Această mutare a fost confundată cu una anterioară și nu a fost jucată. Încearcă din nou.",
  "error.not_started": "Partida nu a început încă: se așteaptă al doilea jucător.",
  "error.expired": "Nu a intrat nimeni la timp în această partidă: a expirat.",
  "error.aborted": "Această partidă a fost anulată: nu se mai pot face mutări.",
  "error.abort_too_late": "Ambii jucători au făcut o mutare: partida nu mai poate fi anulată. Poți abandona în schimb.",
  "error.abort_instead": "Nu e nimic în joc până nu fac ambii jucători o mutare: anulează partida în schimb.",
  "error.imported": "Această partidă este o înregistrare păstrată pentru studiu: nu poate fi jucată.",
  "error.game_over": "Partida s-a încheiat.",
  "error.stale_version": "Partida a mers mai departe înainte să ajungă mutarea ta, așa că nu a fost jucată. Uită-te din nou la masă și alege-ți mutarea.",
  "error.not_your_turn": "Nu este rândul tău.",
  "error.illegal": ({ detail, ...figures }, t) => (detail
    ? t(`error.${detail}`, figures)
    : "Regulile nu permit această mutare acum."),

  // The engine's reasons for an illegal move (params.detail of "illegal").
  "error.wrong_decision": ({ decision }) => (AWAITED[decision]
    ? `Nu se poate acum: partida așteaptă ${AWAITED[decision]}.`
    : "Nu se poate acum: partida așteaptă altceva."),
  "error.not_offered": ({ wonder, token }) => {
    if (wonder) return "Această minune nu poate fi aleasă acum.";
    if (token) return "Acest jeton de progres nu poate fi ales acum.";
    return "Această carte nu poate fi aleasă acum.";
  },
  "error.not_accessible": "Această carte nu poate fi luată: este acoperită de alte cărți, este cu fața în jos sau a fost deja luată.",
  "error.cannot_afford": ({ price, coins: have }) => `Nu îți permiți: costă ${coins(price)}, iar tu ai ${coins(have)}.`,
  "error.not_your_wonder": "Această minune nu este a ta.",
  "error.already_built": "Această minune este deja construită.",
  "error.wonder_cap": "Șapte minuni sunt deja construite: în această partidă nu se mai pot construi minuni.",
  "error.not_your_seat": "Poți acționa doar pentru propriul tău loc.",
  "error.cannot_take_back": "Această acțiune nu poate fi anulată: nu a fost ultima ta acțiune sau a dezvăluit ceva.",

  "error.no_take_back": "Nu există nicio cerere de anulare a mutării (poate partida a mers mai departe).",
  "error.time_out": "Prea târziu: timpul a expirat și partida s-a încheiat.",
  "error.not_abandoned": ({ cause, wait }) => {
    if (cause === "present") return "Adversarul tău a revenit: partida continuă.";
    if (cause === "correspondence") return "O partidă prin corespondență se încheie prin ceasul ei.";
    if (cause === "computer") return "Calculatorul nu părăsește niciodată o partidă.";
    return `Adversarul tău a plecat abia acum: poți revendica victoria peste ${seconds(wait)}.`;
  },
  "error.unknown_level": "Nu există acest nivel al calculatorului.",
  "error.computer_declines": "Calculatorul nu acceptă anularea mutărilor.",
  "error.chat_empty": "Mesajul este gol.",
  "error.chat_too_long": ({ max }) => `Un mesaj are cel mult ${characters(max)}.`,
  "error.chat_too_fast": ({ retry_after: wait }) => `Prea multe mesaje: așteaptă ${seconds(wait)}.`,
  "error.chat_not_yours": ({ channel }) => (channel === "players"
    ? "Doar jucătorii scriu în chatul jucătorilor." : "Jucătorii nu scriu în chatul spectatorilor."),

  // ------------------------------------------------------------ rematches
  "error.not_over": "O revanșă poate fi propusă după ce partida s-a încheiat.",
  "error.no_offer": "Nu există nicio propunere de revanșă de refuzat.",
  "error.rematch_started": "Revanșa a început deja.",

  // ------------------------------------------------------------ requests in general
  "error.invalid_request": "Serverul nu a putut accepta această cerere. Verifică ce ai introdus și încearcă din nou.",
  "error.method_not_allowed": "Serverul nu acceptă această cerere aici.",
  "error.bad_address": "Serverul nu poate citi această adresă: verifică dacă linkul a fost copiat corect.",
  "error.http_error": ({ http_status }) => `Serverul a refuzat cererea (HTTP ${http_status}). Încearcă din nou.`,

  // ------------------------------------------------------------ the admin pages
  "error.admin_disabled": "Paginile de administrare sunt închise pe acest server.",
  "error.admin_required": "Autentifică-te mai întâi ca administrator.",
  "error.too_many_attempts": ({ wait }) => `Prea multe autentificări eșuate: încearcă din nou peste ${seconds(wait)}.`,
  "error.bad_password": "Parolă greșită.",
  "error.json_required": "Serverul acceptă această cerere doar ca JSON.",
  "error.bad_json": "Acesta nu este JSON valid.",
  "error.bad_request": "Serverul nu a putut accepta această cerere: nu este ce trimite această pagină.",
  "error.bad_filter": ({ field }) => (field
    ? `Filtrul „${field}” nu este valid.`
    : "Unul dintre filtre nu este valid."),
  "error.bad_seq": ({ max }) => `Această poziție nu există: alege una de la 0 la ${numbers.format(max)}.`,
  "error.bad_reason": ({ cause, max }) => {
    if (cause === "length") return `Un motiv are între 1 și ${characters(max)}.`;
    if (cause === "control") return "Un motiv nu poate conține caractere de control.";
    return "Scrie motivul ca text.";
  },
  "error.not_running": ({ status }) => {
    if (status === "finished") return "Această partidă s-a încheiat deja: doar o partidă în așteptare sau în desfășurare poate fi oprită.";
    if (status === "aborted") return "Această partidă a fost deja oprită.";
    return "O înregistrare importată nu poate fi oprită: nu se joacă niciodată.";
  },
  "error.bad_record": ({ field, seq }) => {
    if (seq) return `Această înregistrare de partidă nu este validă: acțiunea nr. ${numbers.format(seq)} nu este corectă.`;
    if (field) return `Această înregistrare de partidă nu este validă: câmpul „${field}” lipsește sau este greșit.`;
    return "Aceasta nu este o înregistrare de partidă: o înregistrare este fișierul JSON exportat de pagina unei partide.";
  },
  "error.wrong_engine_version": ({ version, expected }) => (version
    ? `Această înregistrare a fost jucată cu versiunea ${version} a motorului; acest server reia doar versiunea ${expected}.`
    : `Această înregistrare a fost jucată cu o altă versiune a motorului; acest server reia doar versiunea ${expected}.`),
  "error.illegal_action": ({ seq }) => `Acțiunea nr. ${numbers.format(seq)} a înregistrării nu este permisă de reguli în acel moment al partidei.`,
  "error.hash_mismatch": "Acțiunile înregistrării nu duc la starea finală pe care o declară: a fost modificată sau este incompletă.",
  "error.replay_failed": ({ seq }) => `Această partidă nu mai poate fi reluată pe acest server: acțiunea nr. ${numbers.format(seq)} eșuează.`,

  // ------------------------------------------------------------ card options
  "reason.cannot_afford": ({ price, coins: have }) => `costă ${coins(price)}; tu ai ${coins(have)}.`,
  "reason.wonder_cap": "șapte minuni sunt deja construite și nu se mai pot construi altele.",
  "reason.not_allowed": "regulile nu permit asta acum.",
};
