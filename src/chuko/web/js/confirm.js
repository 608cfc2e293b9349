// A question of the page's own, in its style (not the browser's grey `confirm`): a modal
// <dialog> with the question, a sentence and two buttons, Tab kept inside it. Resolves true
// for "yes".

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { trapFocus } from "./focus.js";

export function confirmDialog({ title, text, yes, no = t("Cancel"), danger = false }) {
  return new Promise((resolve) => {
    const dialog = h("dialog.ask", { "aria-labelledby": "ask-title" },
      h("h2", { id: "ask-title", text: title }),
      text ? h("p", { text }) : null,
      h("div.actions", {},
        h("button.stay", { type: "button", value: "no", text: no, onclick: () => dialog.close("no") }),
        h(`button.${danger ? "danger" : "primary"}.go`, {
          type: "button", value: "yes", text: yes, onclick: () => dialog.close("yes"),
        })));
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue === "yes");
    });
    // A click on the backdrop (outside the card) is a "no".
    dialog.addEventListener("click", (event) => { if (event.target === dialog) dialog.close("no"); });
    trapFocus(dialog);
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("button.stay").focus();
  });
}
