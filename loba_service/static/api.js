// The service's own API, and nothing else: every answer the page shows comes from /v1.
import { t } from "./i18n.js";

export class ApiError extends Error {
  // items: [{message, hint, line, column}] in the service's words (a problem+json body's "errors").
  constructor(message, items, status) {
    super(message);
    this.items = items;
    this.status = status;
  }
}

function itemsOf(body) {
  if (body && Array.isArray(body.errors) && body.errors.length) {
    return body.errors.map((e) => ({
      message: String(e.message || ""),
      hint: e.hint ? String(e.hint) : "",
      line: e.location && e.location.line ? e.location.line : null,
      column: e.location && e.location.column ? e.location.column : null,
      length: e.location && e.location.length ? e.location.length : null,
    }));
  }
  if (body && body.detail) return [{ message: String(body.detail), hint: "", line: null, column: null }];
  return [];
}

// fetch JSON; a problem body becomes an ApiError carrying the service's messages, never the raw JSON.
// token: a live table's seat (or host) token, sent as the Authorization header (never in the URL).
export async function api(method, path, body, signal, token) {
  const init = { method, signal, headers: {} };
  if (token) init.headers.authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError(t("err.network"), [{ message: t("err.network"), hint: "" }], 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    if (e.name === "AbortError") throw e;
    data = null;
  }
  if (response.ok && data === null) {
    // the answer was cut short (the page is being left, the connection dropped): said, never used
    throw new ApiError(t("err.network"), [{ message: t("err.network"), hint: "" }], 0);
  }
  if (!response.ok) {
    const items = itemsOf(data);
    if (!items.length) items.push({ message: t("err.status", { status: response.status }), hint: "" });
    throw new ApiError(items[0].message, items, response.status);
  }
  return data;
}

// One request at a time per purpose: a new call aborts the one still in flight (a tap while the last
// check is on its way), so only the answer to the latest input is shown.
export class Latest {
  constructor() {
    this.controller = null;
  }
  async run(method, path, body) {
    if (this.controller) this.controller.abort();
    const controller = new AbortController();
    this.controller = controller;
    try {
      return await api(method, path, body, controller.signal);
    } finally {
      if (this.controller === controller) this.controller = null;
    }
  }
  abort() {
    if (this.controller) this.controller.abort();
    this.controller = null;
  }
}

export const isAbort = (e) => e && e.name === "AbortError";

// One request at a time for slow work (the solver's): while one is on its way, only the latest of the calls
// made meanwhile waits to be sent, and the answers of calls overtaken by a newer one are dropped.
export class Serial {
  constructor() {
    this.busy = false;
    this.next = null;
    this.generation = 0;
  }
  // fn: () => Promise; done(value, error) is called only for the latest call.
  run(fn, done) {
    this.generation += 1;
    const mine = this.generation;
    const go = async () => {
      this.busy = true;
      let value = null;
      let error = null;
      try {
        value = await fn();
      } catch (e) {
        error = e;
      }
      this.busy = false;
      if (mine === this.generation) done(value, error);
      if (this.next) {
        const n = this.next;
        this.next = null;
        n();
      }
    };
    if (this.busy) this.next = go;
    else go();
  }
  cancel() {
    this.generation += 1;
    this.next = null;
  }
}
