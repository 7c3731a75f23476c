// The words of the players' clocks and of time controls, in Romanian: the game page fetches
// them with its clocks (table/clocks.js), the lobby with its lists.
export default {
  "control.untimed": "fără limită de timp",
  "control.fischer": "{minutes} min + {increment} s",
  "control.correspondence": { one: "{n} zi pe mutare", few: "{n} zile pe mutare", other: "{n} de zile pe mutare" },
  "control.title": "Timp de joc: {control}",
  "clock.days": "{d} z {h} h",
  "clock.hours": "{h} h {m} min",
  "clock.label": "{name}: timp rămas {time}",
  "clock.label_running": "{name}: timp rămas {time}, ceasul merge",
};
