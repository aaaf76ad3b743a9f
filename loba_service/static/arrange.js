// The best arrangement of a hand: POST /v1/arrange (the solver), shown as melds, what is left, and whether
// the hand can go out now.
import { api, Serial } from "./api.js";
import { lang, onLang, t } from "./i18n.js";
import { appendCard, el, Picker, removeLast } from "./picker.js";
import { deckOf, fillSelect, onHouse, refOf } from "./rulesets.js";

export function initArrange() {
  const select = document.getElementById("arrange-ruleset");
  const input = document.getElementById("arrange-cards");
  const discard = document.getElementById("arrange-discard");
  const opened = document.getElementById("arrange-opened");
  const out = document.getElementById("arrange-result");
  const serial = new Serial();
  let choice = fillSelect(select, null);
  let last = null; // {value} | {error} | {working}
  const picker = new Picker(document.getElementById("arrange-picker"), (card) => {
    appendCard(input, card);
  });

  async function loadDeck() {
    try {
      picker.setDeck(await deckOf(choice));
    } catch (e) {
      picker.setDeck(null);
    }
  }

  function meldLine(m) {
    const wilds = m.wilds.map((w) => t("check.wild", { card: w.card, as: w.stands_for })).join(" ");
    const text = t("arrange.meld", { kind: m.kind, cards: m.cards.join(" ") });
    return el("li", {}, el("span", { class: "cards-line", text }), wilds ? el("span", { class: "where", text: " " + wilds }) : null,
      m.points !== null && m.points !== undefined ? el("span", { class: "where", text: " " + t("check.points", { points: m.points }) }) : null);
  }

  function render() {
    out.replaceChildren();
    out.classList.remove("ok", "bad");
    if (!last) {
      out.append(el("p", { class: "hint", text: t("arrange.empty") }));
      return;
    }
    if (last.working) {
      out.append(el("p", { class: "hint", text: t("arrange.working") }));
      return;
    }
    if (last.error) {
      out.classList.add("bad");
      out.append(el("p", { text: t("err.title") }),
        el("ul", { class: "reasons" }, ...last.error.items.map((i) => el("li", { text: i.message + (i.hint ? ` (${i.hint})` : "") }))));
      return;
    }
    const r = last.value;
    if (r.discard) out.append(el("p", { class: "verdict-line", text: t("arrange.discardCard", { card: r.discard }) }));
    if (r.melds.length) {
      out.append(el("p", { text: t("arrange.melds") }), el("ul", { class: "melds" }, ...r.melds.map(meldLine)));
    } else {
      out.append(el("p", { text: t("arrange.noMelds") }));
    }
    if (r.left.length) {
      out.append(el("p", { class: "cards-line" }, t("arrange.left", { cards: r.left.join(" ") }),
        r.left_value !== null && r.left_value !== undefined ? " " + t("arrange.leftValue", { value: r.left_value }) : ""));
    } else {
      out.append(el("p", { text: t("arrange.leftNone") }));
    }
    out.append(el("p", { text: t("arrange.score", { score: r.score }) }));
    if (r.can_go_out === true) out.append(el("p", { class: "verdict-line ok-text", text: t("arrange.canGoOut") }));
    if (r.can_go_out === true && r.going_out) {
      const key = r.going_out.wins_match ? "arrange.outScoreWins" : "arrange.outScore";
      out.append(el("p", { text: t(key, { score: r.going_out.score }) }));
    }
    if (r.can_go_out === false) out.append(el("p", { class: "verdict-line", text: t("arrange.cannotGoOut") }));
    if (r.can_go_out === false && r.why_not && r.why_not.length) {
      out.append(el("ul", { class: "reasons" }, ...r.why_not.map((why) => el("li", { text: why }))));
    }
  }

  function arrange() {
    const cards = input.value.trim();
    if (!cards) {
      serial.cancel();
      last = null;
      render();
      return;
    }
    last = { working: true };
    render();
    // As the player stands, as `loba arrange` does: until opened, only a lay-down meeting the opening minimum
    // or the round's contract goes down.
    // A hand that cannot be read is said in the page's language.
    const body = { cards, ruleset: refOf(choice), discard: discard.checked, opened: opened.checked, budget_ms: 5000,
      messages: lang() };
    serial.run(() => api("POST", "/v1/arrange", body), (value, error) => {
      last = error ? { error } : { value };
      render();
    });
  }

  document.getElementById("arrange-form").addEventListener("submit", (e) => {
    e.preventDefault();
    arrange();
  });
  document.getElementById("arrange-undo").addEventListener("click", () => removeLast(input));
  document.getElementById("arrange-clear").addEventListener("click", () => {
    input.value = "";
    last = null;
    render();
    input.focus();
  });
  select.addEventListener("change", () => {
    choice = select.value;
    loadDeck();
  });
  onHouse(() => {
    choice = fillSelect(select, choice);
    loadDeck();
  });
  onLang(() => {
    fillSelect(select, choice);
    picker.render();
    render();
    if (last && last.error) arrange(); // the service's words about the hand again, in the new language
  });
  loadDeck();
  render();
}
