// Portuguese (Brazilian): the words of the players' clocks and of time controls: the game
// page fetches them with its clocks (table/clocks.js), the lobby with its lists.
export default {
  "control.untimed": "sem limite de tempo",
  "control.fischer": "{minutes} min + {increment} s",
  "control.correspondence": { one: "{n} dia por jogada", many: "{n} dias por jogada", other: "{n} dias por jogada" },
  "control.title": "Controle de tempo: {control}",
  "clock.days": "{d} d {h} h",
  "clock.hours": "{h} h {m} min",
  "clock.label": "{name}: restam {time}",
  "clock.label_running": "{name}: restam {time}, relógio correndo",
};
