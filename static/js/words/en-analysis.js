// English for a finished game's analysis (static/js/table/analysis.js): fetched with the
// result banner on the game page (loadWords("analysis") in static/js/table/table.js) and by
// the replay page when it shows a finished game. The forms an entry may take are those of
// static/js/words.js.
export default {
  "analysis.title": "How the game went",
  "analysis.pending": "Analysing…",
  "analysis.progress": { one: "Analysing: {read} of {n} position", other: "Analysing: {read} of {n} positions" },
  "analysis.failed": "The computer could not analyse this game.",
  "analysis.too_short": "Too short to analyse.",
  "analysis.late": "The analysis is not ready yet: look again later.",
  "analysis.caption": "{name}'s chance of winning after each move, as the computer judges it.",
  "analysis.pick_hint": "Choose a move, or a point of the chart, to see the table then.",

  // The chart
  "analysis.chart": "{name}'s chance of winning, move by move",
  "analysis.desc": ({ name, n, first, last, low, high }) =>
    `${name}'s chance of winning over ${n} ${n === 1 ? "move" : "moves"}: ${first}% at the start, ${last}% after the last move, `
    + `between ${low}% and ${high}%.`,
  "analysis.ahead": "{name} ahead",
  "analysis.percent": "{n}%",
  "analysis.marked": "Move {n} ({name}): chance fell by {drop}%",

  // The mistakes
  "analysis.mistakes": "The moves that cost most:",
  "analysis.no_mistakes": "No big mistake: no single move changed the game much.",
  "analysis.mistake": ({ n, name, drop, best }) => (best
    ? `Move ${n} (${name}): chance fell by ${drop}%; the computer preferred ${best}.`
    : `Move ${n} (${name}): chance fell by ${drop}%.`),

  // The move the computer preferred, from its notation (docs/engine.md)
  "analysis.move.pick": "taking {wonder}",
  "analysis.move.build": "building {card}",
  "analysis.move.discard": "discarding {card} for coins",
  "analysis.move.wonder": "building {wonder} with {card}",
  "analysis.move.progress": "taking {token}",
  "analysis.move.destroy": "destroying {card}",
  "analysis.move.mausoleum": "building {card} from the discard pile",
  "analysis.move.starter": "letting {name} start the age",
};
