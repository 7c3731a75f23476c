// Serbian (Latin script) for a finished game's analysis (static/js/table/analysis.js): fetched
// with the result banner on the game page (loadWords("analysis") in static/js/table/table.js)
// and by the replay page when it shows a finished game. The forms an entry may take are those
// of static/js/words.js.
const numbers = new Intl.NumberFormat("sr-Latn");
const figure = (n) => numbers.format(n);

export default {
  "analysis.title": "Kako je tekla partija",
  "analysis.pending": "Analiza u toku…",
  // "od" takes the genitive: "od 1 / 21 / 3 pozicije", "od 5 / 58 pozicija".
  "analysis.progress": {
    one: "Analiza u toku: {read} od {n} pozicije",
    few: "Analiza u toku: {read} od {n} pozicije",
    other: "Analiza u toku: {read} od {n} pozicija",
  },
  "analysis.failed": "Računar nije uspeo da analizira ovu partiju.",
  "analysis.too_short": "Prekratko za analizu.",
  "analysis.late": "Analiza još nije spremna: pogledajte ponovo kasnije.",
  "analysis.caption": "Šansa za pobedu igrača {name} posle svakog poteza, po proceni računara.",
  "analysis.pick_hint": "Izaberite potez ili tačku na grafikonu da biste videli tadašnju tablu.",

  // The chart
  "analysis.chart": "Šansa za pobedu igrača {name}, potez po potez",
  "analysis.desc": ({ name, n, first, last, low, high }) =>
    `Šansa za pobedu igrača ${name} tokom ${figure(n)} poteza: ${figure(first)}% na početku, `
    + `${figure(last)}% posle poslednjeg poteza, između ${figure(low)}% i ${figure(high)}%.`,
  "analysis.ahead": "{name} vodi",
  "analysis.percent": "{n}%",
  "analysis.marked": "Potez {n} ({name}): šansa je pala za {drop}%",

  // The mistakes
  "analysis.mistakes": "Potezi koji su najviše koštali:",
  "analysis.no_mistakes": "Bez velikih grešaka: nijedan potez nije mnogo promenio tok partije.",
  "analysis.mistake": ({ n, name, drop, best }) => (best
    ? `Potez ${figure(n)} (${name}): šansa je pala za ${figure(drop)}%; računar predlaže: ${best}.`
    : `Potez ${figure(n)} (${name}): šansa je pala za ${figure(drop)}%.`),

  // The move the computer preferred, from its notation (docs/engine.md)
  "analysis.move.pick": "uzimanje čuda {wonder}",
  "analysis.move.build": "gradnja karte {card}",
  "analysis.move.discard": "prodaja karte {card} za novčiće",
  "analysis.move.wonder": "gradnja čuda {wonder} pomoću karte {card}",
  "analysis.move.progress": "uzimanje tokena {token}",
  "analysis.move.destroy": "odbacivanje karte {card}",
  "analysis.move.mausoleum": "gradnja karte {card} iz odbačenih karata",
  "analysis.move.starter": "da {name} počne doba",
};
