// The house rules editor: YAML validated as it is typed (POST /v1/rulesets/validate, every problem at its
// line and column), compared with the ruleset it extends (POST /v1/diff, with the witness hands), and used
// in the checker and the score sheet, or downloaded.
import { api, isAbort, Latest, Serial } from "./api.js";
import { lang, onLang, t } from "./i18n.js";
import { el } from "./picker.js";
import { HOUSE, rulesets, setHouse } from "./rulesets.js";

const KEY = "loba.house.v1";

function template(base) {
  return `name: casa\nextends: ${base}\n${t("house.template", { base })}`;
}

function fileOf(name) {
  const safe = String(name).replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[-.]+/, "").slice(0, 59) || "house";
  return `${safe}.yaml`;
}

export function initHouse(app) {
  const area = document.getElementById("house-yaml");
  const status = document.getElementById("house-status");
  const actions = document.getElementById("house-actions");
  const base = document.getElementById("house-base");
  const diffBox = document.getElementById("house-diff");
  const diffTitle = document.getElementById("house-diff-h");
  const diffBody = document.getElementById("house-diff-body");
  const download = document.getElementById("house-download");
  const validating = new Latest();
  const comparing = new Serial();
  let verdict = null; // the last /v1/rulesets/validate answer, or {error}
  let diff = null; // {base, value} | {base, error} | {base, loading}
  let timer = 0;
  let diffTimer = 0;
  let pending = null; // the valid house rules not compared yet: {value, yaml}
  let compared = null; // the last rules compared: {v, yaml}
  const view = document.getElementById("view-house");

  function comparePending() {
    if (!pending) return;
    const { value, yaml } = pending;
    pending = null;
    compare(value, yaml);
  }

  let saved = {};
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch (e) {
    saved = {};
  }
  for (const r of rulesets.shipped) base.append(el("option", { value: r.name, text: r.name }));
  base.value = rulesets.shipped.some((r) => r.name === saved.base) ? saved.base : rulesets.defaultName;
  area.value = typeof saved.yaml === "string" ? saved.yaml : template(base.value);

  function remember() {
    try {
      localStorage.setItem(KEY, JSON.stringify({ yaml: area.value, base: base.value }));
    } catch (e) {
      // storage refused
    }
  }

  function goTo(item) {
    const lines = area.value.split("\n");
    let offset = 0;
    for (let i = 0; i < item.line - 1 && i < lines.length; i += 1) offset += lines[i].length + 1;
    offset += Math.max(0, (item.column || 1) - 1);
    area.focus();
    area.setSelectionRange(offset, offset + Math.max(1, item.length || 1));
  }

  function renderStatus() {
    status.replaceChildren();
    status.classList.remove("ok", "bad");
    actions.hidden = true;
    if (!verdict) {
      status.append(el("p", { class: "hint", text: t("house.checking") }));
      return;
    }
    if (verdict.error) {
      status.classList.add("bad");
      status.append(el("p", { text: t("err.title") }),
        el("ul", { class: "reasons" }, ...verdict.error.items.map((i) => el("li", { text: i.message }))));
      return;
    }
    const v = verdict.value;
    if (v.valid) {
      status.classList.add("ok");
      const kinds = v.kinds.join(", ");
      status.append(el("p", { class: "verdict-line" }, el("span", { "aria-hidden": "true", class: "mark", text: "✓ " }),
        v.extends ? t("house.valid", { name: v.name, base: v.extends, kinds }) : t("house.validAlone", { name: v.name, kinds })));
      actions.hidden = false;
      download.textContent = t("house.download", { file: fileOf(v.name) });
      return;
    }
    status.classList.add("bad");
    status.append(el("p", { class: "verdict-line" }, el("span", { "aria-hidden": "true", class: "mark", text: "✗ " }),
      v.errors.length === 1 ? t("house.problems1") : t("house.problems", { n: v.errors.length })));
    status.append(el("ul", { class: "reasons", id: "house-errors" }, ...v.errors.map((e) => {
      const loc = e.location || {};
      const item = { line: loc.line, column: loc.column, length: loc.length };
      const where = loc.line ? (loc.column ? t("house.at", { line: loc.line, column: loc.column }) : t("house.atLine", { line: loc.line })) : "";
      const li = el("li");
      if (where) li.append(el("button", { type: "button", class: "link", text: where, onclick: () => goTo(item) }), ": ");
      li.append(e.message + (e.hint ? ` (${e.hint})` : ""));
      return li;
    })));
  }

  function renderDiff() {
    if (!diff) {
      diffBox.hidden = true;
      return;
    }
    diffBox.hidden = false;
    diffTitle.textContent = t("house.diffTitle", { base: diff.base });
    diffBody.replaceChildren();
    if (diff.loading) {
      diffBody.append(el("p", { class: "hint", text: t("house.diffLoading", { base: diff.base }) }));
      return;
    }
    if (diff.error) {
      diffBody.append(el("ul", { class: "reasons bad" }, ...diff.error.items.map((i) => el("li", { text: i.message }))));
      return;
    }
    const d = diff.value;
    if (d.same) {
      diffBody.append(el("p", { text: t("house.same", { name: d.right, base: d.left }) }));
      return;
    }
    const changes = [];
    for (const area of Object.values(d.areas)) {
      for (const c of area.changes) {
        changes.push(el("li", {}, el("span", { text: c.summary }), " ",
          el("span", { class: "where", text: `(${c.path}: ${c.left_where || "—"} → ${c.right_where || "—"})` })));
      }
    }
    diffBody.append(el("h3", { text: t("house.rules") }), el("ul", { class: "changes" }, ...changes));
    if (d.witnesses && d.witnesses.length) {
      const items = d.witnesses.map((w) => {
        const li = el("li", {}, el("span", { class: "cards-cell", text: w.example }),
          el("span", { class: "under" }, el("b", { text: t("house.under", { name: d.left }) + ": " }), w.left),
          el("span", { class: "under" }, el("b", { text: t("house.under", { name: d.right }) + ": " }), w.right));
        if (w.kind === "meld" && w.cards && w.cards.length) {
          const cards = w.cards.join(" ");
          li.append(el("button", { type: "button", class: "secondary small try", text: t("house.tryIt"),
            "aria-label": t("house.tryItLabel", { cards, name: d.right }),
            onclick: () => {
              app.check.use(HOUSE, cards);
              app.go("check");
            } }));
        }
        return li;
      });
      diffBody.append(el("h3", { text: t("house.witnesses") }), el("ul", { class: "witnesses" }, ...items));
    }
  }

  async function compare(v, yaml) {
    if (!v.extends) {
      diff = null;
      renderDiff();
      return;
    }
    diff = { base: v.extends, loading: true };
    compared = { v, yaml };
    renderDiff();
    // The witnesses are searched by the solver: a person waits for them, so the budget is the service's largest.
    // Its problems (a house ruleset that does not compile there) come in the page's language, as validate's.
    const body = { left: v.extends, right: { yaml, file: fileOf(v.name) }, budget_ms: 10000, messages: lang() };
    comparing.run(() => api("POST", "/v1/diff", body), (value, error) => {
      diff = error ? { base: v.extends, error } : { base: v.extends, value };
      renderDiff();
    });
  }

  async function validate() {
    const yaml = area.value;
    try {
      // every problem in the page's language, at its line and column
      const value = await validating.run("POST", "/v1/rulesets/validate", { yaml, file: "house.yaml", messages: lang() });
      verdict = { value };
      if (value.valid) {
        setHouse({ yaml, file: fileOf(value.name), name: value.name, extends: value.extends, deck: value.deck });
        window.clearTimeout(diffTimer);
        pending = { value, yaml };
        if (!view.hidden) diffTimer = window.setTimeout(comparePending, 500);
      } else {
        window.clearTimeout(diffTimer);
        pending = null;
        comparing.cancel();
        diff = null;
        renderDiff();
      }
    } catch (e) {
      if (isAbort(e)) return;
      verdict = { error: e };
    }
    renderStatus();
  }

  area.addEventListener("input", () => {
    remember();
    window.clearTimeout(timer);
    timer = window.setTimeout(validate, 150);
  });
  document.getElementById("house-new").addEventListener("click", () => {
    if (area.value.trim() && area.value !== template(base.value) && !window.confirm(t("house.confirmNew"))) return;
    area.value = template(base.value);
    remember();
    validate();
    area.focus();
  });
  base.addEventListener("change", remember);
  document.getElementById("house-use-check").addEventListener("click", () => {
    app.check.use(HOUSE);
    app.go("check");
  });
  document.getElementById("house-use-sheet").addEventListener("click", () => {
    app.sheet.use(HOUSE);
    app.go("sheet");
  });
  download.addEventListener("click", (e) => {
    e.preventDefault();
    if (!rulesets.house) return;
    const url = URL.createObjectURL(new Blob([area.value], { type: "application/yaml;charset=utf-8" }));
    const a = el("a", { href: url, download: rulesets.house.file, hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10000);
  });
  onLang(() => {
    renderStatus();
    renderDiff();
    // the service's words about the YAML again, in the new language
    if (verdict && (verdict.error || (verdict.value && !verdict.value.valid))) validate();
    if (diff && diff.error && compared) compare(compared.v, compared.yaml);
  });
  renderStatus();
  return {
    ready: validate(),
    // The view is shown: compare the rules with their base now if that is still to do.
    shown() {
      window.clearTimeout(diffTimer);
      comparePending();
    },
  };
}
