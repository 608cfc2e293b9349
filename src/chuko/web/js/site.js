// What every page shares about its visitor: the header's links to the club (the lobby, the
// leaderboards, the Lab, the account, named after the player once known, and an account's
// own profile), and making the visitor a guest before a request whose seat should be
// theirs. The server records a seat's player only for a request with a session
// (docs/web-protocol.md, "Accounts"), so a room made or joined before it would be the
// browser's alone, lost to an account made later.

import { openChannel } from "./channel.js";
import { api } from "./dom.js";
import { t } from "./i18n.js";
import "./language.js";
import "./offline.js";

let guest = null;

/** The account link says who plays here: the display name once there is a player; an
 * account's player has a link to their own profile beside it. */
export function showPlayer(player) {
  const link = document.querySelector("header.top nav.site a.account");
  if (!link) return;
  link.textContent = player ? player.name : t("Account");
  link.title = player ? (player.guest ? t("You play as a guest: your account page")
    : t("Logged in as {username}", { username: player.username })) : t("Sign up or log in");
  showProfileLink(link, player && !player.guest ? player.username : null);
}

/** "Profile" before the account link, to /@/{username}; none for a guest or nobody. */
function showProfileLink(account, username) {
  let link = account.parentElement.querySelector("a.profile");
  if (!username) { if (link) link.remove(); return; }
  const href = `/@/${encodeURIComponent(username)}`;
  if (!link) {
    link = document.createElement("a");
    link.className = "profile";
    link.textContent = t("Profile");
    account.before(link);
  }
  link.href = href;
  link.title = t("Your profile: {username}", { username });
  const here = decodeURIComponent(location.pathname) === `/@/${username}`;
  link.classList.toggle("current", here);
  if (here) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
}

/** Make the visitor a guest (`POST /api/me`) unless they are a player already; once per
 * page. Never fails: without a session the seat's token still holds the seat. */
export function becomeGuest() {
  guest = guest || api("/api/me", {}).then(({ player }) => {
    showPlayer(player);
    openChannel(player);
    return player;
  }).catch(() => null);
  return guest;
}

let known = null;

/** Who the session is, without making anyone (`GET /api/me`, once per page); null when
 * nobody yet. */
export function knownPlayer() {
  known = known || api("/api/me").then(({ player }) => player).catch(() => null);
  return known;
}

/** A name field left empty: an account's display name, which its seats should carry (a
 * guest's "Guest 4821" is no choice of theirs: the seat stays "Host" or "Friend"). */
export async function offerAccountName(field) {
  const player = await knownPlayer();
  if (player && !player.guest && field && !field.value.trim()) field.value = player.name;
}

/** The header's Menu button (shown on small screens) opens and closes the club's links;
 * Escape, or a press outside them, closes them, Escape giving the focus back to the button. */
function foldMenu(button) {
  const nav = document.getElementById(button.getAttribute("aria-controls"));
  const open = (yes) => button.setAttribute("aria-expanded", String(yes));
  button.addEventListener("click", () => open(button.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || button.getAttribute("aria-expanded") !== "true") return;
    open(false);
    button.focus();
  });
  document.addEventListener("click", (event) => {
    if (!button.contains(event.target) && !nav.contains(event.target)) open(false);
  });
}

const menuButton = document.querySelector("header.top .menu-button");
if (menuButton) foldMenu(menuButton);

if (document.querySelector("header.top nav.site a.account")) {
  knownPlayer().then((player) => {
    if (!guest) showPlayer(player);
    openChannel(player);
  });
}
