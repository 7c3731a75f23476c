// Serbian (Latin script) for every refusal code the server sends instead of a sentence.
// app/codes.py lists the codes and their params; tests/api/test_wire_codes.py checks that each
// has its entry in the English catalog. sr-lobby.js and sr-admin.js spread this file into their
// pages' catalogs; the game page loads it with its first refusal or card dialog
// (loadWords("server") in words.js).
//   - "error.<code>": a refusal, HTTP {"error": {"code", "params"}} or socket
//     {"type": "error", "code", "params"}; show t(`error.${code}`, params). The engine's
//     codes of an illegal move come as params.detail of "illegal", and have entries too.
//   - "reason.<code>": why a card option is not allowed (view.card_options[].build and
//     .wonders[]: {allowed: false, reason, ...figures}); show t(`reason.${reason}`, option).
// An error's English `message` is for logs and API users: pages show these entries. The
// effects of /api/catalog (effect_details: a kind and its figures) are worded in sr.js.
// Entries take the forms of words.js: a string with {placeholders}, or a function (params, t).

const numbers = new Intl.NumberFormat("sr-Latn");
const plurals = new Intl.PluralRules("sr-Latn");

// "1 novčić", "3 novčića", "16.384 bajta": the figure and the noun's form for it (Serbian
// has three: one, few, other), in the case the sentence needs.
function count(n, forms) {
  return `${numbers.format(n)} ${forms[plurals.select(n)] ?? forms.other}`;
}

const BYTES = { one: "bajt", few: "bajta", other: "bajtova" };
const CHARACTERS = { one: "znak", few: "znaka", other: "znakova" };
const CHARACTERS_OF = { one: "znaka", few: "znaka", other: "znakova" };  // after "do"
const COINS = { one: "novčić", few: "novčića", other: "novčića" };
const MINUTES = { one: "minut", few: "minuta", other: "minuta" };
const SECONDS = { one: "sekundu", few: "sekunde", other: "sekundi" };  // "za …", "sačekajte …"
const GAMES = { one: "partiju", few: "partije", other: "partija" };  // "napravili ste …"
const SPECTATORS = { one: "posmatrača", few: "posmatrača", other: "posmatrača" };  // "ima …"

// What a pending decision waits for (the view's decision.kind): "the game is waiting for …".
const AWAITED = {
  pick_wonder: "da se izabere svetsko čudo",
  play_card: "da se odigra karta",
  choose_progress: "da se izabere token progresa",
  choose_library_token: "da se izabere token progresa od onih koje je izvukla Velika biblioteka",
  destroy_card: "da se odbaci protivnikova karta",
  build_from_discard: "da se izgradi karta iz odbačenih karata",
  choose_starter: "da se izabere ko počinje sledeće doba",
};

export default {
  // ------------------------------------------------------------ reading a message
  "error.malformed": "Server nije mogao da pročita poruku sa ove stranice. Ponovo učitajte stranicu i pokušajte opet.",
  "error.unknown_type": "Server nije razumeo poruku sa ove stranice. Ponovo učitajte stranicu da biste dobili njenu najnoviju verziju.",
  "error.too_large": ({ limit }) => `To je preveliko za server: odjednom prima najviše ${count(limit, BYTES)}.`,

  // ------------------------------------------------------------ the connection
  "error.not_joined": "Ova stranica još nije povezana sa partijom. Sačekajte trenutak i pokušajte ponovo.",
  "error.already_joined": "Ova stranica je već povezana sa partijom.",
  "error.spectator": "Posmatrate ovu partiju: poteze mogu da igraju samo njena dva igrača.",
  "error.timeout": ({ cause }) => (cause === "join"
    ? "Veza se nije na vreme priključila partiji, pa je zatvorena. Stranica se sama ponovo povezuje."
    : "Veza je predugo bila bez odziva, pa je zatvorena. Stranica se sama ponovo povezuje."),
  "error.too_slow": "Ova stranica je previše zaostala za partijom, pa je veza prekinuta. Sama se ponovo povezuje i sustiže partiju.",
  "error.busy": "Server je zauzet. Ništa nije promenjeno: zahtev se ponovo šalje za trenutak.",
  "error.unavailable": "Server trenutno ne može da pristupi svojim podacima. Ništa nije promenjeno: pokušajte ponovo za trenutak.",

  // ------------------------------------------------------------ games and seats
  "error.not_found": "Takva partija ne postoji. Proverite da li je link kopiran ceo.",
  "error.bad_invite": ({ cause }) => (cause === "missing"
    ? "Ovoj partiji se pridružuje samo preko linka za poziv: zatražite link od igrača koji ju je napravio."
    : "Ovaj link za poziv ne važi za ovu partiju: zatražite novi."),
  "error.not_joinable": ({ status }) => ({
    imported: "Ova partija je zapis sačuvan radi proučavanja: niko joj se ne može pridružiti.",
    expired: "Niko se nije na vreme pridružio ovoj partiji: istekla je. Zatražite novi poziv.",
    cancelled: "Osnivač je otkazao ovu partiju: niko joj se ne može pridružiti.",
  }[status] ?? "Ova partija je poništena: niko joj se više ne može pridružiti."),
  "error.game_full": "Oba mesta u ovoj partiji su već zauzeta.",
  "error.bad_username": "Korisničko ime ima od 3 do 24 znaka: slova, cifre, - ili _.",
  "error.username_taken": "Ovo korisničko ime je zauzeto: izaberite drugo.",
  "error.weak_password": ({ cause, min, max }) => (cause === "short"
    ? `Lozinka mora imati najmanje ${count(min, CHARACTERS)}.`
    : cause === "common"
    ? "Ovu lozinku je previše lako pogoditi (česta lozinka, ponavljanje ili jednostavan obrazac): izaberi dužu i neobičniju."
    : `Lozinka može imati najviše ${count(max, CHARACTERS)}.`),
  "error.already_registered": "Ovaj pregledač je već prijavljen na nalog.",
  "error.bad_login": "Pogrešno korisničko ime ili lozinka.",
  "error.not_registered": "Prvo se prijavite na svoj nalog.",
  "error.too_many_accounts": ({ retry_after: wait }) =>
    `Previše naloga je registrovano iz vaše mreže: pokušajte ponovo za ${count(Math.ceil(wait / 60), MINUTES)}.`,
  "error.session_ended": "Ovaj nalog je odjavljen svuda: prijavite se ponovo.",
  "error.rated_needs_account": "Rejting partije se igraju između naloga: prvo se prijavite ili registrujte.",
  "error.key_reused": "Ovaj zahtev je već poslao neko drugi: pokušajte ponovo.",
  "error.too_many_games": ({ limit, retry_after: wait }) =>
    `Napravili ste ${count(limit, GAMES)} u poslednjih sat vremena: pokušajte ponovo za ${count(Math.ceil(wait / 60), MINUTES)}.`,
  "error.too_many_joins": ({ limit, retry_after: wait }) =>
    `Ušli ste u ${count(limit, GAMES)} u poslednjih sat vremena: pokušajte ponovo za ${count(Math.ceil(wait / 60), MINUTES)}.`,
  "error.too_many_sockets": "Previše veza iz vaše mreže: zatvorite neke kartice pregledača i pokušajte ponovo.",
  "error.too_many_spectators": ({ limit }) => `Ova partija već ima ${count(limit, SPECTATORS)}: pokušajte ponovo kasnije.`,
  "error.too_fast": ({ retry_after: wait }) => `Previše poruka odjednom: sačekajte ${count(wait, SECONDS)}.`,
  "error.own_game": "Već zauzimate drugo mesto u ovoj partiji.",
  "error.bad_credentials": "Ova stranica nema mesto u ovoj partiji. Otvorite partiju preko svog linka ili iz lobija.",

  // ------------------------------------------------------------ players
  "error.no_player": "Prvo izaberite ime.",
  "error.bad_name": ({ cause, max }) => {
    if (cause === "too_long") return `Ime može imati najviše ${count(max, CHARACTERS)}.`;
    if (cause === "control") return "Ime ne sme sadržati kontrolne znakove.";
    return "Ime mora imati bar jedan vidljiv znak.";
  },

  // ------------------------------------------------------------ moves
  "error.client_id_reused": "Ovaj potez je pomešan sa nekim ranijim, pa nije odigran. Pokušajte ponovo.",
  "error.not_started": "Partija još nije počela: čeka drugog igrača.",
  "error.expired": "Niko se nije na vreme pridružio ovoj partiji: istekla je.",
  "error.aborted": "Ova partija je poništena: potezi više nisu mogući.",
  "error.abort_too_late": "Oba igrača su odigrala potez: partija se više ne može poništiti. Možete se predati.",
  "error.abort_instead": "Ništa nije u igri dok oba igrača ne odigraju potez: umesto toga poništite partiju.",
  "error.imported": "Ova partija je zapis sačuvan radi proučavanja: ne može se igrati.",
  "error.game_over": "Partija je završena.",
  "error.stale_version": "Partija je odmakla pre nego što je vaš potez stigao, pa on nije odigran. Ponovo pogledajte tablu i izaberite potez.",
  "error.not_your_turn": "Niste na potezu.",
  "error.illegal": ({ detail, ...figures }, t) => (detail
    ? t(`error.${detail}`, figures)
    : "Pravila sada ne dozvoljavaju taj potez."),

  // The engine's reasons for an illegal move (params.detail of "illegal").
  "error.wrong_decision": ({ decision }) => (AWAITED[decision]
    ? `To sada nije moguće: igra čeka ${AWAITED[decision]}.`
    : "To sada nije moguće: igra čeka nešto drugo."),
  "error.not_offered": ({ wonder, token }) => {
    if (wonder) return "To svetsko čudo se sada ne može izabrati.";
    if (token) return "Taj token progresa se sada ne može izabrati.";
    return "Ta karta se sada ne može izabrati.";
  },
  "error.not_accessible": "Ta karta se ne može uzeti: pokrivena je drugim kartama, okrenuta licem nadole ili je već uzeta.",
  "error.cannot_afford": ({ price, coins }) => `Nemate dovoljno novčića: košta ${count(price, COINS)}, a imate ${count(coins, COINS)}.`,
  "error.not_your_wonder": "To svetsko čudo nije vaše.",
  "error.already_built": "To svetsko čudo je već izgrađeno.",
  "error.wonder_cap": "Već je izgrađeno sedam svetskih čuda: u ovoj partiji se više ne mogu graditi.",
  "error.not_your_seat": "Možete igrati samo za svoje mesto.",
  "error.cannot_take_back": "Ta akcija se ne može vratiti: nije bila vaša poslednja ili je nešto otkrila.",

  "error.no_take_back": "Nema zahteva za vraćanje poteza (partija je možda odmakla).",
  "error.time_out": "Prekasno: vreme je isteklo i partija je završena.",
  "error.not_abandoned": ({ cause, wait }) => {
    if (cause === "present") return "Protivnik se vratio: partija se nastavlja.";
    if (cause === "correspondence") return "Dopisna partija se završava po svom satu.";
    if (cause === "computer") return "Računar nikada ne napušta partiju.";
    return `Protivnik je otišao tek malopre: pobedu možete zatražiti za ${count(wait, SECONDS)}.`;
  },
  "error.unknown_level": "Takav nivo računara ne postoji.",
  "error.computer_declines": "Računar ne vraća poteze.",
  "error.chat_empty": "Poruka je prazna.",
  "error.chat_too_long": ({ max }) => `Poruka može imati najviše ${count(max, CHARACTERS)}.`,
  "error.chat_too_fast": ({ retry_after: wait }) => `Previše poruka: sačekajte ${count(wait, SECONDS)}.`,
  "error.chat_not_yours": ({ channel }) => (channel === "players"
    ? "U ćaskanju igrača pišu samo igrači." : "Igrači ne pišu u ćaskanju posmatrača."),

  // ------------------------------------------------------------ rematches
  "error.not_over": "Revanš se može ponuditi tek kada se partija završi.",
  "error.no_offer": "Nema ponude za revanš koju biste mogli da odbijete.",
  "error.rematch_started": "Revanš je već počeo.",

  // ------------------------------------------------------------ requests in general
  "error.invalid_request": "Server nije mogao da prihvati taj zahtev. Proverite šta ste uneli i pokušajte ponovo.",
  "error.method_not_allowed": "Server ovde ne prima takav zahtev.",
  "error.bad_address": "Server ne može da pročita tu adresu: proveri da li je link tačno kopiran.",
  "error.http_error": ({ http_status }) => `Server je odbio zahtev (HTTP ${http_status}). Pokušajte ponovo.`,

  // ------------------------------------------------------------ the admin pages
  "error.admin_disabled": "Administratorske stranice su zatvorene na ovom serveru.",
  "error.admin_required": "Prvo se prijavite kao administrator.",
  "error.too_many_attempts": ({ wait }) => `Previše neuspelih prijava: pokušajte ponovo za ${count(wait, SECONDS)}.`,
  "error.bad_password": "Pogrešna lozinka.",
  "error.json_required": "Server prima ovaj zahtev samo kao JSON.",
  "error.bad_json": "To nije ispravan JSON.",
  "error.bad_request": "Server nije mogao da prihvati taj zahtev: to nije ono što ova stranica šalje.",
  "error.bad_filter": ({ field }) => (field
    ? `Filter „${field}“ nije ispravan.`
    : "Jedan od filtera nije ispravan."),
  "error.bad_seq": ({ max }) => `Takva pozicija ne postoji: izaberite neku od ${numbers.format(0)} do ${numbers.format(max)}.`,
  "error.bad_reason": ({ cause, max }) => {
    if (cause === "length") return `Razlog mora imati od ${numbers.format(1)} do ${count(max, CHARACTERS_OF)}.`;
    if (cause === "control") return "Razlog ne sme sadržati kontrolne znakove.";
    return "Navedite razlog kao tekst.";
  },
  "error.not_running": ({ status }) => {
    if (status === "finished") return "Ova partija je već završena: prekinuti se može samo partija koja čeka ili je u toku.";
    if (status === "aborted") return "Ova partija je već prekinuta.";
    return "Uvezeni zapis se ne može prekinuti: on se nikada ne igra.";
  },
  "error.bad_record": ({ field, seq }) => {
    if (seq) return `Ovaj zapis partije nije ispravan: njegova akcija ${numbers.format(seq)} nije dobra.`;
    if (field) return `Ovaj zapis partije nije ispravan: polje „${field}“ nedostaje ili je pogrešno.`;
    return "Ovo nije zapis partije: zapis je JSON datoteka koju izvozi stranica partije.";
  },
  "error.wrong_engine_version": ({ version, expected }) => (version
    ? `Ovaj zapis je odigran na verziji motora igre ${version}; ovaj server reprodukuje samo verziju ${expected}.`
    : `Ovaj zapis je odigran na drugoj verziji motora igre; ovaj server reprodukuje samo verziju ${expected}.`),
  "error.illegal_action": ({ seq }) => `Akcija ${numbers.format(seq)} iz zapisa nije dozvoljena pravilima u tom trenutku partije.`,
  "error.hash_mismatch": "Akcije iz zapisa ne vode do konačnog stanja koje zapis navodi: zapis je izmenjen ili nepotpun.",
  "error.replay_failed": ({ seq }) => `Ova partija se više ne može reprodukovati na ovom serveru: njena akcija ${numbers.format(seq)} ne uspeva.`,

  // ------------------------------------------------------------ card options
  "reason.cannot_afford": ({ price, coins }) => `Košta ${count(price, COINS)}; imate ${count(coins, COINS)}.`,
  "reason.wonder_cap": "Već je izgrađeno sedam svetskih čuda: više se ne mogu graditi.",
  "reason.not_allowed": "Pravila to sada ne dozvoljavaju.",
};
