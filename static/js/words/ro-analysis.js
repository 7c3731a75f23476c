// Romanian for a finished game's analysis (static/js/table/analysis.js): fetched with the
// result banner on the game page (loadWords("analysis") in static/js/table/table.js) and by
// the replay page when it shows a finished game. The forms an entry may take are those of
// static/js/words.js.

const numbers = new Intl.NumberFormat("ro");
const plurals = new Intl.PluralRules("ro");

// A figure in Romanian ("1.234", "12,5"); anything else as it came.
function figure(value) {
  return typeof value === "number" ? numbers.format(value) : String(value);
}

// "1 mutare", "3 mutări", "20 de mutări".
function count(n, one, many) {
  const form = plurals.select(n);
  return form === "one" ? `${figure(n)} ${one}` : form === "few" ? `${figure(n)} ${many}` : `${figure(n)} de ${many}`;
}

export default {
  "analysis.title": "Cum a decurs partida",
  "analysis.pending": "Se analizează…",
  "analysis.progress": {
    one: "Se analizează: {read} din {n} poziție",
    few: "Se analizează: {read} din {n} poziții",
    other: "Se analizează: {read} din {n} de poziții",
  },
  "analysis.failed": "Calculatorul nu a putut analiza această partidă.",
  "analysis.too_short": "Partida este prea scurtă pentru o analiză.",
  "analysis.late": "Analiza nu este gata încă: revino mai târziu.",
  "analysis.caption": "{name}: șansa de câștig după fiecare mutare, în estimarea calculatorului.",
  "analysis.pick_hint": "Alege o mutare sau un punct din grafic ca să vezi masa de joc din acel moment.",

  // The chart
  "analysis.chart": "{name}: șansa de câștig, mutare cu mutare",
  "analysis.desc": ({ name, n, first, last, low, high }) =>
    `${name}: șansa de câștig pe parcursul a ${count(n, "mutare", "mutări")}: ${figure(first)}% la început, `
    + `${figure(last)}% după ultima mutare, între ${figure(low)}% și ${figure(high)}%.`,
  "analysis.ahead": "{name} în avantaj",
  "analysis.percent": "{n}%",
  "analysis.marked": "Mutarea {n} ({name}): șansa a scăzut cu {drop}%",

  // The mistakes
  "analysis.mistakes": "Mutările care au costat cel mai mult:",
  "analysis.no_mistakes": "Nicio greșeală mare: nicio mutare nu a schimbat mult partida.",
  "analysis.mistake": ({ n, name, drop, best }) => (best
    ? `Mutarea ${figure(n)} (${name}): șansa a scăzut cu ${figure(drop)}%; calculatorul ar fi preferat ${best}.`
    : `Mutarea ${figure(n)} (${name}): șansa a scăzut cu ${figure(drop)}%.`),

  // The move the computer preferred, from its notation (docs/engine.md): each follows
  // "calculatorul ar fi preferat …" (the computer would have preferred …).
  "analysis.move.pick": "alegerea minunii {wonder}",
  "analysis.move.build": "construirea clădirii {card}",
  "analysis.move.discard": "aruncarea cărții {card} pentru monede",
  "analysis.move.wonder": "construirea minunii {wonder} cu cartea {card}",
  "analysis.move.progress": "luarea jetonului {token}",
  "analysis.move.destroy": "aruncarea cărții {card} a adversarului",
  "analysis.move.mausoleum": "construirea cărții {card} din cele aruncate",
  "analysis.move.starter": "ca {name} să înceapă era",
};
