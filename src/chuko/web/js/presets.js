// A game's options as a form's fields (`optionField`, `readOptions`), and an option's
// named values (an "int" option's `named` in the game's descriptor, such as easy 3,
// standard 2 and hard 1) offered as choices beside its number field, so a phone, which
// shows no tooltip, has them too. The number stays the form's value: a choice fills it
// in, and typing a number marks the choice it names, if any.

import { h } from "./dom.js";
import { t } from "./i18n.js";

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
  // The server words each name in the reader's language (`named_labels`).
  const labels = option.named_labels || named.map(([name]) => capitalized(name));
  const buttons = named.map(([, value], index) => h("button.preset", {
    type: "button", dataset: { value: String(value) },
    text: t("{name} ({value})", { name: labels[index], value }),
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

/** A form's field for a game's `option` (a choice, a number with its named values, or
 * text), its input's id `${prefix}-${option.name}` and its name the option's. */
export function optionField(option, prefix) {
  const id = `${prefix}-${option.name}`;
  let input;
  if (option.kind === "choice") {
    input = h("select", { id, name: option.name }, option.choices.map((choice) =>
      h("option", { value: String(choice), text: String(choice),
        selected: String(choice) === String(option.default) })));
  } else if (option.kind === "int") {
    input = h("input", { id, name: option.name, type: "number", value: option.default,
      min: option.min, max: option.max_online ?? option.max, step: 1, inputmode: "numeric" });
    const presets = presetField(option, input);
    if (presets) return presets;
  } else {
    input = h("input", { id, name: option.name, type: "text", value: option.default ?? "" });
  }
  return h("label.field", { for: id }, h("span", { text: option.label }), input);
}

/** The options `form` says for `game`, as the server takes them (whole numbers as numbers;
 * a field left empty is the game's default). */
export function readOptions(game, form) {
  const options = {};
  for (const option of game.options) {
    const value = form.elements.namedItem(option.name)?.value ?? "";
    if (value !== "") options[option.name] = option.kind === "int" && /^-?\d+$/.test(value) ? Number(value) : value;
  }
  return options;
}
