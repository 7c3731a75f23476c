// The words of the players' clocks and of time controls, in Hungarian: the game page fetches
// them with its clocks (table/clocks.js), the lobby with its lists.
export default {
  "control.untimed": "időkorlát nélkül",
  "control.fischer": "{minutes} perc + {increment} mp",
  "control.correspondence": { one: "{n} nap lépésenként", other: "{n} nap lépésenként" },
  "control.title": "Időkorlát: {control}",
  "clock.days": "{d} nap {h} óra",
  "clock.hours": "{h} óra {m} perc",
  "clock.label": "{name}: {time} maradt",
  "clock.label_running": "{name}: {time} maradt, az óra jár",
};
