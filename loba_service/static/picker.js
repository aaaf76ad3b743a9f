// A card picker: the ruleset's own deck (from the API's "deck"), one row of buttons per suit and one for the
// Jokers.  One tab stop for the whole picker; the arrow keys, Home and End move between cards.
import { lang, t } from "./i18n.js";

const RED = new Set(["♥", "♦", "♡", "♢"]);

export function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "text") e.textContent = v;
      else if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
  }
  for (const kid of kids) if (kid !== null && kid !== undefined && kid !== false) e.append(kid);
  return e;
}

// The suit's word in the page's language when the ruleset gives one (lang: {es: [picas]}), else its key.
export function suitWord(suit) {
  const words = suit.words && suit.words[lang()];
  return words && words.length ? words[0] : suit.key;
}

export class Picker {
  constructor(root, onPick) {
    this.root = root;
    this.onPick = onPick;
    this.deck = null;
    this.focusIndex = 0;
    root.addEventListener("keydown", (e) => this.key(e));
    root.addEventListener("focusin", (e) => {
      const i = this.buttons().indexOf(e.target);
      if (i >= 0) this.setFocusable(i);
    });
  }

  setDeck(deck) {
    this.deck = deck;
    this.focusIndex = 0;
    this.render();
  }

  buttons() {
    return Array.from(this.root.querySelectorAll("button.card"));
  }

  render() {
    const root = this.root;
    root.replaceChildren();
    if (!this.deck) return;
    const id = root.id;
    root.setAttribute("role", "group");
    root.setAttribute("aria-label", t("picker"));
    root.setAttribute("aria-describedby", id + "-keys");
    root.append(el("p", { id: id + "-keys", class: "sr-only", text: t("picker.keys") }));
    const rows = this.deck.suits.map((suit, s) => {
      const label = el("span", { class: "suit-label", id: `${id}-suit-${s}` },
        el("span", { class: RED.has(suit.symbol) ? "sym red" : "sym", "aria-hidden": "true", text: suit.symbol }),
        " " + suitWord(suit));
      const cards = suit.cards.map((card) => this.button(card, suitWord(suit), RED.has(suit.symbol)));
      return el("div", { class: "suit-row", role: "group", "aria-labelledby": label.id }, label,
        el("div", { class: "cards" }, ...cards));
    });
    if (this.deck.jokers > 0) {
      const label = el("span", { class: "suit-label", id: `${id}-jokers`, text: t("picker.jokers") });
      rows.push(el("div", { class: "suit-row", role: "group", "aria-labelledby": label.id }, label,
        el("div", { class: "cards" }, this.button(this.deck.joker, "", false, "joker"))));
    }
    root.append(...rows);
    this.setFocusable(Math.min(this.focusIndex, this.buttons().length - 1));
  }

  button(card, word, red, extra) {
    const b = el("button", { type: "button", class: `card${red ? " red" : ""}${extra ? " " + extra : ""}`,
      "data-card": card }, card);
    if (word && word !== card) b.append(el("span", { class: "sr-only", text: " " + word }));
    b.addEventListener("click", () => this.onPick(card));
    return b;
  }

  setFocusable(i) {
    const all = this.buttons();
    if (!all.length) return;
    this.focusIndex = Math.max(0, i);
    all.forEach((b, j) => b.setAttribute("tabindex", j === this.focusIndex ? "0" : "-1"));
  }

  key(e) {
    const all = this.buttons();
    const i = all.indexOf(document.activeElement);
    if (i < 0) return;
    const rows = Array.from(this.root.querySelectorAll(".suit-row")).map((r) => Array.from(r.querySelectorAll("button.card")));
    let r = rows.findIndex((row) => row.includes(all[i]));
    const c = rows[r].indexOf(all[i]);
    let target = null;
    if (e.key === "ArrowRight") target = all[Math.min(i + 1, all.length - 1)];
    else if (e.key === "ArrowLeft") target = all[Math.max(i - 1, 0)];
    else if (e.key === "ArrowDown" && r < rows.length - 1) { r += 1; target = rows[r][Math.min(c, rows[r].length - 1)]; }
    else if (e.key === "ArrowUp" && r > 0) { r -= 1; target = rows[r][Math.min(c, rows[r].length - 1)]; }
    else if (e.key === "Home") target = rows[r][0];
    else if (e.key === "End") target = rows[r][rows[r].length - 1];
    else return;
    e.preventDefault();
    if (target) {
      this.setFocusable(all.indexOf(target));
      target.focus();
    }
  }
}

// Cards text box helpers: add a card at the end, remove the last one (the text is split on spaces and commas
// only to edit it; the service reads it).
export function appendCard(input, card) {
  const text = input.value.replace(/[\s,]+$/, "");
  input.value = text ? `${text} ${card}` : card;
}

export function removeLast(input) {
  input.value = input.value.replace(/[\s,]*[^\s,]+[\s,]*$/, "");
}
