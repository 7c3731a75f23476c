// Serbian (Latin script): the words of the players' clocks and of time controls: the game page
// fetches them with its clocks (table/clocks.js), the lobby with its lists.
export default {
  "control.untimed": "bez ograničenja",
  "control.fischer": "{minutes} min + {increment} s",
  "control.correspondence": { one: "{n} dan po potezu", few: "{n} dana po potezu", other: "{n} dana po potezu" },
  "control.title": "Kontrola vremena: {control}",
  "clock.days": "{d} d {h} h",
  "clock.hours": "{h} h {m} min",
  "clock.label": "{name}: preostalo {time}",
  "clock.label_running": "{name}: preostalo {time}, sat teče",
};
