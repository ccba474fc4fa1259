// What every page of sprtec shares: its words (the catalogue the server embedded), the API with ETags, the
// game's websocket (msgpack frames decoded with the vendored @msgpack/msgpack), the header and small helpers.
"use strict";

const WORDS = JSON.parse(document.getElementById("words").textContent);
const LANGUAGES = JSON.parse(document.getElementById("languages-known").textContent);
const PAGE = document.body.dataset.page;
const SUBJECT = document.body.dataset.id;

// The translation of an English text (gettext's _): the page's catalogue, else the text itself.
function _(text) {
  return WORDS[text] || text;
}

// {name} fields filled from an object, as Python's str.format does for the same catalogue strings.
function fmt(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// One element: el("td", {class: "x", text: "…"}, child, …); attributes starting with "on" are listeners.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

// Append the children that are there (null, undefined and false are left out; DOM's append would write "null").
function add(node, ...children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child);
  }
  return node;
}

// m:ss of a number of milliseconds (rounded up, so 0:01 shows until the last millisecond).
function clock(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function rating(seat) {
  if (!seat || seat.rating === null || seat.rating === undefined) return "";
  return `${seat.rating}${seat.provisional ? "?" : ""}`;
}

function when(ms) {
  return new Date(ms).toLocaleString(document.documentElement.lang, {dateStyle: "short", timeStyle: "short"});
}

// A part of the match in words ("period 2", "break", "shootout"), from RoomInfo.part or Position.part.
function partName(part) {
  if (!part) return "";
  if (typeof part === "object") {
    const names = {period: _("period {n}"), break: _("break {n}"), overtime: _("overtime {n}"), shootout: _("shootout")};
    return fmt(names[part.kind] || part.kind, {n: part.number});
  }
  const [kind, number] = String(part).split(" ");
  const names = {period: _("period {n}"), break: _("break {n}"), overtime: _("overtime {n}"), shootout: _("shootout")};
  return names[kind] ? fmt(names[kind], {n: number || ""}).trim() : String(part);
}

// GET an API path as JSON; with the ETag of the last answer, a 304 gives {changed: false}.
async function api(path, etag) {
  const headers = etag ? {"If-None-Match": etag} : {};
  const response = await fetch(path, {headers, cache: "no-store"});
  if (response.status === 304) return {changed: false, etag, status: 304};
  const data = await response.json().catch(() => null);
  return {changed: true, etag: response.headers.get("ETag"), status: response.status, data};
}

// Ask an API path every `everyMs` and call `show(data)` only when its ETag changed.
function poll(path, everyMs, show) {
  let etag = null;
  let stopped = false;
  async function once() {
    if (stopped) return;
    try {
      const found = await api(path, etag);
      if (found.changed) {
        etag = found.etag;
        show(found.data, found.status);
      }
    } catch (problem) {
      console.warn("poll", path, problem);
    }
    setTimeout(once, everyMs);
  }
  once();
  return () => { stopped = true; };
}

// The game's websocket as a spectator: Hello (with the token this browser was given before), then `onWelcome`;
// every server message goes to `onMessage`. Reconnects after a drop, and says Hello again.
class Live {
  constructor(onWelcome, onMessage, onState) {
    this.onWelcome = onWelcome;
    this.onMessage = onMessage;
    this.onState = onState || (() => {});
    this.closed = false;
    this.delay = 1000;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/`);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => {
      const hello = {t: "Hello", protocol: 1, client: "sprtec-web/0.1"};
      const token = localStorage.getItem("sprtec_token");
      if (token) hello.token = token;
      this.send(hello);
    };
    ws.onmessage = (event) => {
      const message = MessagePack.decode(new Uint8Array(event.data));
      if (message.t === "Welcome") {
        localStorage.setItem("sprtec_token", message.token);
        this.delay = 1000;
        this.onState("live");
        this.onWelcome(this);
        return;
      }
      this.onMessage(message, this);
    };
    ws.onclose = (event) => {
      if (event.code === 4002) localStorage.removeItem("sprtec_token"); // a token this server does not know
      this.onState("offline");
      if (!this.closed) {
        setTimeout(() => this.connect(), this.delay);
        this.delay = Math.min(this.delay * 2, 15000);
      }
    };
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(MessagePack.encode(message));
  }
}

function header() {
  const nav = document.getElementById("nav");
  add(nav, el("a", {href: "/", text: _("Live")}), el("a", {href: "/leaderboard", text: _("Leaderboard")}));
  const switcher = document.getElementById("languages");
  const cookie = document.body.dataset.cookie;
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const link = el("a", {href: "#", lang: code, title: name, class: code === document.documentElement.lang ? "on" : null,
      text: code.toUpperCase(), onclick: (event) => {
        event.preventDefault();
        document.cookie = `${cookie}=${code}; path=/; max-age=31536000; samesite=lax`;
        const url = new URL(location.href);
        url.searchParams.delete("lang");
        location.replace(url.toString());
      }});
    add(switcher, link);
  }
}

function main() {
  return document.getElementById("main");
}

function notFound(message) {
  add(clear(main()), el("p", {class: "missing", text: message}));
}

function section(title, ...children) {
  return el("section", {}, el("h2", {text: title}), ...children);
}

function table(columns, rows, attrs) {
  return el("div", {class: "scroll"}, el("table", attrs || {},
    el("thead", {}, el("tr", {}, columns.map((c) => el("th", typeof c === "string" ? {text: c} : c)))),
    el("tbody", {}, rows)));
}

header();
