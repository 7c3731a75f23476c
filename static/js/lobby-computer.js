// The lobby's "Play the computer" card (docs/lobby.md): a level (weakest first, each with a
// line on how it plays), who starts and the wonders, then Play: POST /api/games/computer
// starts the game at once and the page goes to it. The choices are kept in this browser.
import { saveSeat, showError } from "./api.js";
import { LEVELS } from "./computer.js";
import { el } from "./lists.js";
import { requestKey, requestOnce } from "./once.js";
import { t } from "./words.js";

const KEPT = "duel.computer";  // the last choices: {level, first_player, wonder_selection}
const DEFAULTS = { level: "medium", first_player: "random", wonder_selection: "draft" };
const STARTS = ["random", "me", "computer"];
const WONDERS = ["draft", "first_game"];
// The form's fields by the API's names (apart from those of "Create a game" on the page).
const FIELDS = { level: "level", first_player: "computer_starts", wonder_selection: "computer_wonders" };

function kept() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEPT) ?? "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

function radio(name, value, checked, ...words) {
  return el("label", {},
    el("input", { type: "radio", name, value, checked }), " ", ...words);
}

function choices(name, legend, values, chosen, words, className) {
  const pick = values.includes(chosen) ? chosen : values[0];
  return el("fieldset", { class: className },
    el("legend", {}, legend),
    values.map((value) => radio(name, value, value === pick, ...words(value))));
}

// Fills `section` with the card. `withName(reason, action)` runs `action` once the
// browser has a player (lobby.js asks for a name first if need be); `nameLost(action)` is
// called when the server no longer knows the player (asked again, then `action`). Returns
// `start()`, which starts a game with the card's choices, as its Play button does.
export function computerCard(section, { withName, nameLost }) {
  const chosen = kept();
  const button = el("button", { type: "submit", id: "computer-play-button", class: "big" },
    t("lobby.computer.play"));
  const status = el("p", { id: "computer-status", class: "queue-status", role: "status" });
  const error = el("p", { id: "computer-error", class: "error", role: "alert", hidden: true });
  const form = el("form", { id: "computer-form", class: "computer-form" },
    choices(FIELDS.level, t("lobby.computer.level"), LEVELS, chosen.level, (level) => [
      el("span", { class: "level-name" }, t(`computer.level.${level}`)), " ",
      el("span", { class: "level-about" }, t(`lobby.computer.about.${level}`))], "computer-levels"),
    choices(FIELDS.first_player, t("lobby.computer.starts"), STARTS, chosen.first_player,
      (value) => [t(`lobby.computer.starts.${value}`)], "inline-choices"),
    choices(FIELDS.wonder_selection, t("lobby.computer.wonders"), WONDERS, chosen.wonder_selection,
      (value) => [t(`lobby.computer.wonders.${value}`)], "inline-choices"),
    button);
  section.replaceChildren(
    el("h2", { id: "computer-title" }, t("lobby.computer.title")),
    el("p", { class: "hint" }, t("lobby.computer.hint")),
    form, status, error);
  section.hidden = false;

  const body = () => {
    const data = new FormData(form);
    return Object.fromEntries(Object.entries(FIELDS).map(([name, field]) => [name, data.get(field)]));
  };
  // One key per game asked for: a lost answer is asked again with it (once.js), and the
  // server gives the same game rather than a second one. Other choices: another game.
  let key = null;
  form.addEventListener("change", () => {
    key = null;
    localStorage.setItem(KEPT, JSON.stringify(body()));
  });
  async function play() {
    error.hidden = true;
    button.disabled = true;
    status.textContent = t("lobby.computer.starting");
    key ??= requestKey();
    try {
      const started = await requestOnce("POST", "/api/games/computer", body(), key);
      key = null;
      saveSeat(started.game_id, started);
      location.assign(started.url ?? `/games/${encodeURIComponent(started.game_id)}`);
    } catch (failure) {
      status.textContent = "";
      button.disabled = false;
      if (failure?.code === "no_player") nameLost(play);
      else showError(error, failure);
    }
  }

  window.addEventListener("pageshow", () => {  // back from the game, the page kept
    button.disabled = false;
    status.textContent = "";
  });

  const start = () => withName(t("lobby.ask_name.computer"), play);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    start();
  });
  return { start };
}
