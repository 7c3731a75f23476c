// The import page: a game record (a file or pasted text) is sent to /admin/api/import;
// once stored, the new game's page opens.
import { refusal, scriptReady, showError } from "./api.js";
import { say } from "./admin.js";
import { t } from "./words.js";

const form = document.getElementById("import-form");
const fileInput = document.getElementById("import-file");
const textInput = document.getElementById("import-text");
const errorBox = document.getElementById("import-error");
const done = document.getElementById("import-done");

// The record goes as the very text given: JSON.parse would round its 64-bit seed. A
// record in its text form (docs/records.md) goes as text.
async function send(text) {
  const type = text.trimStart().startsWith("{") ? "application/json" : "text/x-duel-record";
  const response = await fetch("/admin/api/import", {
    method: "POST", headers: { "content-type": type }, body: text,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw refusal(response, data);
  return data;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.hidden = true;
  done.hidden = true;
  const file = fileInput.files?.[0];
  const text = file ? await file.text() : textInput.value;
  if (!text.trim()) {
    say(errorBox, t("admin.import.empty"));
    return;
  }
  try {
    JSON.parse(text);
  } catch {
    say(errorBox, t("admin.import.not_json"));
    return;
  }
  try {
    const created = await send(text);
    done.textContent = t("admin.import.done", { game: created.game_id });
    done.hidden = false;
    location.assign(created.url);
  } catch (error) {
    showError(errorBox, error);
  }
});
scriptReady();
