// The import page: a game record (a file or pasted text) is sent to /admin/api/import;
// once stored, the new game's page opens.
import { ApiError, showError } from "./api.js";
import { say } from "./admin.js";

const form = document.getElementById("import-form");
const fileInput = document.getElementById("import-file");
const textInput = document.getElementById("import-text");
const errorBox = document.getElementById("import-error");
const done = document.getElementById("import-done");

// The record goes as the very text given: JSON.parse would round its 64-bit seed.
async function send(text) {
  const response = await fetch("/admin/api/import", {
    method: "POST", headers: { "content-type": "application/json" }, body: text,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = data.error ?? { code: "http_error", message: response.statusText };
    throw new ApiError(error.code, error.message, response.status);
  }
  return data;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorBox.hidden = true;
  done.hidden = true;
  const file = fileInput.files?.[0];
  const text = file ? await file.text() : textInput.value;
  if (!text.trim()) {
    say(errorBox, "Choose a record file or paste a record.");
    return;
  }
  try {
    JSON.parse(text);
  } catch {
    say(errorBox, "This is not JSON: a record is the JSON file a game page exports.");
    return;
  }
  try {
    const created = await send(text);
    done.textContent = `Imported as game ${created.game_id}.`;
    done.hidden = false;
    location.assign(created.url);
  } catch (error) {
    showError(errorBox, error);
  }
});
