// What every page shares about its visitor: the header's links to the club (the lobby, the
// leaderboards, the Lab, the account, named after the player once known), and making the
// visitor a guest before a request whose seat should be theirs. The server records a seat's
// player only for a request with a session (docs/web-protocol.md, "Accounts"), so a room
// made or joined before it would be the browser's alone, lost to an account made later.

import { api } from "./dom.js";

let guest = null;

/** The account link says who plays here: the display name once there is a player. */
export function showPlayer(player) {
  const link = document.querySelector("header.top nav.site a.account");
  if (!link) return;
  link.textContent = player ? player.name : "Account";
  link.title = player ? (player.guest ? "You play as a guest: your account page"
    : `Logged in as ${player.username}`) : "Sign up or log in";
}

/** Make the visitor a guest (`POST /api/me`) unless they are a player already; once per
 * page. Never fails: without a session the seat's token still holds the seat. */
export function becomeGuest() {
  guest = guest || api("/api/me", {}).then(({ player }) => {
    showPlayer(player);
    return player;
  }).catch(() => null);
  return guest;
}

/** Who the session is, without making anyone (`GET /api/me`); null when nobody yet. */
async function knownPlayer() {
  try {
    return (await api("/api/me")).player;
  } catch {
    return null;
  }
}

if (document.querySelector("header.top nav.site a.account")) {
  knownPlayer().then((player) => { if (!guest) showPlayer(player); });
}
