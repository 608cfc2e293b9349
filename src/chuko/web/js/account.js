// /account: who you are (a guest or an account), your display name, and the account's
// forms: sign up (a guest keeps their games), log in, log out, a new password, and deleting
// the account. The session is the server's HttpOnly cookie: nothing of it is kept here.

import { api, fill, h, notice } from "./dom.js";
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
  return panel("Your name", "What the other players see.", "/api/me/name",
    [field("Display name", "name", { type: "text", maxlength: 24, value: player?.name ?? "",
      autocomplete: "nickname" })], "Save", "Your name is saved.");
}

function guestForms(signups) {
  const username = (autocomplete) => field("Username", "username", {
    type: "text", minlength: 3, maxlength: 20, autocomplete, pattern: "[A-Za-z][A-Za-z0-9_\\-]*",
    title: "3 to 20 letters, digits, _ and -, starting with a letter",
  });
  return [
    signups ? panel("Sign up", "Keep your games and ratings: a username (3 to 20 letters, digits, _ "
      + "and -, starting with a letter) and a password of 8 to 128 characters.",
    "/api/account/signup", [username("username"), password("Password", "password", "new-password")],
    "Sign up", "Your account is made: your games are its games.")
      : h("p.closed", { text: "This server takes no new accounts; you can go on playing as a guest." }),
    panel("Log in", null, "/api/account/login",
      [username("username"), password("Password", "password", "current-password")],
      "Log in", "You are logged in."),
  ];
}

function accountForms() {
  return [
    panel("Log out", "End your session in this browser.", "/api/account/logout", [],
      "Log out", "You are logged out."),
    panel("Change password", "Every other session of your account ends.",
      "/api/account/password", [password("Current password", "password", "current-password"),
        password("New password", "new_password", "new-password")],
      "Change password", "Your password is changed."),
    panel("Delete account", "Your games stay, shown as a deleted player's; your username "
      + "stays taken. This cannot be undone.", "/api/account/delete",
    [password("Password", "password", "current-password"),
      h("label", {}, h("input", { type: "checkbox", name: "confirm", required: true }),
        " I want to delete my account")],
    "Delete my account", "Your account is deleted.", { danger: true }),
  ];
}

function describe(player) {
  if (!player) return "You have not played yet: you become a guest as soon as you play or choose a name.";
  if (player.guest) return `You play as a guest, ${player.name}. Sign up to keep your games on any device.`;
  return `You are logged in as ${player.username} (shown as ${player.name}).`;
}

async function draw() {
  const { player, signups } = await api("/api/me");
  document.getElementById("who").textContent = describe(player);
  showPlayer(player);
  fill(document.getElementById("forms"), nameForm(player),
    player && !player.guest ? accountForms() : guestForms(signups));
}

draw().catch((error) => notice(error.message, "error"));
