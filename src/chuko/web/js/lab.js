// /lab: the facts the study command shipped (GET /api/facts), game by game: each study's method,
// findings, plots and tables. Plots are drawn here as plain SVG from the study's data (bars or
// lines, with the interval of every sampled figure), so the page needs nothing from outside.

import "./site.js";
import { api, fill, h, notice } from "./dom.js";
import { roundStep, s } from "./svg.js";

// One colour per series, from the stylesheet (--plot-1 … --plot-7, each scheme its own).
const SERIES = 7;
const WIDTH = 560;
const HEIGHT = 320;
const MARGIN = { left: 58, right: 16, top: 30, bottom: 56 };

/** About `count` round tick values covering [low, high]. */
function ticks(low, high, count = 5) {
  const step = roundStep((high - low) / count);
  const found = [];
  for (let v = Math.floor(low / step) * step; v < high + step / 2; v += step) {
    found.push(Number(v.toPrecision(12)));
  }
  return found;
}

const number = (v) => (typeof v === "number" && Number.isFinite(v) ? v : null);
const shown = (v) => (Math.abs(v) >= 100 || Number.isInteger(v) ? String(Math.round(v))
  : v.toFixed(Math.abs(v) >= 10 ? 1 : 2));
const seriesClass = (k) => `series series-${(k % SERIES) + 1}`;

/** A plot of the study format ({title, kind: "bar"|"line", x, xlabel, ylabel, note, series:
 * [{label, y, low?, high?, style?}]}) as an SVG element. */
export function drawPlot(plot) {
  const labels = (plot.x || []).map(String);
  const series = plot.series || [];
  const values = series.flatMap((one) => [...(one.y || []), ...(one.low || []),
    ...(one.high || [])]).map(number).filter((v) => v !== null);
  let [low, high] = [Math.min(0, ...values), Math.max(0, ...values)];
  if (high === low) high = low + 1;
  const marks = ticks(low, high);
  [low, high] = [Math.min(low, marks[0]), Math.max(high, marks[marks.length - 1])];
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const y = (v) => MARGIN.top + (1 - (v - low) / (high - low)) * plotH;
  const band = plotW / Math.max(1, labels.length);
  const centre = (i) => MARGIN.left + band * (i + 0.5);
  const svg = s("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": plot.title,
  }, s("title", { text: plot.title }));
  svg.append(s("text", { x: WIDTH / 2, y: 16, "text-anchor": "middle", class: "plot-title",
    text: plot.title }));
  for (const mark of marks) {
    svg.append(s("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(mark), y2: y(mark),
      class: "grid" }));
    svg.append(s("text", { x: MARGIN.left - 6, y: y(mark) + 4, "text-anchor": "end",
      text: shown(mark) }));
  }
  const every = Math.ceil(labels.length / 16); // keep the x labels apart on long axes
  labels.forEach((label, i) => {
    if (i % every) return;
    svg.append(s("text", { x: centre(i), y: HEIGHT - MARGIN.bottom + 16, "text-anchor": "middle",
      text: label }));
  });
  svg.append(s("line", { x1: MARGIN.left, x2: MARGIN.left, y1: MARGIN.top,
    y2: HEIGHT - MARGIN.bottom, class: "axis" }));
  svg.append(s("line", { x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(0), y2: y(0),
    class: "axis" }));
  svg.append(s("text", { x: MARGIN.left + plotW / 2, y: HEIGHT - 12, "text-anchor": "middle",
    text: plot.xlabel || "" }));
  svg.append(s("text", { x: 14, y: MARGIN.top + plotH / 2, "text-anchor": "middle",
    transform: `rotate(-90 14 ${MARGIN.top + plotH / 2})`, text: plot.ylabel || "" }));

  const width = (band * 0.8) / Math.max(1, series.length);
  series.forEach((one, k) => {
    const points = [];
    labels.forEach((label, i) => {
      const v = number((one.y || [])[i]);
      if (v === null) return;
      const lo = number((one.low || [])[i]);
      const hi = number((one.high || [])[i]);
      const x = plot.kind === "bar" ? centre(i) - band * 0.4 + width * (k + 0.5) : centre(i);
      const said = `${one.label}, ${label}: ${shown(v)}`
        + (lo !== null && hi !== null ? ` [${shown(lo)}, ${shown(hi)}]` : "");
      if (plot.kind === "bar") {
        svg.append(s("rect", { x: x - width / 2, width, y: y(Math.max(v, 0)),
          height: Math.abs(y(v) - y(0)), class: `bar ${seriesClass(k)}` }, s("title", { text: said })));
      } else {
        points.push(`${x},${y(v)}`);
        svg.append(s("circle", { cx: x, cy: y(v), r: 3.5, class: `point ${seriesClass(k)}` },
          s("title", { text: said })));
      }
      if (lo !== null && hi !== null) {
        const cap = Math.min(5, width / 3);
        svg.append(s("path", { d: `M${x},${y(lo)}V${y(hi)}M${x - cap},${y(lo)}h${2 * cap}`
          + `M${x - cap},${y(hi)}h${2 * cap}`, class: "interval" }));
      }
    });
    if (plot.kind !== "bar" && points.length > 1) {
      svg.append(s("polyline", { points: points.join(" "), class: `trend ${seriesClass(k)}`,
        "stroke-dasharray": one.style === "dashed" ? "6 4" : null }));
    }
  });
  if (series.length > 1) {
    series.forEach((one, k) => {
      const top = MARGIN.top + 4 + k * 16;
      svg.append(s("rect", { x: WIDTH - MARGIN.right - 150, y: top, width: 10, height: 10,
        class: `key ${seriesClass(k)}` }));
      svg.append(s("text", { x: WIDTH - MARGIN.right - 136, y: top + 9, text: one.label }));
    });
  }
  return svg;
}

function table(data) {
  return h("div.table-wrap", {}, h("table", {},
    h("caption", { text: data.title }),
    h("thead", {}, h("tr", {}, data.columns.map((c) => h("th", { scope: "col", text: c })))),
    h("tbody", {}, data.rows.map((row) => h("tr", {}, row.map((v) => h("td", {
      text: String(v) })))))));
}

function study(one) {
  return h("article.study", { dataset: { game: one.game } },
    h("h3", { text: one.title }),
    h("p.method", { text: `How: ${one.method}` }),
    (one.findings || []).length ? h("ul.findings", {},
      one.findings.map((text) => h("li", { text }))) : null,
    h("div.plots", {}, (one.plots || []).map((plot) => h("figure.plot", {},
      drawPlot(plot), plot.note ? h("figcaption", { text: plot.note }) : null))),
    (one.tables || []).map(table));
}

async function main() {
  const place = document.getElementById("facts");
  let facts;
  try {
    facts = await api("/api/facts");
  } catch (error) {
    fill(place);
    notice(error.message, "error");
    return;
  }
  const studied = facts.games.filter((game) => game.studies.length);
  fill(document.getElementById("lab-nav"), studied.length ? h("span.muted", { text: "Facts:" }) : null,
    studied.map((game) => h("a", { href: `#${encodeURIComponent(game.id)}`, text: game.title })));
  const without = facts.games.filter((game) => !game.studies.length);
  fill(place,
    studied.map((game) => h("section.lab-game", { id: game.id },
      h("h2", {}, game.title, h("a", { href: `/rules/${encodeURIComponent(game.id)}`,
        text: "Rules" })),
      game.studies.map(study))),
    studied.length ? null : h("p", { text: "No facts are shipped with this installation yet." }),
    without.length && studied.length ? h("p.muted", {
      text: `No facts yet for ${without.map((game) => game.title).join(", ")}.` }) : null);
  // The sections came after the page loaded, so a link to one of them is followed now.
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (wanted) document.getElementById(wanted)?.scrollIntoView();
}

main();
