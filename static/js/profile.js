// A player's profile (templates/profile.html), from GET /api/players/{username}: the rating
// and a chart of it after each rated game (inline SVG drawn here), games by how they ended,
// the wonders drafted most and won with most, and the recent games with their replays.
import { ApiError, request, showError } from "./api.js";
import {
  ago, el, namer, playerName, ratingText, victoryText, withElements,
} from "./lists.js";
import { catalogPath, dayOf, pageWords, t } from "./words.js";

await pageWords("lobby");

const root = document.getElementById("profile-page");
const username = root.dataset.username;
const errorBox = document.getElementById("profile-error");
const chartBox = document.getElementById("rating-chart");
const KINDS = ["civilian", "military", "science", "resigned", "time", "abandoned"];
const RESULTS = { win: "won", loss: "lost", shared: "shared" };

// ------------------------------------------------------------------------------ the chart

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes ?? {})) element.setAttribute(name, String(value));
  element.append(...children.filter((child) => child !== null));
  return element;
}

const HEIGHT = 200;
const MARGIN = { left: 48, right: 16, top: 14, bottom: 28 };

// One point per rated game, evenly spaced, the rating after it; the lowest and highest
// ratings label the axis, the first and latest days the bottom. Drawn to the box's width
// in pixels, so that its words keep the page's size on a phone too.
function drawChart(profile) {
  const history = profile.history;
  if (!history.length) {
    chartBox.replaceChildren(el("p", { class: "empty" }, t("profile.chart.none")));
    return;
  }
  const width = Math.max(260, chartBox.clientWidth);
  const ratings = history.map((point) => point.rating);
  const [low, high] = [Math.min(...ratings), Math.max(...ratings)];
  const span = Math.max(high - low, 20) * 1.1;  // a flat history still gets some height
  const middle = (high + low) / 2;
  const plot = { width: width - MARGIN.left - MARGIN.right, height: HEIGHT - MARGIN.top - MARGIN.bottom };
  const y = (rating) => MARGIN.top + plot.height * (0.5 - (rating - middle) / span);
  const x = (i) => MARGIN.left + (history.length === 1 ? plot.width / 2 : (plot.width * i) / (history.length - 1));
  const label = (text, at, top, anchor) => svg("text", { x: at, y: top, "text-anchor": anchor, class: "axis-label" }, text);
  const level = (rating) => svg("g", {},
    svg("line", { x1: MARGIN.left, x2: width - MARGIN.right, y1: y(rating), y2: y(rating), class: "grid" }),
    label(String(rating), MARGIN.left - 6, y(rating) + 4, "end"));
  const days = [...new Set([history[0], history[history.length - 1]].map((point) => dayOf(point.at)))];
  const dayLabels = history.length === 1 ? [label(days[0], x(0), HEIGHT - 8, "middle")]
    : [label(days[0], MARGIN.left, HEIGHT - 8, "start"), days[1] ? label(days[1], width - MARGIN.right, HEIGHT - 8, "end") : null];
  const asText = { first: String(ratings[0]), last: String(ratings[ratings.length - 1]), low: String(low), high: String(high) };
  chartBox.replaceChildren(svg("svg", {
    width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`, role: "img", class: "chart",
    "aria-labelledby": "rating-chart-title rating-chart-desc", "data-points": history.length,
  },
  svg("title", { id: "rating-chart-title" }, t("profile.chart.title", { name: profile.name ?? profile.username })),
  svg("desc", { id: "rating-chart-desc" }, t("profile.chart.desc", { n: history.length, ...asText })),
  level(high), low !== high ? level(low) : null, ...dayLabels,
  svg("polyline", { points: history.map((point, i) => `${x(i)},${y(point.rating)}`).join(" "), class: "line" }),
  ...history.map((point, i) => svg("circle", { cx: x(i), cy: y(point.rating), r: 4, class: "point" },
    svg("title", {}, t("profile.chart.point", { n: i + 1, day: dayOf(point.at), rating: String(point.rating) }))))));
}

// ------------------------------------------------------------------------------ the rest

function head(profile) {
  document.getElementById("profile-title").textContent = profile.name && profile.name !== profile.username
    ? t("profile.plays_as", { username: profile.username, name: profile.name }) : profile.username;
  document.getElementById("profile-rating").textContent = ratingText(profile.rating, profile.provisional);
  document.getElementById("profile-deviation").textContent = profile.provisional
    ? t("profile.provisional") : t("profile.deviation", { n: profile.deviation });
  document.getElementById("profile-record").textContent = [
    t("profile.games", { n: profile.games }), t("profile.rated_games", { n: profile.rated_games }),
    t("profile.wins", { n: profile.wins }), t("profile.losses", { n: profile.losses }),
    t("profile.shared", { n: profile.shared }),
  ].join(" · ");
  document.getElementById("profile-since").textContent = profile.registered_at
    ? t("profile.since", { day: dayOf(profile.registered_at) }) : "";
}

// Won and lost by how the game ended (shared victories are counted in the head).
function results(profile) {
  document.getElementById("results-rows").replaceChildren(...KINDS.map((kind) => el("tr", { "data-kind": kind },
    el("th", { scope: "row" }, t(`standings.kind.${kind}`)),
    el("td", { class: "number" }, String(profile.results[kind]?.won ?? 0)),
    el("td", { class: "number" }, String(profile.results[kind]?.lost ?? 0)))));
}

function wonders(profile, catalog) {
  const name = namer(catalog, "wonders");
  const item = (id, words) => el("li", { "data-wonder": id },
    el("span", { class: "wonder-name" }, name(id)), " ", el("span", { class: "hint" }, words));
  const favourite = profile.favourite_wonders.map((w) => item(w.wonder, t("profile.wonder.picked", { n: w.picked })));
  const best = profile.best_wonders.map((w) => item(w.wonder, t("profile.wonder.win_rate", { rate: w.win_rate ?? 0, n: w.picked })));
  document.getElementById("favourite-wonders").replaceChildren(
    ...(favourite.length ? favourite : [el("li", { class: "empty" }, t("profile.wonders.none"))]));
  const least = profile.best_wonders_min_picks;
  document.getElementById("best-wonders-hint").textContent = t("profile.wonders.best_hint", { n: least });
  document.getElementById("best-wonders").replaceChildren(
    ...(best.length ? best : [el("li", { class: "empty" }, t("profile.wonders.no_best", { n: least }))]));
}

function recentGame(game) {
  const opponent = playerName(game.opponent, game.opponent_username);
  const against = t("lobby.mine.versus", { name: game.opponent });
  const result = RESULTS[game.result] ?? "shared";
  const change = game.rated && game.rating_change !== null
    ? el("span", {
      class: `rating-change ${game.rating_change >= 0 ? "up" : "down"}`, title: t("profile.recent.change_title"),
    }, t("profile.recent.change", { change: game.rating_change }))
    : el("span", { class: "hint" }, t("profile.recent.unrated"));
  const meta = [game.points !== null && game.points !== undefined ? t("n.points", { n: game.points }) : null,
    ago(game.finished_at)].filter(Boolean).join(" · ");
  return el("li", { class: "entry", "data-game-id": game.game_id, "data-result": game.result },
    el("div", { class: "entry-main" },
      el("span", { class: "entry-names" },
        el("strong", {}, withElements({ name: opponent }, (params) => t("lobby.mine.versus", params))), " ",
        el("span", { class: `badge result ${result}` }, t(`lobby.result.${result}`, { victory: victoryText(game.victory) }))),
      el("span", { class: "entry-meta" }, meta)),
    el("div", { class: "entry-actions" }, change,
      el("a", {
        class: "button-link", href: `/replay/${encodeURIComponent(game.game_id)}`,
        "aria-label": t("lobby.mine.replay_label", { opponent: against }),
      }, t("lobby.link.replay"))));
}

function recent(profile) {
  const games = profile.recent.map(recentGame);
  document.getElementById("recent-games").replaceChildren(
    ...(games.length ? games : [el("li", { class: "empty" }, t("profile.recent.none"))]));
}

async function start() {
  let profile;
  let catalog;
  try {
    [profile, catalog] = await Promise.all([
      request("GET", `/api/players/${encodeURIComponent(username)}`), request("GET", catalogPath)]);
  } catch (error) {
    const missing = error instanceof ApiError && error.code === "not_found";
    showError(errorBox, missing ? { message: t("profile.not_found", { username }) } : error);
    root.dataset.state = missing ? "missing" : "failed";
    return;
  }
  head(profile);
  results(profile);
  wonders(profile, catalog);
  recent(profile);
  document.getElementById("profile-summary").hidden = false;
  document.getElementById("profile-details").hidden = false;
  drawChart(profile);  // once shown: its width is the box's
  let drawnWidth = chartBox.clientWidth;
  new ResizeObserver(() => {
    if (chartBox.clientWidth === drawnWidth) return;
    drawnWidth = chartBox.clientWidth;
    drawChart(profile);
  }).observe(chartBox);
  root.dataset.state = "ready";
}

start();
