// The match score sheet.  The page keeps what was written down (players, each round's points or cards,
// re-entries) in the browser; every total, elimination, re-entry offer and the winner come from
// POST /v1/score/match, asked again after every change, so editing a past round recomputes everything after
// it.  Export and import go through /v1/sheets/match/write and /read: the file is the one `loba match` reads.
import { api, ApiError } from "./api.js";
import { lang, onLang, t } from "./i18n.js";
import { el } from "./picker.js";
import { playersField } from "./players.js";
import { fillSelect, HOUSE, houseLabel, onHouse, refOf, rulesets } from "./rulesets.js";

const KEY = "loba.sheet.v1";
const SHEET_HOUSE = "@sheet";

let sheet = null; // {ruleset, players, rounds: [{mode, stock_out, cells: {name: cell}, reenter: []}]}
let result = null; // the last answer of /v1/score/match for the counted rounds
let counted = 0; // how many rounds `result` counts (all of them unless the sheet has a problem)
let countedReentries = true; // whether the re-entries after the last counted round are counted
let problem = null; // the ApiError of the whole sheet, if any
let editing = null; // index of the round being edited, or null (a new round)
let formError = null;
let setup = { ruleset: null, players: ["", "", "", ""], error: null };
let exported = null; // {text, command}
let body;
let announcer;

function save() {
  try {
    if (sheet) localStorage.setItem(KEY, JSON.stringify(sheet));
    else localStorage.removeItem(KEY);
  } catch (e) {
    // storage refused: the sheet lives as long as the page
  }
}

function load() {
  try {
    const s = JSON.parse(localStorage.getItem(KEY) || "null");
    if (s && Array.isArray(s.players) && Array.isArray(s.rounds)) return s;
  } catch (e) {
    return null;
  }
  return null;
}

function announce(text) {
  announcer.textContent = "";
  window.setTimeout(() => {
    announcer.textContent = text;
  }, 50);
}

// ---------------------------------------------------------------- the sheet as the API takes it

function emptyCell() {
  return { points: "", out: false, table: "", hand: "", atOnce: false };
}

function hasLine(round, name) {
  const c = round.cells[name];
  if (!c) return false;
  if (round.mode === "points") return c.points.trim() !== "" || c.out;
  return c.table.trim() !== "" || c.hand.trim() !== "" || c.out;
}

function pointsOf(text) {
  const s = text.trim();
  return s === "" ? 0 : Number(s);
}

function apiRounds(rounds) {
  return rounds.map((r) => {
    const names = sheet.players.filter((n) => hasLine(r, n));
    const out = { stock_out: !!r.stock_out, reenter: r.reenter.slice() };
    if (r.mode === "points") {
      out.points = names.map((n) => ({ name: n, points: pointsOf(r.cells[n].points), went_out: !!r.cells[n].out }));
    } else {
      out.players = names.map((n) => {
        const c = r.cells[n];
        return { name: n, melds: c.table.split("|").map((m) => m.trim()).filter((m) => m),
          hand: c.hand.trim(), went_out: !!c.out || !!c.atOnce, all_at_once: !!c.atOnce };
      });
    }
    return out;
  });
}

function rulesetRef() {
  return refOf(sheet.ruleset);
}

function score(rounds) {
  return api("POST", "/v1/score/match", { ruleset: rulesetRef(), players: sheet.players, rounds: apiRounds(rounds),
    messages: lang() });
}

// Score the sheet; when it has a problem, score the longest beginning of it that has none, so the totals up to
// the round the problem names still show.
async function recompute() {
  problem = null;
  try {
    result = await score(sheet.rounds);
    counted = sheet.rounds.length;
    countedReentries = true;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    problem = e;
    result = null;
    counted = 0;
    for (let k = sheet.rounds.length; k >= 1 && !result; k -= 1) {
      const prefix = sheet.rounds.slice(0, k);
      const tries = [];
      if (k < sheet.rounds.length) tries.push([prefix, true]);
      if (prefix[k - 1].reenter.length) {
        tries.push([[...prefix.slice(0, k - 1), { ...prefix[k - 1], reenter: [] }], false]);
      }
      for (const [rounds, withReentries] of tries) {
        try {
          result = await score(rounds);
          counted = k;
          countedReentries = withReentries;
          break;
        } catch (e2) {
          if (!(e2 instanceof ApiError)) throw e2;
        }
      }
    }
    if (!result) {
      try {
        result = await score([]);
      } catch (e3) {
        result = null;
      }
    }
  }
  render();
}

// ---------------------------------------------------------------- rendering

function problemList(err, titleKey) {
  return el("div", { class: "problem", role: "alert" },
    el("p", { text: t(titleKey) }),
    el("ul", {}, ...err.items.map((i) => el("li", { text: i.message + (i.hint ? ` (${i.hint})` : "") }))));
}

function rulesetField(id, value, onChange) {
  const select = el("select", { id });
  const extra = [];
  if (sheet && typeof sheet.ruleset === "object" && sheet.ruleset &&
      !(rulesets.house && rulesets.house.yaml === sheet.ruleset.yaml)) {
    extra.push({ value: SHEET_HOUSE, label: houseLabel(sheet.ruleset) });
  }
  fillSelect(select, value, extra);
  select.addEventListener("change", () => onChange(select.value));
  return el("div", { class: "field" }, el("label", { for: id, text: t("ruleset") }), select);
}

function choiceValue(ruleset) {
  if (typeof ruleset === "object" && ruleset) {
    return rulesets.house && rulesets.house.yaml === ruleset.yaml ? HOUSE : SHEET_HOUSE;
  }
  return ruleset;
}

function snapshot(value) {
  if (value === HOUSE && rulesets.house) {
    const h = rulesets.house;
    return { yaml: h.yaml, file: h.file, name: h.name };
  }
  if (value === SHEET_HOUSE) return sheet.ruleset;
  return value;
}

function renderSetup() {
  const form = el("form", { id: "sheet-setup", class: "card-box", novalidate: true });
  form.append(el("h2", { text: t("sheet.new") }));
  form.append(rulesetField("sheet-ruleset", setup.ruleset || rulesets.defaultName, (v) => {
    setup.ruleset = v;
  }));
  const list = playersField("sheet", setup.players, render);
  form.append(list);
  if (setup.error) form.append(problemList(setup.error, "err.title"));
  form.append(el("div", { class: "actions" },
    el("button", { type: "submit", id: "sheet-start", text: t("sheet.start") }),
    importButton()));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    start();
  });
  body.append(form);
}

async function start() {
  const players = setup.players.map((n) => n.trim().replace(/\s+/g, " ")).filter((n) => n);
  if (!players.length || new Set(players).size !== players.length) {
    setup.error = new ApiError(t("sheet.namesNeeded"), [{ message: t("sheet.namesNeeded"), hint: "" }], 0);
    render();
    return;
  }
  const ruleset = snapshot(setup.ruleset || rulesets.defaultName);
  sheet = { v: 1, ruleset, players, rounds: [] };
  try {
    // The names must fit a match file (for the export) and the ruleset's table (how many may play).
    await api("POST", "/v1/sheets/match/write", { ruleset: rulesetRef(), players, rounds: [], messages: lang() });
    await score([]);
  } catch (e) {
    sheet = null;
    if (!(e instanceof ApiError)) throw e;
    setup.error = e;
    render();
    return;
  }
  setup.error = null;
  editing = null;
  save();
  await recompute();
  const first = document.querySelector("#sheet-form input");
  if (first) first.focus();
}

function cellView(r, i, name) {
  if (i < counted && result && result.rounds[i]) {
    const rr = result.rounds[i];
    if (!(name in rr.scores)) return el("td", { class: "none" }, el("span", { "aria-hidden": "true", text: "—" }));
    const score = rr.scores[name];
    const gone = rr.eliminated.includes(name);
    const total = el("span", { class: "total", text: String(rr.totals[name]) });
    if (gone) total.append(el("span", { class: "mark", "aria-hidden": "true", text: " ✗" }),
      el("span", { class: "sr-only", text: " " + t("sheet.status.eliminated") }));
    return el("td", { class: gone ? "gone" : "" }, total,
      el("span", { class: "delta", text: (score >= 0 ? "+" : "") + score }));
  }
  if (!hasLine(r, name)) return el("td", { class: "none" }, el("span", { "aria-hidden": "true", text: "—" }));
  const c = r.cells[name];
  const raw = r.mode === "points" ? (c.out ? `${t("sheet.out")} ${c.points}`.trim() : c.points) : t("sheet.cardsCell");
  return el("td", { class: "uncounted" }, el("span", { text: raw }));
}

function eventsRow(i, ncols) {
  const items = [];
  const rr = i < counted && result ? result.rounds[i] : null;
  const r = sheet.rounds[i];
  if (rr) {
    for (const name of rr.eliminated) {
      const key = rr.out_for_good.includes(name) ? "sheet.outForGood" : "sheet.eliminated";
      items.push(el("li", { class: "gone", text: t(key, { name, total: rr.totals[name] }) }));
    }
  }
  const counts = rr && (i < counted - 1 || countedReentries);
  for (const name of r.reenter) {
    const done = counts ? rr.reentries.find((x) => x.name === name) : null;
    const text = done ? t("sheet.reentered", { name, score: done.score, n: done.reentry })
      : `${t("sheet.reentered", { name, score: "?", n: "?" })} — ${t("sheet.notCounted")}`;
    items.push(el("li", { class: done ? "back" : "uncounted" }, el("span", { text }), " ",
      el("button", { type: "button", class: "secondary small", "aria-label": t("sheet.undoReentryLabel", { name, n: i + 1 }),
        text: t("sheet.undoReentry"), onclick: () => undoReentry(i, name) })));
  }
  if (rr && counts) {
    for (const offer of rr.offers) {
      items.push(el("li", { class: "offer" }, el("span", { text: t("sheet.offer", offer) }), " ",
        el("button", { type: "button", class: "small", text: t("sheet.reenter", offer), onclick: () => reenter(i, offer.name) })));
    }
  }
  if (!items.length) return null;
  return el("tr", { class: "events" }, el("td", { colspan: String(ncols) }, el("ul", {}, ...items)));
}

async function reenter(i, name) {
  sheet.rounds[i].reenter.push(name);
  save();
  await recompute();
  const rr = result && result.rounds[i];
  const done = rr && rr.reentries.find((x) => x.name === name);
  if (done) announce(t("sheet.reentered", { name, score: done.score, n: done.reentry }));
  focusAfterChange();
}

async function undoReentry(i, name) {
  sheet.rounds[i].reenter = sheet.rounds[i].reenter.filter((n) => n !== name);
  save();
  await recompute();
  announce(t("sheet.recomputed", { n: i + 1 }));
  focusAfterChange();
}

function focusAfterChange() {
  const target = document.querySelector("#sheet-form input, #sheet-table");
  if (target) target.focus();
}

function renderTable() {
  const ncols = sheet.players.length + 1;
  const table = el("table", { id: "sheet-table", class: "sheet", tabindex: "-1" });
  table.append(el("caption", { class: "sr-only", text: t("sheet.caption") }));
  table.append(el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("sheet.round") }),
    ...sheet.players.map((n) => el("th", { scope: "col", text: n })))));
  const tbody = el("tbody");
  sheet.rounds.forEach((r, i) => {
    const label = t("sheet.editRound", { n: i + 1 });
    const th = el("th", { scope: "row" }, el("button", { type: "button", class: "round-edit", "aria-label": label,
      title: label, onclick: () => startEdit(i) }, el("span", { text: String(i + 1) }),
      el("span", { class: "pencil", "aria-hidden": "true", text: "✎" })));
    if (i >= counted) th.append(el("span", { class: "tag", text: t("sheet.notCounted") }));
    tbody.append(el("tr", { class: i >= counted ? "uncounted" : "" }, th, ...sheet.players.map((n) => cellView(r, i, n))));
    const ev = eventsRow(i, ncols);
    if (ev) tbody.append(ev);
  });
  if (!sheet.rounds.length) tbody.append(el("tr", {}, el("td", { colspan: String(ncols), class: "hint", text: t("sheet.noRounds") })));
  table.append(tbody);
  if (result) {
    const byName = Object.fromEntries(result.standings.map((s) => [s.name, s]));
    table.append(el("tfoot", {}, el("tr", {}, el("th", { scope: "row", text: "Σ" }, el("span", { class: "sr-only", text: " " + t("sheet.standings") })),
      ...sheet.players.map((n) => {
        const s = byName[n];
        if (!s) return el("td", { text: "—" });
        const extra = s.reentries ? (s.reentries === 1 ? t("sheet.reentries1") : t("sheet.reentries", { n: s.reentries })) : "";
        return el("td", { class: `status-${s.status.replace(/ /g, "-")}` }, el("span", { class: "total", text: String(s.total) }),
          el("span", { class: "status", text: t(`sheet.status.${s.status}`) + (extra ? ` · ${extra}` : "") }));
      }))));
  }
  return el("div", { class: "table-wrap" }, table);
}

function activeNames() {
  if (!result || !result.rounds.length) return sheet.players.slice();
  return result.standings.filter((s) => s.status === "in").map((s) => s.name);
}

function startEdit(i) {
  editing = i;
  formError = null;
  render();
  const legend = document.getElementById("sheet-form-legend");
  if (legend) legend.focus();
}

function readForm(form, round, names) {
  round.mode = form.querySelector("input[name=sheet-mode]:checked").value;
  round.stock_out = form.querySelector("#sheet-stock").checked;
  for (const name of names) {
    const i = sheet.players.indexOf(name);
    const c = round.cells[name] || emptyCell();
    const v = (id) => {
      const x = form.querySelector(`#${id}-${i}`);
      return x ? x : null;
    };
    if (v("sp")) c.points = v("sp").value;
    if (v("so")) c.out = v("so").checked;
    if (v("st")) c.table = v("st").value;
    if (v("sh")) c.hand = v("sh").value;
    if (v("sa")) c.atOnce = v("sa").checked;
    round.cells[name] = c;
  }
}

function renderForm() {
  const isEdit = editing !== null;
  const n = isEdit ? editing + 1 : sheet.rounds.length + 1;
  const round = isEdit ? JSON.parse(JSON.stringify(sheet.rounds[editing]))
    : { mode: sheet.rounds.length ? sheet.rounds[sheet.rounds.length - 1].mode : "points", stock_out: false, cells: {}, reenter: [] };
  const names = isEdit ? sheet.players.slice() : activeNames();
  const form = el("form", { id: "sheet-form", class: "card-box", novalidate: true, autocomplete: "off" });
  const fs = el("fieldset", {}, el("legend", { id: "sheet-form-legend", tabindex: "-1",
    text: isEdit ? t("sheet.editing", { n }) : t("sheet.newRound", { n }) }));
  const modes = el("fieldset", { class: "modes" }, el("legend", { text: t("sheet.mode") }));
  for (const m of ["points", "cards"]) {
    const id = `sheet-mode-${m}`;
    const radio = el("input", { type: "radio", name: "sheet-mode", id, value: m, checked: round.mode === m });
    radio.addEventListener("change", () => {
      readForm(form, round, names);
      round.mode = m;
      draw();
    });
    modes.append(el("span", { class: "check" }, radio, el("label", { for: id, text: t(`sheet.mode.${m}`) })));
  }
  fs.append(modes);
  const rows = el("div", { class: "entries" });
  fs.append(rows);
  const stock = el("input", { type: "checkbox", id: "sheet-stock", checked: !!round.stock_out });
  fs.append(el("div", { class: "check" }, stock, el("label", { for: "sheet-stock", text: t("sheet.stockOut") })));

  function draw() {
    rows.replaceChildren();
    rows.append(el("p", { class: "hint", id: "sheet-form-hint",
      text: (round.mode === "points" ? t("sheet.pointsHint") : t("sheet.cardsHint")) + (isEdit ? " " + t("sheet.blankHint") : "") }));
    for (const name of names) {
      const i = sheet.players.indexOf(name);
      const c = round.cells[name] || emptyCell();
      const nameId = `sn-${i}`;
      if (round.mode === "points") {
        const outLabel = el("label", { for: `so-${i}`, id: `sol-${i}`, text: t("sheet.wentOut", { name: "" }).trim() });
        rows.append(el("div", { class: "entry points" },
          el("label", { for: `sp-${i}`, id: nameId, class: "who", text: name }),
          el("input", { id: `sp-${i}`, type: "text", inputmode: "numeric", value: c.points, "aria-describedby": "sheet-form-hint", size: "5" }),
          el("span", { class: "check" }, el("input", { type: "checkbox", id: `so-${i}`, checked: !!c.out, "aria-labelledby": `${nameId} sol-${i}` }), outLabel)));
      } else {
        const legendId = `sl-${i}`;
        rows.append(el("fieldset", { class: "entry cards" }, el("legend", { id: legendId, class: "who", text: name }),
          el("div", { class: "field" }, el("label", { for: `st-${i}`, text: t("sheet.table", { name }) }),
            el("input", { id: `st-${i}`, type: "text", value: c.table, spellcheck: "false", autocapitalize: "none" })),
          el("div", { class: "field" }, el("label", { for: `sh-${i}`, text: t("sheet.handOf", { name }) }),
            el("input", { id: `sh-${i}`, type: "text", value: c.hand, spellcheck: "false", autocapitalize: "none" })),
          el("span", { class: "check" }, el("input", { type: "checkbox", id: `so-${i}`, checked: !!c.out }),
            el("label", { for: `so-${i}`, text: t("sheet.wentOut", { name }) })),
          el("span", { class: "check" }, el("input", { type: "checkbox", id: `sa-${i}`, checked: !!c.atOnce }),
            el("label", { for: `sa-${i}`, text: t("sheet.allAtOnce", { name }) }))));
      }
    }
  }
  draw();
  form.append(fs);
  if (formError) form.append(problemList(formError, "err.title"));
  const actions = el("div", { class: "actions" },
    el("button", { type: "submit", id: "sheet-save", text: isEdit ? t("sheet.saveRound", { n }) : t("sheet.addRound", { n }) }));
  if (isEdit) {
    actions.append(el("button", { type: "button", class: "secondary", text: t("sheet.cancel"), onclick: () => {
      const i = editing;
      editing = null;
      formError = null;
      render();
      const b = document.querySelectorAll(".round-edit")[i];
      if (b) b.focus();
    } }));
  }
  form.append(actions);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    readForm(form, round, names);
    const bad = names.filter((nm) => round.mode === "points" && round.cells[nm] && !/^\s*[-+]?\d*\s*$/.test(round.cells[nm].points));
    if (bad.length) {
      formError = new ApiError("", bad.map((nm) => ({ message: `${nm}: ${round.cells[nm].points}`, hint: t("sheet.pointsHint") })), 0);
      render();
      return;
    }
    formError = null;
    fs.disabled = true; // until the sheet is drawn again with the answer
    if (isEdit) sheet.rounds[editing] = round;
    else sheet.rounds.push(round);
    editing = null;
    save();
    await recompute();
    announce(isEdit ? t("sheet.recomputed", { n }) : t("sheet.saved", { n }));
    focusAfterChange();
  });
  return form;
}

function renderWinner() {
  if (!result || problem) return null;
  if (result.over && result.winner) {
    const names = result.winner.join(", ");
    return el("p", { class: "winner", id: "sheet-winner" },
      el("span", { "aria-hidden": "true", text: "🏆 " }),
      t(result.winner.length > 1 ? "sheet.winners" : "sheet.winner", { names }), " ",
      el("span", { class: "how", text: `(${result.how})` }));
  }
  return el("p", { class: "hint", id: "sheet-winner", text: t("sheet.notOver") });
}

function importButton() {
  const file = el("input", { type: "file", id: "sheet-import-file", accept: ".txt,text/plain", hidden: true });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    const text = await f.text();
    await importText(text);
  });
  return el("span", {}, el("button", { type: "button", class: "secondary", id: "sheet-import", text: t("sheet.import"),
    onclick: () => file.click() }), file);
}

async function importText(text) {
  const ruleset = sheet ? sheet.ruleset : snapshot(setup.ruleset || rulesets.defaultName);
  let read;
  try {
    read = await api("POST", "/v1/sheets/match/read", { sheet: text, ruleset: refOf(ruleset), messages: lang() });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    if (sheet) problem = e;
    else setup.error = e;
    render();
    return;
  }
  const players = read.players ? read.players.slice() : [];
  const rounds = read.rounds.map((r) => {
    const cells = {};
    if (r.points) {
      for (const p of r.points) cells[p.name] = { ...emptyCell(), points: p.went_out && !p.points ? "" : String(p.points), out: p.went_out };
    } else {
      for (const p of r.players) cells[p.name] = { ...emptyCell(), table: p.melds.join(" | "), hand: p.hand, out: p.went_out && !p.all_at_once, atOnce: p.all_at_once };
    }
    for (const name of Object.keys(cells)) if (!players.includes(name)) players.push(name);
    return { mode: r.points ? "points" : "cards", stock_out: r.stock_out, cells, reenter: r.reenter.slice() };
  });
  sheet = { v: 1, ruleset, players, rounds };
  editing = null;
  setup.error = null;
  save();
  await recompute();
  announce(t("sheet.imported", { rounds: rounds.length }));
}

async function exportSheet() {
  let r;
  try {
    r = await api("POST", "/v1/sheets/match/write", { ruleset: rulesetRef(), players: sheet.players,
      rounds: apiRounds(sheet.rounds), messages: lang() });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    problem = e;
    render();
    return;
  }
  const file = "loba-match.txt";
  const url = URL.createObjectURL(new Blob([r.sheet], { type: "text/plain;charset=utf-8" }));
  const a = el("a", { href: url, download: file, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10000);
  const house = typeof sheet.ruleset === "object" && sheet.ruleset;
  const command = `loba match ${file} --ruleset ${house ? sheet.ruleset.file : sheet.ruleset}`;
  exported = { text: r.sheet, command };
  render();
  announce(t("sheet.exported", { command }));
}

function renderTools() {
  const tools = el("div", { class: "actions tools" },
    el("button", { type: "button", class: "secondary", id: "sheet-export", text: t("sheet.export"), onclick: exportSheet }),
    importButton(),
    el("button", { type: "button", class: "secondary", id: "sheet-discard", text: t("sheet.discard"), onclick: () => {
      if (!window.confirm(t("sheet.confirmDiscard"))) return;
      sheet = null;
      result = null;
      problem = null;
      exported = null;
      editing = null;
      save();
      render();
      const first = document.getElementById("sheet-player-0");
      if (first) first.focus();
    } }));
  const box = el("div", {}, tools);
  if (exported) {
    box.append(el("p", { class: "hint", text: t("sheet.exported", { command: exported.command }) }),
      el("details", {}, el("summary", { text: t("sheet.fileText") }), el("pre", { class: "file", text: exported.text })));
  }
  return box;
}

function render() {
  body.replaceChildren();
  if (!sheet) {
    renderSetup();
    return;
  }
  body.append(rulesetField("sheet-ruleset", choiceValue(sheet.ruleset), async (v) => {
    sheet.ruleset = snapshot(v);
    save();
    await recompute();
    announce(t("sheet.rulesetChanged"));
  }));
  body.append(renderTable());
  if (problem) body.append(problemList(problem, "sheet.problem"));
  const winner = renderWinner();
  if (winner) body.append(winner);
  if (editing !== null || (!problem && !(result && result.over))) body.append(renderForm());
  body.append(renderTools());
}

export function initSheet() {
  body = document.getElementById("sheet-body");
  announcer = document.getElementById("sheet-announce");
  sheet = load();
  onLang(() => {
    render();
    if (sheet && problem) recompute().catch(() => render()); // the service's words again, in the new language
  });
  onHouse(() => render());
  if (sheet) recompute().catch(() => render());
  else render();
  return {
    // Use this ruleset choice (the house rules view's button): for the sheet in progress, or the next one.
    use(choice) {
      if (sheet) {
        sheet.ruleset = snapshot(choice);
        save();
        recompute().then(() => announce(t("sheet.rulesetChanged")));
      } else {
        setup.ruleset = choice;
        render();
      }
    },
  };
}
