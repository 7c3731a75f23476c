// The your-turn notice of a background tab: the title and a favicon badge (always), a short
// chime (unless muted; the choice is kept in this browser) and a browser notification (only
// once the player turned it on and the browser allowed it).
import { t } from "./words.js";

const MUTE_KEY = "duel.sound.muted";
const NOTIFY_KEY = "duel.notify";

export class TurnNotice {
  constructor({ favicon, turnIcon }) {
    this.favicon = favicon;
    this.plainIcon = favicon?.getAttribute("href") ?? "";
    this.turnIcon = turnIcon;
    this.plainTitle = document.title;
    this.wasMyTurn = null;  // unknown until the first view: no chime for the page opening
    this.audio = null;
    this.muted = localStorage.getItem(MUTE_KEY) === "1";
    this.notifyWanted = localStorage.getItem(NOTIFY_KEY) === "1";
    // Read once: asking the browser on every redraw is slow; it changes only when asked.
    this.permission = typeof Notification === "undefined" ? "unsupported" : Notification.permission;
  }

  setMuted(muted) {
    this.muted = muted;
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
  }

  // "on" | "off" | "denied" | "unsupported"
  get notifications() {
    if (this.permission === "unsupported" || this.permission === "denied") return this.permission;
    return this.permission === "granted" && this.notifyWanted ? "on" : "off";
  }

  async toggleNotifications() {
    if (this.notifications === "on") {
      this.notifyWanted = false;
    } else {
      this.permission = await Notification.requestPermission();
      this.notifyWanted = this.permission === "granted";
    }
    localStorage.setItem(NOTIFY_KEY, this.notifyWanted ? "1" : "0");
  }

  // Called after every change: `myTurn` says whether this player has a decision to make.
  update({ title, myTurn, opponent }) {
    this.plainTitle = title;
    const hidden = document.visibilityState === "hidden";
    const notice = hidden && myTurn;
    const shown = notice ? t("title.your_turn", { title }) : title;
    if (document.title !== shown) document.title = shown;
    const icon = notice && this.turnIcon ? this.turnIcon : this.plainIcon;
    if (this.favicon && this.favicon.getAttribute("href") !== icon) this.favicon.setAttribute("href", icon);
    // The chime and the notification: once, as the turn comes.
    if (myTurn && this.wasMyTurn === false) {
      if (!this.muted) this.chime();
      if (hidden && this.notifications === "on") {
        try {
          const note = new Notification(t("notify.title"), { body: t("notify.body", { opponent }), tag: "duel-turn" });
          note.onclick = () => window.focus();
        } catch {
          // some browsers allow notifications only from a service worker: the title says it
        }
      }
    }
    this.wasMyTurn = myTurn;
    return notice;
  }

  // Two soft notes, made by the Web Audio API (no sound file to fetch).
  chime() {
    try {
      this.audio ??= new AudioContext();
      // Made before any click, a context starts suspended (autoplay rules): wake it.
      if (this.audio.state === "suspended") this.audio.resume().catch(() => {});
      const now = this.audio.currentTime;
      [660, 880].forEach((frequency, i) => {
        const tone = this.audio.createOscillator();
        const gain = this.audio.createGain();
        tone.type = "sine";
        tone.frequency.value = frequency;
        gain.gain.setValueAtTime(0.0001, now + i * 0.14);
        gain.gain.exponentialRampToValueAtTime(0.12, now + i * 0.14 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.14 + 0.3);
        tone.connect(gain).connect(this.audio.destination);
        tone.start(now + i * 0.14);
        tone.stop(now + i * 0.14 + 0.32);
      });
    } catch {
      // no audio here (or not yet allowed by the browser): the title and favicon remain
    }
  }
}
