// The admin's game page: the log in words, and the board after any action with every
// hidden card shown (positions come from /admin/api/games/{id}/positions/{seq}).
import { request, scriptReady, showError } from "./api.js";
import { actionWords, renderHidden, say, seatNames } from "./admin.js";
import { moveSentences } from "./table/describe.js";
import { StillBoard, Stepper } from "./stepper.js";
import { makeContext } from "./table/table.js";
import { catalogPath, t } from "./words.js";

const root = document.getElementById("admin-game");
const data = JSON.parse(document.getElementById("admin-game-data").textContent);
const boardRoot = document.getElementById("admin-board");
const hiddenBody = document.getElementById("hidden-body");
const label = document.getElementById("step-label");
const stepError = document.getElementById("step-error");

const gameId = data.game_id;
const last = data.log.length;
const names = seatNames(data.players);
let catalog = null;
const board = new StillBoard(boardRoot);

const stepper = new Stepper({
  last,
  fetch: (seq) => request("GET", `/admin/api/games/${encodeURIComponent(gameId)}/positions/${seq}`),
  draw,
  fail: (error) => showError(stepError, error),
});

function draw(target, found) {
  stepError.hidden = true;
  const move = found.move;
  const lastMove = move ? { seat: move.seat, notation: move.notation, events: move.events } : null;
  board.draw({ view: found.view, seat: null, catalog, names, lastMove });
  renderHidden(hiddenBody, found.view.hidden, names, catalog);
  label.textContent = move
    ? t("admin.step.after", { n: target, last, action: actionWords(move.action, move.seat, names, catalog) })
    : t("admin.step.setup", { last });
  for (const row of document.querySelectorAll("#log-table tr[data-seq]")) {
    if (Number(row.dataset.seq) === target) row.setAttribute("aria-current", "step");
    else row.removeAttribute("aria-current");
  }
  root.dataset.seq = String(target);
}

function describeLog() {
  const ctx = makeContext({ view: {}, seat: null, catalog, names });
  for (const entry of data.log) {
    const words = document.querySelector(`.action-words[data-seq="${entry.seq}"]`);
    if (words) words.textContent = actionWords(entry.action, entry.seat, names, catalog);
    const list = document.querySelector(`.event-words[data-seq="${entry.seq}"]`);
    if (!list) continue;
    list.replaceChildren(...moveSentences(ctx, entry.events).map((sentence) => {
      const item = document.createElement("li");
      item.textContent = sentence;
      return item;
    }));
  }
}

function wire() {
  for (const button of document.querySelectorAll("button.step-to")) {
    button.addEventListener("click", () => {
      stepper.show(Number(button.dataset.seq));
      boardRoot.scrollIntoView({ block: "start" });
    });
  }

  const abortForm = document.getElementById("abort-form");
  abortForm?.addEventListener("submit", async (event) => {
    event.preventDefault();
    const errorBox = document.getElementById("abort-error");
    const reason = document.getElementById("abort-reason").value.trim();
    if (!reason) {
      say(errorBox, t("admin.abort.no_reason"));
      return;
    }
    if (!window.confirm(t("admin.abort.confirm", { game: gameId, reason }))) return;
    try {
      await request("POST", `/admin/api/games/${encodeURIComponent(gameId)}/abort`, { reason });
      location.reload();
    } catch (error) {
      showError(errorBox, error);
    }
  });
  scriptReady();
}

async function start() {
  const first = stepper.wire();
  wire();
  try {
    catalog = await request("GET", catalogPath);
  } catch (error) {
    showError(stepError, error);
  }
  describeLog();
  await stepper.show(first);
}

start();
