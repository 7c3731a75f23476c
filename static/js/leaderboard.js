// The leaderboard (templates/leaderboard.html): one page of GET /api/leaderboard, the page
// number in the address (?page=) so that each page has its own link.
import { request, showError } from "./api.js";
import { el, playerName, ratingText } from "./lists.js";
import { pageWords, t } from "./words.js";

await pageWords("lobby");

const root = document.getElementById("leaderboard-page");
const rows = document.getElementById("leaderboard-rows");
const table = document.getElementById("leaderboard");
const empty = document.getElementById("leaderboard-empty");
const note = document.getElementById("leaderboard-note");
const errorBox = document.getElementById("leaderboard-error");
const previous = document.getElementById("page-previous");
const next = document.getElementById("page-next");
const pageLabel = document.getElementById("page-label");

// Anything but a whole number from 1 reads as the first page.
function pageAsked() {
  const page = Number(new URLSearchParams(location.search).get("page"));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

function pageLink(link, page, shown) {
  link.hidden = !shown;
  if (shown) link.href = `?page=${page}`;
}

function draw(board) {
  note.textContent = t("leaderboard.note", { n: board.min_games });
  rows.replaceChildren(...board.players.map((player) => el("tr", { "data-username": player.username },
    el("td", { class: "number" }, String(player.rank)),
    el("th", { scope: "row" }, playerName(player.username, player.username)),
    el("td", { class: "number rating", title: player.provisional ? t("rating.provisional") : null },
      ratingText(player.rating, player.provisional)),
    el("td", { class: "number" }, String(player.games)))));
  table.hidden = !board.players.length;
  empty.hidden = Boolean(board.players.length);
  empty.textContent = t(board.total ? "leaderboard.empty_page" : "leaderboard.empty");
  pageLabel.textContent = board.players.length
    ? t("leaderboard.page", { page: board.page, pages: board.pages, n: board.total }) : "";
  pageLink(previous, Math.min(board.page - 1, board.pages), board.page > 1);
  pageLink(next, board.page + 1, board.page < board.pages);
  root.dataset.page = String(board.page);
}

async function start() {
  try {
    draw(await request("GET", `/api/leaderboard?page=${pageAsked()}`));
    root.dataset.state = "ready";
  } catch (error) {
    showError(errorBox, error);
    root.dataset.state = "failed";
  }
}

start();
