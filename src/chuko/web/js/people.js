// /people: those the player follows, each online or not and the games they play now (watch
// with one click), whom the player takes challenges from, and those they block
// (GET /api/me/people; docs/web-protocol.md, "People").

import "./site.js";
import { api, fill, h, notice, withNodes } from "./dom.js";
import { t } from "./i18n.js";

const CHOICES = [["everyone", t("Everyone")], ["follows", t("Only people I follow")], ["nobody", t("Nobody")]];

function person(p) {
  const link = h("a", { href: `/@/${encodeURIComponent(p.username)}`, text: p.name });
  return h("li.person", { dataset: { username: p.username } },
    h("span.online", { dataset: { online: String(p.online) }, text: p.online ? t("online") : t("offline") }),
    link, p.name !== p.username ? h("span.muted.small", { text: ` @${p.username}` }) : null,
    p.playing.length ? h("span.playing", {}, " · ", withNodes(t("playing {games}"), {
      games: p.playing.map((g) => h("a.button.small", { href: `/watch/${encodeURIComponent(g.room)}`,
        text: t("Watch {game}", { game: g.title }) })) })) : null);
}

function blocked(p) {
  return h("li.person", {}, h("a", { href: `/@/${encodeURIComponent(p.username)}`, text: p.name }), " ",
    h("button.small", { type: "button", text: t("Unblock"), onclick: async () => {
      try {
        await api("/api/people/unblock", { username: p.username });
        await show();
      } catch (error) { notice(error.message, "error"); }
    } }));
}

function choices(current) {
  return CHOICES.map(([value, text]) => h("label.check", {},
    h("input", { type: "radio", name: "from", value, checked: value === current,
      onchange: async () => {
        try {
          await api("/api/me/challenges-from", { choice: value });
          notice(t("Saved."), "good");
        } catch (error) { notice(error.message, "error"); }
      } }), " ", text));
}

async function show() {
  const me = await api("/api/me").catch(() => ({ player: null }));
  if (!me.player || me.player.guest) {
    fill(document.getElementById("following"), h("li.muted", {},
      withNodes(t("Follow players from their profiles once you have an account: {link}."),
        { link: h("a", { href: "/account", text: t("sign up or log in") }) })));
    document.getElementById("challenges-from").closest("section").hidden = true;
    document.getElementById("blocked").closest("section").hidden = true;
    return;
  }
  const people = await api("/api/me/people");
  fill(document.getElementById("following"), people.following.length ? people.following.map(person)
    : h("li.muted", { text: t("Nobody yet: follow players from their profiles.") }));
  fill(document.getElementById("challenges-from"), choices(people.challenges_from));
  fill(document.getElementById("blocked"), people.blocked.length ? people.blocked.map(blocked)
    : h("li.muted", { text: t("Nobody.") }));
}

show().catch((error) => notice(error.message, "error"));
