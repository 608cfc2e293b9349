// /lab: the facts the study command shipped (GET /api/facts), game by game: each study's method,
// findings, plots and tables. Plots are drawn here as plain SVG from the study's data (bars or
// lines, with the interval of every sampled figure), so the page needs nothing from outside.

import "./site.js";
import { api, fill, h, notice } from "./dom.js";
import { lang, number as numeral, t } from "./i18n.js";
import { roundStep, s } from "./svg.js";

// One colour per series, from the stylesheet (--plot-1 … --plot-7, each scheme its own).
const SERIES = 7;
// The text is drawn at 1 px a unit: the plot is drawn as wide as its place on the page.
const WIDTH = 560;
const MIN_WIDTH = 280;
const CHAR_PX = 7; // about the width of a 12-px character, to fit labels and wrap the title
const MARGIN = { left: 58, right: 16, top: 14, bottom: 48 };

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
/** A figure as the page's language writes it: whole from 100 up, else to 1 or 2 places. */
const shown = (v) => {
  const places = Math.abs(v) >= 100 || Number.isInteger(v) ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return numeral(places ? v : Math.round(v), { minimumFractionDigits: places, maximumFractionDigits: places,
    useGrouping: false });
};
const seriesClass = (k) => `series series-${(k % SERIES) + 1}`;

/** `text` cut into lines of at most `chars` characters, at spaces. */
function wrap(text, chars) {
  const lines = [];
  for (const word of String(text).split(/\s+/).filter(Boolean)) {
    const last = lines.length ? lines[lines.length - 1] : null;
    if (last !== null && last.length + 1 + word.length <= chars) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** The legend's entries in rows under the plot: [{label, k, x, row}], and how many rows. */
function legendRows(series, width) {
  let [x, row] = [MARGIN.left, 0];
  const placed = series.map((one, k) => {
    const room = 18 + String(one.label).length * CHAR_PX + 14;
    if (x > MARGIN.left && x + room > width - MARGIN.right) [x, row] = [MARGIN.left, row + 1];
    const entry = { label: one.label, k, x, row };
    x += room;
    return entry;
  });
  return { placed, rows: series.length > 1 ? row + 1 : 0 };
}

/** A plot of the study format ({title, kind: "bar"|"line", x, xlabel, ylabel, note, series:
 * [{label, y, low?, high?, style?}]}) as an SVG element `width` units (pixels) wide. */
export function drawPlot(plot, width = WIDTH) {
  width = Math.max(MIN_WIDTH, Math.round(width));
  const labels = (plot.x || []).map(String);
  const series = plot.series || [];
  const values = series.flatMap((one) => [...(one.y || []), ...(one.low || []),
    ...(one.high || [])]).map(number).filter((v) => v !== null);
  let [low, high] = [Math.min(0, ...values), Math.max(0, ...values)];
  if (high === low) high = low + 1;
  const marks = ticks(low, high);
  [low, high] = [Math.min(low, marks[0]), Math.max(high, marks[marks.length - 1])];
  const title = wrap(plot.title, Math.floor((width - 8) / (CHAR_PX + 0.5)));
  const legend = legendRows(series, width);
  const top = MARGIN.top + 17 * title.length;
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = Math.round(Math.min(240, Math.max(170, width * 0.42)));
  const bottom = top + plotH;
  const ticksAt = xLabels(labels, plotW / Math.max(1, labels.length));
  const below = MARGIN.bottom + ticksAt.extra;
  const height = bottom + below + (legend.rows ? 20 * legend.rows + 4 : 0);
  const y = (v) => top + (1 - (v - low) / (high - low)) * plotH;
  const band = plotW / Math.max(1, labels.length);
  const centre = (i) => MARGIN.left + band * (i + 0.5);
  const svg = s("svg", {
    viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": plot.title,
  }, s("title", { text: plot.title }));
  svg.append(s("text", { x: width / 2, y: MARGIN.top, "text-anchor": "middle", class: "plot-title" },
    title.map((line, i) => s("tspan", { x: width / 2, dy: i ? 17 : 0, text: line }))));
  for (const mark of marks) {
    svg.append(s("line", { x1: MARGIN.left, x2: width - MARGIN.right, y1: y(mark), y2: y(mark),
      class: "grid" }));
    svg.append(s("text", { x: MARGIN.left - 6, y: y(mark) + 4, "text-anchor": "end",
      text: shown(mark) }));
  }
  // Every x label is drawn, none over another: wrapped at spaces to fit its band, or
  // slanted when a single word is wider than the band.
  labels.forEach((label, i) => {
    if (ticksAt.slant) {
      svg.append(s("text", { x: centre(i), y: bottom + 14, "text-anchor": "end", class: "slanted",
        transform: `rotate(-35 ${centre(i)} ${bottom + 14})`, text: label }));
      return;
    }
    svg.append(s("text", { x: centre(i), y: bottom + 16, "text-anchor": "middle" },
      ticksAt.lines[i].map((line, j) => s("tspan", { x: centre(i), dy: j ? 14 : 0, text: line }))));
  });
  svg.append(s("line", { x1: MARGIN.left, x2: MARGIN.left, y1: top, y2: bottom, class: "axis" }));
  svg.append(s("line", { x1: MARGIN.left, x2: width - MARGIN.right, y1: y(0), y2: y(0),
    class: "axis" }));
  svg.append(s("text", { x: MARGIN.left + plotW / 2, y: bottom + 38 + ticksAt.extra,
    "text-anchor": "middle", text: plot.xlabel || "" }));
  svg.append(s("text", { x: 14, y: top + plotH / 2, "text-anchor": "middle",
    transform: `rotate(-90 14 ${top + plotH / 2})`, text: plot.ylabel || "" }));

  const barWidth = (band * 0.8) / Math.max(1, series.length);
  // Lines side by side a little, so that lines with equal values (several at 0%) all show.
  const dodge = Math.min(4, (band * 0.3) / Math.max(1, series.length));
  series.forEach((one, k) => {
    const runs = [[]];
    labels.forEach((label, i) => {
      const v = number((one.y || [])[i]);
      if (v === null) return;
      const lo = number((one.low || [])[i]);
      const hi = number((one.high || [])[i]);
      const n = number((one.n || [])[i]);
      const x = plot.kind === "bar" ? centre(i) - band * 0.4 + barWidth * (k + 0.5)
        : centre(i) + dodge * (k - (series.length - 1) / 2);
      const sized = n === null ? "" : `, n = ${numeral(n)}`;
      const few = n !== null && n < (plot.few || 0);
      if (few) {
        // Too few to say: greyed and hollow, with its n, no interval, not on the line.
        runs.push([]);
        const said = t("{series}, {label}: only {n} (too few to show a rate)",
          { series: one.label, label, n: numeral(n) });
        if (plot.kind === "bar") {
          svg.append(s("rect", { x: x - barWidth / 2, width: barWidth, y: top, height: plotH,
            class: "bar few" }, s("title", { text: said })));
        } else {
          svg.append(s("circle", { cx: x, cy: y(v), r: 3.5, class: "point few" },
            s("title", { text: said })));
        }
        svg.append(s("text", { x: x + 6, y: Math.max(top + 10, y(v) - 6), class: "few",
          text: `n=${numeral(n)}` }));
        return;
      }
      const said = t("{series}, {label}: {value}", { series: one.label, label, value: shown(v) })
        + (lo !== null && hi !== null ? ` [${shown(lo)}, ${shown(hi)}]` : "") + sized;
      if (plot.kind === "bar") {
        svg.append(s("rect", { x: x - barWidth / 2, width: barWidth, y: y(Math.max(v, 0)),
          height: Math.abs(y(v) - y(0)), class: `bar ${seriesClass(k)}` },
        s("title", { text: said })));
      } else {
        runs[runs.length - 1].push(`${x},${y(v)}`);
        svg.append(s("circle", { cx: x, cy: y(v), r: 3.5, class: `point ${seriesClass(k)}` },
          s("title", { text: said })));
      }
      if (lo !== null && hi !== null) {
        const cap = Math.min(5, barWidth / 3);
        svg.append(s("path", { d: `M${x},${y(lo)}V${y(hi)}M${x - cap},${y(lo)}h${2 * cap}`
          + `M${x - cap},${y(hi)}h${2 * cap}`, class: `interval ${seriesClass(k)}` }));
      }
    });
    for (const run of plot.kind === "bar" ? [] : runs) {
      if (run.length < 2) continue;
      svg.append(s("polyline", { points: run.join(" "), class: `trend ${seriesClass(k)}`,
        "stroke-dasharray": one.style === "dashed" ? "6 4" : null }));
    }
  });
  for (const { label, k, x, row } of legend.rows ? legend.placed : []) {
    const at = bottom + below + 16 + 20 * row;
    if (plot.kind === "bar") {
      svg.append(s("rect", { x, y: at - 10, width: 10, height: 10, class: `key ${seriesClass(k)}` }));
    } else {
      // A line plot's key is a stroke as its line is drawn, dashed where the line is.
      svg.append(s("line", { x1: x - 2, x2: x + 12, y1: at - 5, y2: at - 5,
        class: `key-line trend ${seriesClass(k)}`,
        "stroke-dasharray": series[k].style === "dashed" ? "4 3" : null }));
    }
    svg.append(s("text", { x: x + 16, y: at, text: label }));
  }
  return svg;
}

/** How the x labels fit bands `band` units wide: each label's lines (wrapped at spaces),
 * or slanted when a word is wider than its band; `extra`, the height they add. */
function xLabels(labels, band) {
  const chars = Math.max(1, Math.floor((band - 6) / CHAR_PX));
  const lines = labels.map((label) => wrap(label, chars));
  if (lines.some((parts) => parts.some((line) => line.length > chars))) {
    const longest = Math.max(...labels.map((label) => label.length));
    return { slant: true, lines, extra: Math.round(longest * CHAR_PX * 0.57) };
  }
  return { slant: false, lines, extra: 14 * (Math.max(1, ...lines.map((l) => l.length)) - 1) };
}

/** Draws each plot of `figures` ([[figure, plot]]) as wide as its figure, and again whenever
 * that width changes (a phone turned, a window resized), so its text stays 12 px. */
function drawAtWidth(figures) {
  const draw = (figure, plot) => {
    const width = Math.round(figure.clientWidth) || WIDTH;
    if (Number(figure.dataset.width) === width) return;
    figure.dataset.width = String(width);
    const old = figure.querySelector("svg");
    const svg = drawPlot(plot, width);
    if (old) old.replaceWith(svg);
    else figure.prepend(svg);
  };
  const plots = new Map(figures);
  for (const [figure, plot] of figures) draw(figure, plot);
  const watch = new ResizeObserver((entries) => {
    for (const entry of entries) draw(entry.target, plots.get(entry.target));
  });
  for (const [figure] of figures) watch.observe(figure);
}

/** A cell's text with each figure and its interval ("54% [51%, 57%]") kept on one line, so a
 * narrow table scrolls rather than breaking an interval over three lines. */
const unbroken = (text) => String(text).replace(/(\S+) \[([^\]]*)\]/g,
  (_, value, inside) => `${value}\u00a0[${inside.replaceAll(" ", "\u00a0")}]`);

function table(data) {
  return h("div.table-wrap", {}, h("table", {},
    h("caption", { text: data.title }),
    h("thead", {}, h("tr", {}, data.columns.map((c) => h("th", { scope: "col", text: c })))),
    h("tbody", {}, data.rows.map((row) => h("tr", {}, row.map((v) => h("td", {
      text: unbroken(v) })))))));
}

function study(one, figures) {
  return h("article.study", { dataset: { game: one.game } },
    h("h3", { text: one.title }),
    h("p.method", { text: t("How: {method}", { method: one.method }) }),
    (one.findings || []).length ? h("ul.findings", {},
      one.findings.map((text) => h("li", { text }))) : null,
    h("div.plots", {}, (one.plots || []).map((plot) => {
      const figure = h("figure.plot", {}, plot.note ? h("figcaption", { text: plot.note }) : null);
      figures.push([figure, plot]);
      return figure;
    })),
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
  fill(document.getElementById("lab-nav"), studied.length ? h("span.muted", { text: t("Facts:") }) : null,
    studied.map((game) => h("a", { href: `#${encodeURIComponent(game.id)}`, text: game.title })));
  const without = facts.games.filter((game) => !game.studies.length);
  const figures = [];
  fill(place,
    studied.map((game) => h("section.lab-game", { id: game.id },
      h("h2", {}, game.title, h("a", { href: `/rules/${encodeURIComponent(game.id)}`,
        text: t("Rules") })),
      game.studies.map((one) => study(one, figures)))),
    studied.length ? null : h("p", { text: t("No facts are shipped with this installation yet.") }),
    without.length && studied.length ? h("p.muted", { text: t("No facts yet for {games}.", {
      games: new Intl.ListFormat(lang, { type: "unit" }).format(without.map((game) => game.title)) }) }) : null);
  drawAtWidth(figures);
  // The sections came after the page loaded, so a link to one of them is followed now.
  const wanted = decodeURIComponent(location.hash.slice(1));
  if (wanted) document.getElementById(wanted)?.scrollIntoView();
}

main();
