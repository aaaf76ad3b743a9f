// The players of a new match or table, in seating order: one text field each, a button to remove one (while
// more than two are left) and one to add another. Shared by the score sheet and the Play view.
import { t } from "./i18n.js";
import { el } from "./picker.js";

// A fieldset editing `players` (an array of names, changed in place); `prefix` names its elements' ids
// (`${prefix}-player-${i}`, `${prefix}-add-player`); `render` draws the view again after a player is added or
// removed, and the focus then goes where the user's next step is.
export function playersField(prefix, players, render) {
  const list = el("fieldset", { class: "players" }, el("legend", { text: t("sheet.players") }));
  players.forEach((name, i) => {
    const id = `${prefix}-player-${i}`;
    const input = el("input", { type: "text", id, value: name, autocomplete: "off", autocapitalize: "words",
      maxlength: "40" });
    input.addEventListener("input", () => {
      players[i] = input.value;
    });
    const row = el("div", { class: "row" }, el("label", { for: id, text: t("sheet.player", { n: i + 1 }) }), input);
    if (players.length > 2) {
      row.append(el("button", { type: "button", class: "secondary small", "aria-label": t("sheet.removePlayer", { n: i + 1 }),
        text: "✕", onclick: () => {
          players.splice(i, 1);
          render();
          document.getElementById(`${prefix}-add-player`).focus();
        } }));
    }
    list.append(row);
  });
  list.append(el("button", { type: "button", id: `${prefix}-add-player`, class: "secondary", text: t("sheet.addPlayer"),
    onclick: () => {
      players.push("");
      render();
      document.getElementById(`${prefix}-player-${players.length - 1}`).focus();
    } }));
  return list;
}
