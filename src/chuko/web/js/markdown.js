// A small Markdown reader for the rules pages: headings, paragraphs, lists (nested by
// indentation), block quotes, code blocks, simple tables, rules, and inline bold, italic,
// code and links. It builds DOM nodes with text nodes only, so no text from a rules file can
// ever become markup.

import { h } from "./dom.js";

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const FENCE = /^ {0,3}(```|~~~)/;
const HR = /^ {0,3}([-*_])(?:\s*\1){2,}\s*$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const SAFE_HREF = /^(https?:\/\/|mailto:|\/|#|\.{0,2}\/|[\w-]+(\.[\w-]+)*([/#?]|$))/i;

// One alternation; the earliest match in a text wins, and its inside is read again.
const INLINE = new RegExp([
  /\\([\\`*_[\]()#+\-.!|>~])/.source,                       // 1: an escaped character
  /(`+)([\s\S]*?[^`])\2(?!`)/.source,                       // 2, 3: code
  /\*\*(?=\S)([\s\S]*?\S)\*\*/.source,                       // 4: bold
  /(?<![\w])__(?=\S)([\s\S]*?\S)__(?![\w])/.source,          // 5: bold
  /\*(?=[^\s*])([\s\S]*?[^\s*])\*/.source,                   // 6: italic
  /(?<![\w])_(?=[^\s_])([\s\S]*?[^\s_])_(?![\w])/.source,    // 7: italic
  /\[([^\]]+)\]\(\s*((?:[^()\s]|\([^()\s]*\))+)\s*\)/.source,  // 8, 9: link
].join("|"), "g");

/** Inline Markdown as a list of nodes. */
export function inline(text) {
  const nodes = [];
  let at = 0;
  INLINE.lastIndex = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > at) nodes.push(document.createTextNode(text.slice(at, match.index)));
    at = match.index + match[0].length;
    const [, escaped, , code, bold1, bold2, em1, em2, linkText, href] = match;
    if (escaped !== undefined) nodes.push(document.createTextNode(escaped));
    else if (code !== undefined) nodes.push(h("code", { text: code.trim() || code }));
    else if (bold1 !== undefined || bold2 !== undefined) nodes.push(h("strong", {}, inline(bold1 ?? bold2)));
    else if (em1 !== undefined || em2 !== undefined) nodes.push(h("em", {}, inline(em1 ?? em2)));
    else if (SAFE_HREF.test(href)) nodes.push(h("a", { href }, inline(linkText)));
    else nodes.push(...inline(linkText));  // a javascript: or other odd link keeps its words only
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

function indentOf(line) {
  return line.match(/^\s*/)[0].replace(/\t/g, "    ").length;
}

function cells(line) {
  let text = line.trim();
  if (text.startsWith("|")) text = text.slice(1);
  if (text.endsWith("|") && !text.endsWith("\\|")) text = text.slice(0, -1);
  return text.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

function startsBlock(lines, i) {
  const line = lines[i];
  return HEADING.test(line) || FENCE.test(line) || HR.test(line) || ITEM.test(line)
    || QUOTE.test(line) || isTable(lines, i);
}

function isTable(lines, i) {
  return lines[i].includes("|") && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1])
    && lines[i + 1].includes("-");
}

function table(lines, i) {
  const aligns = cells(lines[i + 1]).map((rule) => {
    const left = rule.startsWith(":");
    const right = rule.endsWith(":");
    return left && right ? "center" : right ? "right" : left ? "left" : null;
  });
  const row = (line, tag) => h("tr", {}, cells(line).map((cell, col) => h(tag, {
    style: aligns[col] ? `text-align: ${aligns[col]}` : undefined,
  }, inline(cell))));
  const head = row(lines[i], "th");
  const body = [];
  let j = i + 2;
  for (; j < lines.length && lines[j].trim() && lines[j].includes("|"); j += 1) body.push(row(lines[j], "td"));
  return [h("div.table-wrap", {}, h("table", {}, h("thead", {}, head), h("tbody", {}, body))), j];
}

function list(lines, i) {
  const first = lines[i].match(ITEM);
  const base = indentOf(lines[i]);
  const ordered = /\d/.test(first[2]);
  const items = [];
  let j = i;
  while (j < lines.length) {
    const match = lines[j].match(ITEM);
    if (!match || indentOf(lines[j]) !== base || /\d/.test(match[2]) !== ordered) break;
    const body = [match[3]];
    const inner = base + match[2].length + 1;  // where the item's text starts
    j += 1;
    // The item goes on over lines indented past its marker, or unindented lines that carry
    // its paragraph on (lazy continuation); a blank line ends it unless indented text follows.
    while (j < lines.length) {
      const line = lines[j];
      if (!line.trim()) {
        if (j + 1 < lines.length && lines[j + 1].trim() && indentOf(lines[j + 1]) > base) {
          body.push("");
          j += 1;
          continue;
        }
        break;
      }
      if (indentOf(line) > base) body.push(line.slice(Math.min(indentOf(line), inner)));
      else if (!startsBlock(lines, j) && body[body.length - 1].trim()) body.push(line.trim());
      else break;
      j += 1;
    }
    const content = blocks(body);
    const tight = content.length && content[0].tagName === "P" && !body.includes("");
    if (tight) content.splice(0, 1, ...content[0].childNodes);
    items.push(h("li", {}, content));
    if (j < lines.length && !lines[j].trim()) j += 1;  // a loose list's blank line
  }
  const attrs = ordered && Number.parseInt(first[2], 10) !== 1
    ? { start: Number.parseInt(first[2], 10) } : {};
  return [h(ordered ? "ol" : "ul", attrs, items), j];
}

/** Markdown lines as a list of block elements. */
function blocks(lines) {
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    let match;
    if (!line.trim()) {
      i += 1;
    } else if ((match = line.match(FENCE))) {
      const code = [];
      for (i += 1; i < lines.length && !lines[i].trim().startsWith(match[1]); i += 1) code.push(lines[i]);
      out.push(h("pre", {}, h("code", { text: code.join("\n") })));
      i += 1;
    } else if ((match = line.match(HEADING))) {
      out.push(h(`h${match[1].length}`, {}, inline(match[2])));
      i += 1;
    } else if (HR.test(line)) {
      out.push(h("hr"));
      i += 1;
    } else if (isTable(lines, i)) {
      const [el, next] = table(lines, i);
      out.push(el);
      i = next;
    } else if (ITEM.test(line)) {
      const [el, next] = list(lines, i);
      out.push(el);
      i = next;
    } else if (QUOTE.test(line)) {
      const quoted = [];
      for (; i < lines.length && (match = lines[i].match(QUOTE)); i += 1) quoted.push(match[1]);
      out.push(h("blockquote", {}, blocks(quoted)));
    } else {
      const text = [line.trim()];
      for (i += 1; i < lines.length && lines[i].trim() && !startsBlock(lines, i); i += 1) {
        text.push(lines[i].trim());
      }
      out.push(h("p", {}, inline(text.join("\n"))));
    }
  }
  return out;
}

/** A Markdown text as a list of elements to append to the page. */
export function render(markdown) {
  return blocks(String(markdown ?? "").replace(/\r\n?/g, "\n").split("\n"));
}
