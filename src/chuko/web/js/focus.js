// The keyboard kept inside a window over the page (a question, the pause between rounds):
// Tab from its last control goes to its first and Shift+Tab from its first to its last, so
// the focus never wanders to the page behind it or to the browser's own bar.

const FOCUSABLE = "button:not(:disabled), a[href], input:not(:disabled), select:not(:disabled), "
  + "textarea:not(:disabled), [tabindex]:not([tabindex='-1'])";

/** For a keydown inside `box`: a Tab that would leave it goes round to its other end. */
export function keepFocusIn(box, event) {
  if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
  const controls = [...box.querySelectorAll(FOCUSABLE)].filter((el) => el.getClientRects().length);
  if (!controls.length) return;
  const [first, last] = [controls[0], controls[controls.length - 1]];
  const active = document.activeElement;
  const outside = !box.contains(active);
  if (event.shiftKey && (active === first || outside)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || outside)) {
    event.preventDefault();
    first.focus();
  }
}

/** Keeps Tab inside `box` for as long as it is on the page. */
export function trapFocus(box) {
  box.addEventListener("keydown", (event) => keepFocusIn(box, event));
  return box;
}
