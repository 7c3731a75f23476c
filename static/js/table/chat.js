// The game's chat (docs/protocol.md, "Chat"), fetched the first time a player opens it: the
// players' channel for the seats; a spectator reads it and writes among the spectators.
// Text is drawn as text (Preact never reads it as markup); a quick phrase is a code worded
// here, in the reader's language.
import { html } from "htm/preact";
import { t } from "../words.js";

// The chat's own style, with it rather than with the page's first load.
const style = new CSSStyleSheet();
style.replaceSync(`
.chat { display: flex; flex-direction: column; gap: 0.3rem; min-height: 0; max-height: 50%; }
.chat-head { display: flex; flex-wrap: wrap; align-items: center; gap: 0.3rem; }
.chat-head h2 { font-size: 0.95rem; margin: 0; flex: 1 1 100%; }
.chat-head button { font-size: 0.8rem; padding: 0.15rem 0.5rem; }
.chat-lines { list-style: none; margin: 0; padding: 0.2rem 0.3rem; overflow: auto; min-height: 3rem;
  font-size: 0.85rem; background: #fff; border: 1px solid var(--line); border-radius: 6px;
  overflow-wrap: anywhere; }
.chat-line { margin-bottom: 0.2rem; }
.chat-empty { color: var(--muted, #666); }
.chat-phrases { display: flex; flex-wrap: wrap; gap: 0.25rem; margin: 0; }
.chat-phrases button { font-size: 0.75rem; padding: 0.1rem 0.35rem; }
.chat-form { display: flex; gap: 0.3rem; }
.chat-form input { flex: 1; min-width: 0; }
/* Below the table (table.css) the chat is drawn whole: its lines scroll. */
@media (max-width: 900px) {
  .chat { max-height: none; }
  .chat-lines { max-height: 10rem; }
}
`);
document.adoptedStyleSheets = [...document.adoptedStyleSheets, style];

export const PHRASES = ["hello", "good_luck", "have_fun", "well_played", "thanks", "oops", "good_game"];
const MAX_LENGTH = 300;

function sender(ctx, line) {
  if (line.seat !== null && line.seat !== undefined) {
    return line.seat === ctx.seat ? t("chat.you") : ctx.name(line.seat);
  }
  return line.name || t("chat.spectator");
}

export function ChatPanel({ ctx, lines, muted, send, setMuted, close }) {
  const channel = ctx.seat === null ? "spectators" : "players";
  // Muted, a player sees only their own lines; a spectator (whose own lines cannot be told
  // from other spectators') none.
  const shown = muted ? lines.filter((line) => ctx.seat !== null && line.seat === ctx.seat) : lines;
  const submit = (event) => {
    event.preventDefault();
    const input = event.currentTarget.elements.text;
    const text = input.value.trim();
    if (!text) return;
    send({ type: "chat", channel, text });
    input.value = "";
  };
  return html`<section id="chat" class="chat" aria-labelledby="chat-title">
    <header class="chat-head">
      <h2 id="chat-title">${t(ctx.seat === null ? "chat.title_spectators" : "chat.title")}</h2>
      <button type="button" class="toggle" id="chat-mute" aria-pressed=${String(muted)} onClick=${() => setMuted(!muted)}>${t(muted ? "chat.muted" : "chat.mute")}</button>
      <button type="button" class="secondary" id="chat-close" onClick=${close}>${t("chat.close")}</button>
    </header>
    <ol class="chat-lines" aria-live="polite">
      ${shown.length ? shown.map((line) => html`<li key=${line.id} class=${`chat-line chat-${line.channel}`} data-seat=${line.seat ?? ""}>
        <strong>${sender(ctx, line)}:</strong> ${line.phrase ? html`<em>${t(`chat.phrase.${line.phrase}`)}</em>` : line.text}
      </li>`) : html`<li class="chat-empty">${t(muted ? "chat.all_muted" : "chat.nothing")}</li>`}
    </ol>
    <p class="chat-phrases">${PHRASES.map((phrase) => html`<button type="button" class="secondary" data-phrase=${phrase}
        onClick=${() => send({ type: "chat", channel, phrase })}>${t(`chat.phrase.${phrase}`)}</button>`)}</p>
    <form class="chat-form" onSubmit=${submit}>
      <input name="text" maxlength=${MAX_LENGTH} autocomplete="off" aria-label=${t("chat.label")} placeholder=${t("chat.placeholder")} />
      <button type="submit">${t("chat.send")}</button>
    </form>
  </section>`;
}
