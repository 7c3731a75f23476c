// Hungarian for a finished game's analysis (static/js/table/analysis.js): fetched with the
// result banner on the game page (loadWords("analysis") in static/js/table/table.js) and by
// the replay page when it shows a finished game. The forms an entry may take are those of
// static/js/words.js.

const numbers = new Intl.NumberFormat("hu");

// A figure of a function entry as words.js would fill it in: numbers formatted, the rest as is.
const figure = (value) => (typeof value === "number" ? numbers.format(value) : String(value));

export default {
  "analysis.title": "A játszma menete",
  "analysis.pending": "Elemzés…",
  // A noun after a number stays singular: "58 állásból 12 kész".
  "analysis.progress": "Elemzés folyamatban: {n} állásból {read} kész",
  "analysis.failed": "A gép nem tudta elemezni ezt a játszmát.",
  "analysis.too_short": "Túl rövid az elemzéshez.",
  "analysis.late": "Az elemzés még nem készült el: nézz vissza később.",
  "analysis.caption": "{name} nyerési esélye minden lépés után, a gép megítélése szerint.",
  "analysis.pick_hint": "Válassz egy lépést vagy a grafikon egy pontját, hogy lásd az akkori állást.",

  // The chart
  "analysis.chart": "{name} nyerési esélye lépésről lépésre",
  "analysis.desc": ({ name, n, first, last, low, high }) =>
    `${name} nyerési esélye ${figure(n)} lépés során: kezdetben ${figure(first)}%, az utolsó lépés után ${figure(last)}%, `
    + `${figure(low)}% és ${figure(high)}% között.`,
  "analysis.ahead": "{name} vezet",
  "analysis.percent": "{n}%",
  "analysis.marked": "{n}. lépés ({name}): az esély {drop}%-kal csökkent",

  // The mistakes
  "analysis.mistakes": "A legtöbbe kerülő lépések:",
  "analysis.no_mistakes": "Nem volt nagy hiba: egyetlen lépés sem fordított sokat a játszmán.",
  "analysis.mistake": ({ n, name, drop, best }) => (best
    ? `${figure(n)}. lépés (${name}): az esély ${figure(drop)}%-kal csökkent; a gép ezt tartotta jobbnak: ${best}.`
    : `${figure(n)}. lépés (${name}): az esély ${figure(drop)}%-kal csökkent.`),

  // The move the computer preferred, from its notation (docs/engine.md)
  "analysis.move.pick": "{wonder} kiválasztása",
  "analysis.move.build": "{card} megépítése",
  "analysis.move.discard": "{card} eldobása érmékért",
  "analysis.move.wonder": "{wonder} megépítése ({card} felhasználásával)",
  "analysis.move.progress": "{token} megszerzése",
  "analysis.move.destroy": "{card} eldobatása",
  "analysis.move.mausoleum": "{card} megépítése a dobópakliból",
  "analysis.move.starter": "{name} kezdje a kort",
};
