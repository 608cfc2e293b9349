// The rules page: all four games on one page; /rules/{game} brings that game's rules first.

const game = location.pathname.split("/")[2];
const section = game && document.getElementById(game);
if (section) {
  document.querySelector(`.rules-nav a[data-game="${game}"]`)?.classList.add("current");
  section.classList.add("current");
  section.parentElement.prepend(section);
  document.title = `Chükö — ${section.querySelector("h2").textContent} rules`;
}
