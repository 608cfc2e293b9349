"""Colours a reader can read: every visible text checked against WCAG AA (4.5:1, 3:1 for large
text) over what is painted behind it, in whichever colour scheme the page shows; and which
scheme that is. Shared by the browser tests of every page."""

from __future__ import annotations

# What both checks share: colours parsed and mixed, their luminance and contrast, and what is
# painted behind an element. The felt's gradient has no single colour: what is on the table is
# checked against its lightest, which the stylesheet names --felt-light in each scheme.
TOOLS = """
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const probe = document.createElement("i");
  probe.style.color = "var(--felt-light)";
  document.body.append(probe);
  const felt = parse(getComputedStyle(probe).color).slice(0, 3);
  probe.remove();
  const mix = (top, bottom) => top.slice(0, 3).map((c, i) => c * top[3] + bottom[i] * (1 - top[3]));
  const lum = (rgb) => {
    const [r, g, b] = rgb.map((c) => c / 255)
      .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (one, other) => {
    const [hi, lo] = [lum(one), lum(other)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  /** What is painted behind el: the nearest opaque background (or the felt's gradient) with
   * the translucent ones between it and el laid over it, outermost first. */
  const behind = (el) => {
    const layers = [];  // translucent backgrounds, innermost first
    const paint = (base) => layers.reduceRight((acc, top) => mix(top, acc), base);
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      const colour = parse(style.backgroundColor);
      if (colour && colour[3] === 1) return paint(colour.slice(0, 3));
      if (colour && colour[3] > 0) layers.push(colour);
      if (style.backgroundImage.includes("gradient")) return paint(felt);
    }
    return paint([255, 255, 255]);
  };
"""

CONTRAST = "(selector) => {" + TOOLS + """
  const found = [];
  for (const el of document.querySelectorAll(selector)) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const style = getComputedStyle(el);
    if (!own || !el.getClientRects().length || style.visibility === "hidden") continue;
    const back = behind(el);
    const seen = ratio(mix(parse(style.color), back), back);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (seen < (large ? 3 : 4.5)) {
      const text = el.textContent.trim().slice(0, 30);
      found.push(`${el.tagName.toLowerCase()}.${el.className} "${text}" ${seen.toFixed(2)}`);
    }
  }
  return found;
}"""

# The focused element's ring: its style, width in px, and its contrast with what is around it
# (the ring is drawn outside the element, over its parent's background).
FOCUS_RING = "() => {" + TOOLS + """
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const back = behind(el.parentElement);
  const ring = parse(style.outlineColor);
  return [style.outlineStyle, parseFloat(style.outlineWidth), ratio(mix(ring, back), back)];
}"""

# The page's own background: dark under the dark scheme, light under the light one.
PAPER = """() => {
  const paper = getComputedStyle(document.documentElement).backgroundColor;
  const [r, g, b] = paper.match(/[\\d.]+/g).map(Number);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 < 0.5 ? "dark" : "light";
}"""


def low_contrast(page, selector: str = "body *") -> list[str]:
    """Every visible text that does not reach WCAG AA against what is painted behind it."""
    return page.evaluate(CONTRAST, selector)


def focus_ring(page) -> tuple[str, float, float]:
    """The focused element's outline: its style, width (px) and contrast with its surround."""
    style, width, seen = page.evaluate(FOCUS_RING)
    return style, width, seen


def scheme_shown(page) -> str:
    """"dark" or "light": how the page's background reads."""
    return page.evaluate(PAPER)


def in_both_schemes(page, shot, name: str, *, full_page: bool = False,
                    selector: str = "body *") -> None:
    """The page as it stands, in the light and the dark scheme: a screenshot of each
    (`name`-light.png, `name`-dark.png) and every text (of `selector`) checked for WCAG AA
    in each."""
    unreadable = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert scheme_shown(page) == scheme, name
        unreadable[scheme] = low_contrast(page, selector)
        shot(page, f"{name}-{scheme}", full_page=full_page)
    page.emulate_media(color_scheme="light")
    assert unreadable == {"light": [], "dark": []}, (name, unreadable)
