// The rulesets a page view may use: the shipped ones (GET /v1/rulesets) and the house ruleset being written
// (validated by POST /v1/rulesets/validate), with their decks for the card pickers.
import { api } from "./api.js";
import { t } from "./i18n.js";

export const HOUSE = "@house";

export const rulesets = {
  shipped: [],
  defaultName: "menos",
  house: null, // {yaml, file, name, extends, deck}: the last valid house ruleset
};

const details = new Map();
const listeners = [];

export async function loadShipped() {
  const r = await api("GET", "/v1/rulesets");
  rulesets.shipped = r.rulesets;
  rulesets.defaultName = r.default;
}

// GET /v1/rulesets/NAME, once per name.
export function showOf(name) {
  if (!details.has(name)) {
    const p = api("GET", `/v1/rulesets/${encodeURIComponent(name)}`);
    p.catch(() => details.delete(name));
    details.set(name, p);
  }
  return details.get(name);
}

export function isShipped(name) {
  return rulesets.shipped.some((r) => r.name === name);
}

// What a request's "ruleset" is for a choice: a shipped name, or the house ruleset's YAML.
export function refOf(choice) {
  if (typeof choice === "object" && choice) return { yaml: choice.yaml, file: choice.file };
  if (choice === HOUSE && rulesets.house) return { yaml: rulesets.house.yaml, file: rulesets.house.file };
  return isShipped(choice) ? choice : rulesets.defaultName;
}

export async function deckOf(choice) {
  if (typeof choice === "object" && choice) return choice.deck;
  if (choice === HOUSE && rulesets.house) return rulesets.house.deck;
  return (await showOf(isShipped(choice) ? choice : rulesets.defaultName)).deck;
}

export function houseLabel(house) {
  return `${house.name} (${t("houseTag")})`;
}

export function describe(choice) {
  if (choice === HOUSE && rulesets.house) return houseLabel(rulesets.house);
  const r = rulesets.shipped.find((x) => x.name === choice);
  return r ? r.description : "";
}

// Fill a ruleset combobox: the shipped rulesets, then the house ruleset when there is a valid one; extra
// options ([{value, label}]) after them.  The chosen value is kept when it is still there.
export function fillSelect(select, value, extra) {
  select.replaceChildren();
  for (const r of rulesets.shipped) {
    const o = document.createElement("option");
    o.value = r.name;
    o.textContent = r.name;
    select.append(o);
  }
  if (rulesets.house) {
    const o = document.createElement("option");
    o.value = HOUSE;
    o.textContent = houseLabel(rulesets.house);
    select.append(o);
  }
  for (const x of extra || []) {
    const o = document.createElement("option");
    o.value = x.value;
    o.textContent = x.label;
    select.append(o);
  }
  const values = Array.from(select.options).map((o) => o.value);
  select.value = values.includes(value) ? value : rulesets.defaultName;
  return select.value;
}

export function setHouse(house) {
  rulesets.house = house;
  for (const fn of listeners) fn(house);
}

export function onHouse(fn) {
  listeners.push(fn);
}
