// What the pages' plots share (the Lab's figures, a profile's rating history): SVG elements
// and round steps for their axes.

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element: s("rect", {x: 1}, child, …); `text` sets its text. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null) continue;
    if (key === "text") el.textContent = value;
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child) el.append(child);
  return el;
}

/** The round step (1, 2, 2.5 or 5 times a power of 10) at least `raw`. */
export function roundStep(raw) {
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((f) => f * power).find((f) => f >= raw);
}
