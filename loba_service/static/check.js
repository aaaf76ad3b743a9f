// The meld checker: cards tapped on the picker or typed, checked by POST /v1/check at every change.
import { isAbort, Latest } from "./api.js";
import { lang, onLang, t } from "./i18n.js";
import { appendCard, el, Picker, removeLast } from "./picker.js";
import { deckOf, describe, fillSelect, onHouse, refOf } from "./rulesets.js";

const KEY = "loba.check.v1";

export function initCheck() {
  const select = document.getElementById("check-ruleset");
  const desc = document.getElementById("check-ruleset-desc");
  const input = document.getElementById("check-cards");
  const verdict = document.getElementById("check-verdict");
  const latest = new Latest();
  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch (e) {
    saved = {};
  }
  let wanted = saved.ruleset; // the user's last choice (the house ruleset is offered once it has been validated)
  let choice = fillSelect(select, wanted);
  input.value = typeof saved.cards === "string" ? saved.cards : "";
  let last = null; // the last answer shown: {kind: "result"|"error", value}

  const picker = new Picker(document.getElementById("check-picker"), (card) => {
    appendCard(input, card);
    changed();
  });

  function remember() {
    try {
      localStorage.setItem(KEY, JSON.stringify({ ruleset: wanted, cards: input.value }));
    } catch (e) {
      // storage refused: nothing to keep
    }
  }

  async function loadDeck() {
    desc.textContent = describe(choice);
    try {
      picker.setDeck(await deckOf(choice));
    } catch (e) {
      picker.setDeck(null);
    }
  }

  function render() {
    verdict.replaceChildren();
    verdict.classList.remove("ok", "bad");
    if (!last) {
      verdict.append(el("p", { class: "hint", text: t("check.empty") }));
      return;
    }
    if (last.kind === "error") {
      verdict.classList.add("bad");
      verdict.append(el("p", { class: "verdict-line" }, el("span", { "aria-hidden": "true", class: "mark", text: "✗ " }),
        t("check.unreadable")));
      verdict.append(el("ul", { class: "reasons" }, ...last.value.items.map((i) =>
        el("li", { text: i.message + (i.hint ? ` (${i.hint})` : "") }))));
      return;
    }
    const r = last.value;
    if (r.valid) {
      verdict.classList.add("ok");
      verdict.append(el("p", { class: "verdict-line" }, el("span", { "aria-hidden": "true", class: "mark", text: "✓ " }),
        t("check.legal", { kind: r.kind })));
      if (r.reading) verdict.append(el("p", { class: "cards-line", text: t("check.reading", { cards: r.reading.join(" ") }) }));
      for (const w of r.wilds) verdict.append(el("p", { text: t("check.wild", { card: w.card, as: w.stands_for }) }));
      if (r.points !== null && r.points !== undefined) verdict.append(el("p", { text: t("check.points", { points: r.points }) }));
    } else {
      verdict.classList.add("bad");
      verdict.append(el("p", { class: "verdict-line" }, el("span", { "aria-hidden": "true", class: "mark", text: "✗ " }),
        t("check.illegal")));
      if (r.reasons.length) {
        verdict.append(el("p", { class: "why", text: t("check.why") }));
        verdict.append(el("ul", { class: "reasons" }, ...r.reasons.map((x) => el("li", { text: x }))));
      }
    }
  }

  async function changed() {
    remember();
    const cards = input.value.trim();
    if (!cards) {
      latest.abort();
      last = null;
      render();
      verdict.dataset.checked = "";
      return;
    }
    try {
      // the reasons come in the page's language (card, kind and rule names stay the ruleset's own)
      const r = await latest.run("POST", "/v1/check", { cards, ruleset: refOf(choice), messages: lang() });
      last = { kind: "result", value: r };
    } catch (e) {
      if (isAbort(e)) return;
      last = { kind: "error", value: e };
    }
    render();
    verdict.dataset.checked = cards; // which input the verdict answers (for the tests and the benchmark)
  }

  input.addEventListener("input", changed);
  document.getElementById("check-form").addEventListener("submit", (e) => {
    e.preventDefault();
    changed();
  });
  document.getElementById("check-undo").addEventListener("click", () => {
    removeLast(input);
    changed();
  });
  document.getElementById("check-clear").addEventListener("click", () => {
    input.value = "";
    changed();
    input.focus();
  });
  select.addEventListener("change", () => {
    choice = wanted = select.value;
    loadDeck();
    changed();
  });
  onHouse(() => {
    choice = fillSelect(select, wanted);
    loadDeck();
    if (input.value.trim()) changed();
  });
  onLang(() => {
    fillSelect(select, choice);
    desc.textContent = describe(choice);
    picker.render();
    render();
    if (input.value.trim()) changed(); // the reasons again, in the new language
  });
  const ready = loadDeck();
  render();
  if (input.value.trim()) changed();

  return {
    ready, // the picker is drawn with the ruleset's deck
    // Check these cards under this ruleset choice (from the house rules view's witnesses).
    use(ruleset, cards) {
      wanted = ruleset;
      choice = fillSelect(select, ruleset);
      loadDeck();
      if (cards !== undefined) input.value = cards;
      changed();
    },
  };
}
