// Computer opponents as every page names them: "Computer · Hard", from the seat's level
// (`computer` on a seat of the game's summary), never from the name stored with the seat.
import { known, t } from "./words.js";

// The levels the server offers (POST /api/games/computer), weakest first.
export const LEVELS = ["random", "greedy", "easy", "medium", "hard"];

export function computerName(level) {
  const code = `computer.level.${level}`;
  return known(code) ? t("computer.name", { level: t(code) }) : t("computer.plain");
}

// The level of the computer holding a seat of a list's entry (docs/lobby.md), or null for
// a person.
export function seatLevel(entry, seat) {
  return entry?.seats?.[seat]?.computer ?? null;
}
