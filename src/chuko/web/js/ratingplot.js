// A rating's history as an SVG plot: the rating after each rated game (x: the games in order,
// y: the rating), with axes, ticks and labels; each point's title tells its date and its
// uncertainty (which early on spans far more than the line moves, so it is not drawn as a
// band). Drawn small enough to read on a phone (the viewBox scales to the card's width).

import { date, number, t } from "./i18n.js";
import { roundStep, s } from "./svg.js";

const WIDTH = 360;
const HEIGHT = 210;
const MARGIN = { left: 48, right: 12, top: 12, bottom: 42 };
const PAD = 60; // rating points above and below the line, so it never sits on an edge

/** About `count` round values from low to high (steps of 1, 2, 2.5 or 5 times a power of 10). */
function ticks(low, high, count, whole = false) {
  let step = roundStep(Math.max((high - low) / count, whole ? 1 : 1e-9));
  if (whole) step = Math.max(1, Math.round(step));
  const found = [];
  for (let v = Math.ceil(low / step) * step; v <= high + 1e-9; v += step) found.push(v);
  return found;
}

/** The plot of `points` ([{at, rating, deviation}], oldest first) titled `title`. */
export function drawHistory(points, title) {
  const ratings = points.map((p) => p.rating);
  let low = Math.min(...ratings) - PAD;
  let high = Math.max(...ratings) + PAD;
  const marks = ticks(low, high, 4);
  [low, high] = [Math.min(low, marks[0]), Math.max(high, marks[marks.length - 1])];
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const last = points.length;
  // Game i + 1 of `last`; a lone game sits in the middle.
  const x = (i) => MARGIN.left + (last > 1 ? i / (last - 1) : 0.5) * plotW;
  const clamp = (v) => Math.min(high, Math.max(low, v));
  const y = (v) => MARGIN.top + (1 - (clamp(v) - low) / (high - low)) * plotH;
  const svg = s("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": title,
    class: "history-plot" }, s("title", { text: title }));
  for (const mark of marks) {
    svg.append(s("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(mark), y2: y(mark),
      class: "grid" }));
    svg.append(s("text", { x: MARGIN.left - 6, y: y(mark) + 4, "text-anchor": "end",
      text: number(Math.round(mark), { useGrouping: false }) }));
  }
  for (const game of last > 1 ? ticks(1, last, 5, true) : [1]) {
    const at = x(game - 1);
    svg.append(s("line", { x1: at, x2: at, y1: HEIGHT - MARGIN.bottom, y2: HEIGHT - MARGIN.bottom + 4,
      class: "axis" }));
    svg.append(s("text", { x: at, y: HEIGHT - MARGIN.bottom + 16, "text-anchor": "middle",
      text: number(game) }));
  }
  svg.append(s("path", { d: `M${MARGIN.left},${MARGIN.top}V${HEIGHT - MARGIN.bottom}`
    + `H${WIDTH - MARGIN.right}`, class: "axis", fill: "none" }));
  svg.append(s("text", { x: MARGIN.left + plotW / 2, y: HEIGHT - 6, "text-anchor": "middle",
    class: "axis-label", text: t("Rated games") }));
  const middle = MARGIN.top + plotH / 2;
  svg.append(s("text", { x: 12, y: middle, "text-anchor": "middle", class: "axis-label",
    transform: `rotate(-90 12 ${middle})`, text: t("Rating") }));
  if (points.length > 1) {
    svg.append(s("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "),
      class: "line", fill: "none" }));
  }
  points.forEach((p, i) => {
    svg.append(s("circle", { cx: x(i), cy: y(p.rating), r: points.length > 40 ? 1.5 : 3,
      class: "point" }, s("title", { text: t("Game {n} ({day}): {rating} ±{deviation}", {
      n: number(i + 1), day: date(p.at * 1000), rating: p.rating, deviation: p.deviation }) })));
  });
  return svg;
}
