// The replay page: a game's positions, each as a spectator saw it then, stepped through
// (stepper.js); the last one of a finished game with everything revealed (docs/records.md).
// A game in progress is followed live: its new moves are added as they are played. A
// finished game shows its analysis (table/analysis.js): a mistake, or a point of its chart,
// steps to that position.
import { html } from "htm/preact";
import { render } from "preact";
import { request, showError } from "./api.js";
import { computerName } from "./computer.js";
import { Socket } from "./socket.js";
import { StillBoard, Stepper } from "./stepper.js";
import { catalogPath, loadWords, pageWords, t } from "./words.js";

await pageWords("lobby");

const root = document.getElementById("replay");
const gameId = root.dataset.gameId;
const path = `/api/games/${encodeURIComponent(gameId)}`;
const boardRoot = document.getElementById("replay-board");
const label = document.getElementById("step-label");
const stepError = document.getElementById("step-error");
const board = new StillBoard(boardRoot);
const analysisPanel = document.getElementById("analysis-panel");
let analysis = null;  // once fetched: { Analysis, stepper, names, catalog, end }

async function start() {
  let summary;
  let catalog;
  try {
    [summary, catalog] = await Promise.all([request("GET", path), request("GET", catalogPath)]);
  } catch (error) {
    showError(stepError, error);
    root.querySelector(".steps").hidden = true;  // nothing to step through
    return;
  }
  const names = summary.seats.map((seat) => (seat.computer ? computerName(seat.computer)
    : seat.name ?? t("player.default", { n: seat.seat + 1 })));
  const last = summary.version;
  if (summary.status === "finished") showRecordLinks();
  const finished = () => showAnalysis(stepper, names, catalog);
  const stepper = new Stepper({
    last,
    fetch: (seq) => request("GET", `${path}/positions/${seq}`),
    fail: (error) => showError(stepError, error),
    draw: (seq, position) => {
      stepError.hidden = true;
      board.draw({ view: position.view, seat: null, catalog, names, lastMove: null });
      // stepper.last: a game followed live grows.
      label.textContent = position.revealed ? t("replay.revealed")
        : seq ? t("replay.after", { n: seq, last: stepper.last }) : t("replay.setup", { n: stepper.last });
      root.dataset.seq = String(seq);
      drawAnalysis();
    },
  });
  await stepper.show(stepper.wire());
  if (summary.status === "finished") finished();
  if (summary.status === "active") follow(stepper, finished);
}

// The analysis and its words are fetched once the game is known to be over, with the
// summary as it is then (the last version and the winner close the chart's line).
function showAnalysis(stepper, names, catalog) {
  const asked = [import("./table/analysis.js"), loadWords("analysis"), request("GET", path)];
  Promise.all(asked).then(([module, , now]) => {
    const end = { version: now.version, winner: now.winner ?? null };
    analysis = { Analysis: module.Analysis, stepper, names, catalog, end };
    drawAnalysis();
  }, () => {});  // the replay is whole without it
}

function drawAnalysis() {
  if (!analysis) return;
  const { Analysis, stepper, names, catalog, end } = analysis;
  analysisPanel.hidden = false;
  render(html`<${Analysis} gameId=${gameId} names=${names} catalog=${catalog} end=${end} heading="h2"
    at=${stepper.shown} onPick=${(seq) => stepper.show(seq)} />`, analysisPanel);
}

// A game in progress: the page watches it as a spectator on the game socket, and each
// move heard adds its position (fetched as any other, so the same spectator's view).
function follow(stepper, finished) {
  const live = document.getElementById("live-mark");
  live.hidden = false;
  const connection = new Socket(`/ws/games/${encodeURIComponent(gameId)}`, {
    onOpen: () => connection.send({ type: "join" }),
    onStateChange: (state) => { live.dataset.state = state; },
    onMessage: (message) => {
      if (message.type === "welcome") connection.ready();
      if (message.type === "aborted" || message.type === "expired") {  // nothing more to come
        live.hidden = true;
        connection.stop();
        return;
      }
      if (!["welcome", "update", "state"].includes(message.type)) return;
      const ended = Boolean(message.view?.outcome);
      stepper.grow(message.version, { ended });
      if (ended) {
        live.hidden = true;
        connection.stop();
        showRecordLinks();
        finished();
      }
    },
  });
  connection.start();
}

function showRecordLinks() {
  document.getElementById("record-json").href = `${path}/record`;
  document.getElementById("record-text").href = `${path}/record?format=text`;
  document.getElementById("record-links").hidden = false;
}

start();
