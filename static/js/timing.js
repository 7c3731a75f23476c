// Times as the pages write them: what a clock shows, and a time control (the game's clocks,
// static/js/table/clocks.js, and the lobby's lists). Their words: words/en-clocks.js.
import { t } from "./words.js";

const pad = (n) => String(n).padStart(2, "0");

// 4:05, 0:09.3 in the last 20 seconds, 3 h 20 min, 2 d 5 h.
export function clockText(ms) {
  const left = Math.max(0, ms);
  if (left >= 86_400_000) return t("clock.days", { d: Math.floor(left / 86_400_000), h: Math.floor(left / 3_600_000) % 24 });
  if (left >= 3_600_000) return t("clock.hours", { h: Math.floor(left / 3_600_000), m: Math.floor(left / 60_000) % 60 });
  if (left < 20_000) return `0:${pad(Math.floor(left / 1000))}.${Math.floor(left / 100) % 10}`;
  const seconds = Math.ceil(left / 1000);
  return `${Math.floor(seconds / 60)}:${pad(seconds % 60)}`;
}

export function controlText(control) {
  if (!control) return t("control.untimed");
  if (control.kind === "correspondence") return t("control.correspondence", { n: control.days });
  return t("control.fischer", control);
}
