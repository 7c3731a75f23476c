// The invite link and the game's time control, shown to the creator of a game while it
// waits for a second player:
// fetched with its words when a game page opens on a waiting game (most open on a started
// one).
import { html } from "htm/preact";
import { Component } from "preact";
import { controlText } from "../timing.js";
import { t } from "../words.js";

export class Invite extends Component {
  async copy(link) {
    try {
      await navigator.clipboard.writeText(link);
      this.setState({ copied: "copied" });
    } catch {
      this.input?.focus();
      this.input?.select();  // the clipboard may be refused: leave it selected to copy by hand
      this.setState({ copied: "by_hand" });
    }
  }

  render({ link, control }, { copied }) {
    return html`<section id="waiting-invite" class="invite waiting-invite" aria-labelledby="waiting-invite-title">
      <h2 id="waiting-invite-title">${t("invite.title")}</h2>
      <p>${t("invite.help")}</p>
      <p id="waiting-control">${t("control.title", { control: controlText(control) })}</p>
      <div class="invite-row">
        <input id="invite-url" readonly aria-label=${t("invite.label")} value=${link} ref=${(input) => { this.input = input; }} />
        <button type="button" id="copy-invite" onClick=${() => this.copy(link)}>${t(copied === "copied" ? "invite.copied" : copied === "by_hand" ? "invite.copy_by_hand" : "invite.copy")}</button>
      </div>
    </section>`;
  }
}
