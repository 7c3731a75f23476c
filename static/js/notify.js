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
    this.wasMyTurn = false;
    this.audio = null;
  }

  get muted() {
    return localStorage.getItem(MUTE_KEY) === "1";
  }

  setMuted(muted) {
    localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
  }

  // "on" | "off" | "denied" | "unsupported"
  get notifications() {
    if (typeof Notification === "undefined") return "unsupported";
    if (Notification.permission === "denied") return "denied";
    return Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "1" ? "on" : "off";
  }

  async toggleNotifications() {
    if (this.notifications === "on") {
      localStorage.setItem(NOTIFY_KEY, "0");
      return;
    }
    const permission = await Notification.requestPermission();
    localStorage.setItem(NOTIFY_KEY, permission === "granted" ? "1" : "0");
  }

  // Called after every change: `myTurn` says whether this player has a decision to make.
  update({ title, myTurn, opponent }) {
    this.plainTitle = title;
    const hidden = document.visibilityState === "hidden";
    const notice = hidden && myTurn;
    document.title = notice ? t("title.your_turn", { title }) : title;
    const icon = notice && this.turnIcon ? this.turnIcon : this.plainIcon;
    if (this.favicon && this.favicon.getAttribute("href") !== icon) this.favicon.setAttribute("href", icon);
    // The chime and the notification: once, as the turn comes.
    if (myTurn && !this.wasMyTurn) {
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
