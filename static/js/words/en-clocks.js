// The words of the players' clocks and of time controls: the game page fetches them with
// its clocks (table/clocks.js), the lobby with its lists.
export default {
  "control.untimed": "untimed",
  "control.fischer": "{minutes} min + {increment} s",
  "control.correspondence": { one: "{n} day per move", other: "{n} days per move" },
  "control.title": "Time control: {control}",
  "clock.days": "{d} d {h} h",
  "clock.hours": "{h} h {m} min",
  "clock.label": "{name}: {time} left",
  "clock.label_running": "{name}: {time} left, running",
};
