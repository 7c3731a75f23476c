// Portuguese (Brazilian) for a finished game's analysis (static/js/table/analysis.js): fetched
// with the result banner on the game page (loadWords("analysis") in static/js/table/table.js)
// and by the replay page when it shows a finished game. The forms an entry may take are those
// of static/js/words.js.

const numbers = new Intl.NumberFormat("pt");
const plurals = new Intl.PluralRules("pt");

// "1 jogada", "12 jogadas".
function moves(n) {
  return `${numbers.format(n)} ${plurals.select(n) === "one" ? "jogada" : "jogadas"}`;
}

// A percentage as the chart gives it (a whole number), "42%".
const percent = (n) => `${numbers.format(n)}%`;

export default {
  "analysis.title": "Como foi a partida",
  "analysis.pending": "Analisando…",
  "analysis.progress": {
    one: "Analisando: {read} de {n} posição",
    many: "Analisando: {read} de {n} posições",
    other: "Analisando: {read} de {n} posições",
  },
  "analysis.failed": "O computador não conseguiu analisar esta partida.",
  "analysis.too_short": "Curta demais para analisar.",
  "analysis.late": "A análise ainda não está pronta: volte mais tarde.",
  "analysis.caption": "Chance de vitória de {name} após cada jogada, segundo o computador.",
  "analysis.pick_hint": "Escolha uma jogada, ou um ponto do gráfico, para ver a mesa naquele momento.",

  // The chart
  "analysis.chart": "Chance de vitória de {name}, jogada a jogada",
  "analysis.desc": ({ name, n, first, last, low, high }) =>
    `Chance de vitória de ${name} ao longo de ${moves(n)}: ${percent(first)} no início, `
    + `${percent(last)} após a última jogada, entre ${percent(low)} e ${percent(high)}.`,
  "analysis.ahead": "{name} à frente",
  "analysis.percent": "{n}%",
  "analysis.marked": "Jogada {n} ({name}): a chance caiu {drop}%",

  // The mistakes
  "analysis.mistakes": "As jogadas que mais custaram:",
  "analysis.no_mistakes": "Nenhum erro grave: nenhuma jogada sozinha mudou muito a partida.",
  "analysis.mistake": ({ n, name, drop, best }) => (best
    ? `Jogada ${numbers.format(n)} (${name}): a chance caiu ${percent(drop)}; o computador preferia ${best}.`
    : `Jogada ${numbers.format(n)} (${name}): a chance caiu ${percent(drop)}.`),

  // The move the computer preferred, from its notation (docs/engine.md)
  "analysis.move.pick": "pegar {wonder}",
  "analysis.move.build": "construir {card}",
  "analysis.move.discard": "descartar {card} por moedas",
  "analysis.move.wonder": "construir {wonder} com {card}",
  "analysis.move.progress": "pegar {token}",
  "analysis.move.destroy": "destruir {card}",
  "analysis.move.mausoleum": "construir {card} da pilha de descarte",
  "analysis.move.starter": "deixar {name} começar a Era",
};
