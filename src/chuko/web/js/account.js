// /account: who you are (a guest or an account), your display name, and the account's
// forms: sign up (a guest keeps their games), log in, log out, a new password, and deleting
// the account. The session is the server's HttpOnly cookie: nothing of it is kept here.

import { api, fill, h, notice } from "./dom.js";
import { t } from "./i18n.js";
import { showPlayer } from "./site.js";

function field(label, name, attrs = {}) {
  return h("label.field", {}, h("span", { text: label }),
    h("input", { name, required: true, ...attrs }));
}

const password = (label, name, autocomplete) => field(label, name, {
  type: "password", minlength: 8, maxlength: 128, autocomplete,
});

/** A panel with a form that posts its fields to `path`, then says `done` and redraws. */
function panel(title, blurb, path, fields, button, done, extra = {}) {
  const form = h("form", {}, fields, h("div.actions", {},
    h(`button${extra.danger ? "" : ".primary"}`, { type: "submit", text: button })));
  // The browser's own check stopped the submit: its message is the only one to show.
  form.addEventListener("invalid", () => notice(""), true);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = Object.fromEntries(new FormData(form));
    delete body.confirm;
    const submit = form.querySelector("button");
    submit.disabled = true;
    try {
      await api(path, body);
      form.reset();
      notice(done, "good");
      await draw();
    } catch (error) {
      notice(error.message, "error");
    } finally {
      submit.disabled = false;
    }
  });
  return h("section.game-panel", {}, h("header", {}, h("h2", { text: title })),
    blurb ? h("p.blurb", { text: blurb }) : null, form);
}

function nameForm(player) {
  return panel(t("Your name"), t("What the other players see."), "/api/me/name",
    [field(t("Display name"), "name", { type: "text", maxlength: 24, value: player?.name ?? "",
      autocomplete: "nickname" })], t("Save"), t("Your name is saved."));
}

function guestForms(signups) {
  const username = (autocomplete) => field(t("Username"), "username", {
    type: "text", minlength: 3, maxlength: 20, autocomplete, pattern: "[A-Za-z][A-Za-z0-9_\\-]*",
    title: t("3 to 20 letters, digits, _ and -, starting with a letter"),
  });
  return [
    signups ? panel(t("Sign up"), t("Keep your games and ratings: a username (3 to 20 letters, "
      + "digits, _ and -, starting with a letter) and a password of 8 to 128 characters."),
    "/api/account/signup", [username("username"), password(t("Password"), "password", "new-password")],
    t("Sign up"), t("Your account is made: your games are its games."))
      : h("p.closed", { text: t("This server takes no new accounts; you can go on playing as a guest.") }),
    panel(t("Log in"), null, "/api/account/login",
      [username("username"), password(t("Password"), "password", "current-password")],
      t("Log in"), t("You are logged in.")),
  ];
}

function accountForms() {
  return [
    panel(t("Log out"), t("End your session in this browser."), "/api/account/logout", [],
      t("Log out"), t("You are logged out.")),
    panel(t("Change password"), t("Every other session of your account ends."),
      "/api/account/password", [password(t("Current password"), "password", "current-password"),
        password(t("New password"), "new_password", "new-password")],
      t("Change password"), t("Your password is changed.")),
    panel(t("Delete account"), t("Your games stay, shown as a deleted player's; your username "
      + "stays taken. This cannot be undone."), "/api/account/delete",
    [password(t("Password"), "password", "current-password"),
      h("label", {}, h("input", { type: "checkbox", name: "confirm", required: true }),
        " ", t("I want to delete my account"))],
    t("Delete my account"), t("Your account is deleted."), { danger: true }),
  ];
}

function describe(player) {
  if (!player) return t("You have not played yet: you become a guest as soon as you play or choose a name.");
  if (player.guest) return t("You play as a guest, {name}. Sign up to keep your games on any device.", { name: player.name });
  return t("You are logged in as {username} (shown as {name}).", { username: player.username, name: player.name });
}

async function draw() {
  const { player, signups } = await api("/api/me");
  document.getElementById("who").textContent = describe(player);
  showPlayer(player);
  fill(document.getElementById("forms"), nameForm(player),
    player && !player.guest ? accountForms() : guestForms(signups));
}

draw().catch((error) => notice(error.message, "error"));
