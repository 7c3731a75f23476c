// The account page (templates/account.html): each form is sent to the route it names, and
// the page is drawn again by the server once it is done (the account's state is its own).
import { request, scriptReady, showError } from "./api.js";
import { pageWords } from "./words.js";

await pageWords("server");

const errorBox = document.getElementById("account-error");

async function send(button, action) {
  errorBox.hidden = true;
  button.disabled = true;
  try {
    await action();
  } catch (error) {
    showError(errorBox, error);
  } finally {
    button.disabled = false;
  }
}

for (const form of document.querySelectorAll("form.account-form")) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = Object.fromEntries(new FormData(form));
    send(form.querySelector("button[type=submit]"), async () => {
      await request(form.dataset.method, form.dataset.path, body);
      // A form that says where it is done stays on the page; the others change who is
      // logged in, which the whole page shows.
      if (form.dataset.done) {
        form.reset();
        document.getElementById(form.dataset.done).hidden = false;
      } else {
        location.reload();
      }
    });
  });
}

const actions = {
  logout: ["DELETE", "/api/me", undefined],
  "logout-everywhere": ["POST", "/api/logout-everywhere", {}],
};
for (const [id, [method, path, body]] of Object.entries(actions)) {
  const button = document.getElementById(id);
  button?.addEventListener("click", () => send(button, async () => {
    await request(method, path, body);
    location.reload();
  }));
}
scriptReady();
