// An option's named values (an "int" option's `named` in the game's descriptor, such as
// easy 3, standard 2 and hard 1) offered as choices beside its number field, so a phone,
// which shows no tooltip, has them too. The number stays the form's value: a choice fills
// it in, and typing a number marks the choice it names, if any.

import { h } from "./dom.js";

function capitalized(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/**
 * The field for `option` whose number is `input` (named by the option, read by the form as
 * before): the label with the number beside it, then its named values as toggle buttons
 * (a row of them would push the number off a narrow form's line). Null when the
 * option has no named values, so the caller shows the number alone.
 */
export function presetField(option, input) {
  const named = Object.entries(option.named || {});
  if (option.kind !== "int" || !named.length) return null;
  const labelId = `${input.id}-label`;
  const buttons = named.map(([name, value]) => h("button.preset", {
    type: "button", dataset: { value: String(value) }, text: `${capitalized(name)} (${value})`,
    onclick: () => {
      input.value = String(value);
      // As if typed: the form's listeners (and the marks below) hear of it.
      input.dispatchEvent(new Event("input", { bubbles: true }));
    },
  }));
  const mark = () => {
    for (const button of buttons) {
      button.setAttribute("aria-pressed", String(button.dataset.value === input.value.trim()));
    }
  };
  input.addEventListener("input", mark);
  input.setAttribute("aria-labelledby", labelId);
  mark();
  return h("div.field.preset-field", { role: "group", "aria-labelledby": labelId },
    h("div.preset-head", {}, h("span", { id: labelId, text: option.label }), input),
    h("div.presets", {}, buttons));
}
