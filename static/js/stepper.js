// Stepping through a game's positions, for the replay page and the admin's game page: the
// First / Previous / Next / Last buttons, the slider, the arrow keys (Home and End too) and
// the position kept in the address (#seq=N). Positions are fetched by number, kept, and
// the next one fetched ahead; an answer that comes after a newer request is dropped.
import { html } from "htm/preact";
import { render } from "preact";
import { loadPanels, makeContext, Table } from "./table/table.js";

// The table drawn to be looked at, not played on: its dialogs (a city's details, the
// discard pile) open and its result banner folds; no card can be chosen.
export class StillBoard {
  constructor(root) {
    this.root = root;
    this.model = null;
    this.panel = null;
    this.resultFolded = true;
  }

  draw(model = this.model) {
    this.model = model;
    const ui = {
      panel: this.panel,
      resultFolded: this.resultFolded,
      openPanel: async (next) => {
        if (next) await loadPanels();
        this.panel = next;
        this.draw();
      },
      openCard: () => {},
      foldResult: (folded) => { this.resultFolded = folded; this.draw(); },
    };
    render(html`<${Table} ctx=${makeContext(model, ui)} />`, this.root);
  }
}

export class Stepper {
  // last: the number of the last position; fetch(seq): a promise of the position;
  // draw(seq, position): shows it; fail(error): shows a failure to fetch.
  constructor({ last, fetch, draw, fail }) {
    Object.assign(this, { last, fetch, draw, fail });
    this.positions = new Map();
    this.shown = null;
    this.wanted = null;
    this.slider = document.getElementById("step-slider");
    this.slider.max = String(last);
  }

  async position(seq) {
    if (!this.positions.has(seq)) this.positions.set(seq, this.fetch(seq));
    try {
      return await this.positions.get(seq);
    } catch (error) {
      this.positions.delete(seq);  // asked again next time
      throw error;
    }
  }

  async show(seq) {
    const target = Math.max(0, Math.min(this.last, seq));
    this.wanted = target;
    let found;
    try {
      found = await this.position(target);
    } catch (error) {
      this.fail(error);
      return;
    }
    if (this.wanted !== target) return;
    this.shown = target;
    this.draw(target, found);
    this.slider.value = String(target);
    this.enable();
    history.replaceState(null, "", `#seq=${target}`);
    if (target < this.last) this.position(target + 1).catch(() => {});  // the likely next step
  }

  enable() {
    for (const [id, edge] of [["step-first", 0], ["step-previous", 0], ["step-next", this.last], ["step-last", this.last]]) {
      document.getElementById(id).disabled = this.shown === edge;
    }
  }

  // A game in progress moved on to `last` (or ended there: `ended`, its last position now
  // revealed). A viewer at the latest position follows it; one looking back stays.
  grow(last, { ended = false } = {}) {
    if (last < this.last || (last === this.last && !ended)) return;
    const at = this.wanted ?? this.shown;  // a position on its way counts as shown
    const following = at === null || at === this.last;
    if (ended) this.positions.delete(last);  // fetched before the end: not revealed
    this.last = last;
    this.slider.max = String(last);
    if (following) this.show(last);
    else this.enable();
  }

  // Wires the controls; the position to start from: the address's, or the last.
  wire() {
    const steps = { "step-first": () => 0, "step-previous": () => this.shown - 1,
      "step-next": () => this.shown + 1, "step-last": () => this.last };
    for (const [id, to] of Object.entries(steps)) {
      document.getElementById(id).addEventListener("click", () => this.show(to()));
    }
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || this.shown === null) return;
      if (event.target.closest?.("input, textarea, select, dialog, [contenteditable]")) return;
      const moves = { ArrowLeft: this.shown - 1, ArrowRight: this.shown + 1, Home: 0, End: this.last };
      if (!(event.key in moves)) return;
      event.preventDefault();
      this.show(moves[event.key]);
    });
    const match = /^#seq=(\d+)$/.exec(location.hash);
    return match ? Number(match[1]) : this.last;
  }
}
