// The buttons that send an action (the draft, the prompts, a card's options).
import { html } from "htm/preact";
import { Hidden } from "./cards.js";

// A button that sends a legal action: enabled only on the viewer's turn when the action is
// legal now. data-action carries its notation.
export function ActionButton({ ctx, notation, fallback, label, className = "", describedby, children }) {
  const entry = ctx.legal.get(notation);
  const allowed = ctx.myTurn && Boolean(entry);
  const action = entry?.action ?? fallback;
  return html`<button type="button" class=${`bd-action ${className}`.trim()} data-action=${notation} data-focus-key=${notation}
      disabled=${!allowed} aria-describedby=${describedby} onClick=${() => {
        if (!allowed) return;
        ctx.ui.openPanel(null);
        ctx.act(action);
      }}>${label ? html`<span class="bd-face" aria-hidden="true">${children}</span><${Hidden}>${label}<//>` : children}</button>`;
}
