// The site's statistics (templates/stats.html), from GET /api/stats: how games end, the
// first player's win rate, how long games last, and each wonder's win rates.
import { request, showError } from "./api.js";
import { el, namer } from "./lists.js";
import { catalogPath, pageWords, t } from "./words.js";

await pageWords("lobby");

const root = document.getElementById("stats-page");
const errorBox = document.getElementById("stats-error");
const KINDS = ["civilian", "military", "science", "resigned", "time", "abandoned", "shared"];

// A share or a mean, or a dash where there is nothing to count yet.
const percent = (value) => (value === null || value === undefined ? t("standings.none") : t("standings.percent", { n: value }));
const figure = (value) => (value === null || value === undefined ? t("standings.none") : t("standings.figure", { n: value }));
const cell = (text) => el("td", { class: "number" }, text);

function victories(stats) {
  document.getElementById("victory-rows").replaceChildren(...KINDS.map((kind) => {
    const row = stats.victories[kind] ?? { games: 0, percent: null };
    return el("tr", { "data-kind": kind }, el("th", { scope: "row" }, t(`standings.kind.${kind}`)),
      cell(String(row.games)), cell(percent(row.percent)));
  }));
  const first = stats.first_player;
  document.getElementById("first-player").textContent = first.decided
    ? t("stats.first_player", { rate: first.win_rate, n: first.decided }) : t("stats.first_player.none");
}

function length(stats) {
  const { actions, minutes, by_victory: byVictory } = stats.length;
  document.getElementById("length-average").textContent = stats.games
    ? t("stats.length", { moves: t("stats.moves", { n: actions }), minutes: t("stats.minutes", { n: minutes }) })
    : "";
  document.getElementById("length-rows").replaceChildren(...KINDS.filter((kind) => byVictory[kind])
    .map((kind) => el("tr", { "data-kind": kind }, el("th", { scope: "row" }, t(`standings.kind.${kind}`)),
      cell(String(byVictory[kind].games)), cell(figure(byVictory[kind].actions)), cell(figure(byVictory[kind].minutes)))));
}

// The wonders drafted most first; each with how often its holder won.
function wonders(stats, catalog) {
  const name = namer(catalog, "wonders");
  const rows = Object.entries(stats.wonders)
    .sort(([a, x], [b, y]) => y.picked - x.picked || name(a).localeCompare(name(b)));
  document.getElementById("wonder-rows").replaceChildren(...rows.map(([id, row]) => el("tr", { "data-wonder": id },
    el("th", { scope: "row" }, name(id)), cell(String(row.picked)), cell(percent(row.picked_win_rate)),
    cell(String(row.built)), cell(percent(row.built_win_rate)))));
}

async function start() {
  let stats;
  let catalog;
  try {
    [stats, catalog] = await Promise.all([request("GET", "/api/stats"), request("GET", catalogPath)]);
  } catch (error) {
    showError(errorBox, error);
    root.dataset.state = "failed";
    return;
  }
  document.getElementById("stats-games").textContent = stats.games
    ? t("stats.games", { n: stats.games }) : t("stats.empty");
  if (stats.games) {
    victories(stats);
    length(stats);
    wonders(stats, catalog);
    document.getElementById("stats-details").hidden = false;
  }
  root.dataset.state = "ready";
}

start();
