// board99's web page: it draws the scenes the server sends and sends back what the guest pressed.
// It restates no rule: what is legal (enabled, why), every word, every number and every square come
// from the server (docs/web.md, "The page"); tests/test_web_no_rules.py holds that.

const STORE = { name: "board99.name", key: "board99.key", seat: "board99.seat" };
const HEX_KEY = /^[0-9a-f]{64}$/;
const RETRY_FIRST_MS = 500; // the first retry after a drop; doubled per failure up to RETRY_MAX_MS
const RETRY_MAX_MS = 10000;
const STALE_AFTER_MS = 20000; // a page hidden this long reconnects on waking (the socket may be dead)
const TOAST_MS = 4500;
const TOASTS_SHOWN = 3;
const WIDE = window.matchMedia("(min-width: 900px)");
const SUIT_SIGNS = { hearts: "♥", diamonds: "♦", clubs: "♣", spades: "♠" };
const RED_SIGNS = new Set(["♥", "♦"]);
// A second, shape cue per peg colour so sides differ without colour (as the window's side marks).
const PEG_MARKS = { red: "✕", blue: "○", green: "+", yellow: "#", purple: "◇", orange: "△" };

const $ = (id) => document.getElementById(id);

// ---- what the browser keeps: name, player key, seat token ----

function stored(name) {
  try { return window.localStorage.getItem(name); } catch { return null; }
}

function store(name, value) {
  try {
    if (value === null || value === undefined) window.localStorage.removeItem(name);
    else window.localStorage.setItem(name, value);
  } catch { /* private mode: the guest gets a new key next time */ }
}

/** The player key: 256 random bits made here once, kept in localStorage, sent only in the hello. */
function playerKey() {
  const kept = stored(STORE.key);
  if (kept && HEX_KEY.test(kept)) return kept;
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  const key = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  store(STORE.key, key);
  return key;
}

function keptSeat() {
  try {
    const seat = JSON.parse(stored(STORE.seat) || "null");
    return seat && typeof seat === "object" ? seat : null;
  } catch { return null; }
}

function keep(what) {
  if (!what || typeof what !== "object") return;
  if (typeof what.key === "string" && HEX_KEY.test(what.key)) store(STORE.key, what.key);
  if (typeof what.name === "string") store(STORE.name, what.name);
  if ("seat" in what) store(STORE.seat, what.seat ? JSON.stringify(what.seat) : null);
}

// ---- the connection: hello, reconnect with backoff, wake on visibility / online ----

let socket = null;
let failures = 0;
let retryTimer = null;
let retryAt = 0;
let netTicker = null;
let hiddenSince = null;

function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  if (socket) return;
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const sock = new WebSocket(`${scheme}//${location.host}/ws`);
  socket = sock;
  showNet("Connecting…");
  sock.addEventListener("open", () => {
    if (sock !== socket) return;
    showNet("");
    sock.send(JSON.stringify({ hello: {
      name: stored(STORE.name) || "", key: playerKey(), seat: keptSeat(),
    } }));
  });
  sock.addEventListener("message", (event) => {
    if (sock !== socket) return;
    failures = 0; // the server answered: a server that accepts and drops at once still backs off
    receive(event.data);
  });
  sock.addEventListener("close", (event) => {
    if (sock !== socket) return;
    socket = null;
    // 1008 (policy) and 4000-4999 mean the server sent this page away on purpose (another tab took the
    // seat, the origin is refused): retrying would only fight it, so the guest decides.
    if (event.code === 1008 || (event.code >= 4000 && event.code < 5000)) stopped(event.reason);
    else retryLater();
  });
}

function stopped(reason) {
  const net = $("net");
  net.replaceChildren(el("span", "", reason || "The server closed this page's connection."));
  const again = el("button", "btn", "Reconnect");
  again.type = "button";
  again.addEventListener("click", () => wake(false));
  net.append(again);
  net.hidden = false;
  document.body.classList.add("offline");
  notice({ text: reason || "The server closed this page's connection.", tone: "warn" });
}

function retryLater() {
  const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** failures) * (0.8 + 0.4 * Math.random());
  failures += 1;
  retryAt = Date.now() + delay;
  retryTimer = setTimeout(connect, delay);
  tickNet();
  if (!netTicker) netTicker = setInterval(tickNet, 1000); // one ticker however many retries
}

function tickNet() {
  if (!retryTimer) {
    clearInterval(netTicker);
    netTicker = null;
    return;
  }
  const left = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
  showNet(`Connection lost: trying again in ${left} s`);
}

/** The phone woke or the network came back: reconnect now rather than at the next backoff step. */
function wake(stale) {
  if (socket && stale) {
    const old = socket;
    socket = null;
    old.close();
  }
  if (!socket) {
    failures = 0;
    connect();
  }
}

document.addEventListener("visibilitychange", () => {
  if (document.hidden) { hiddenSince = Date.now(); return; }
  const stale = hiddenSince !== null && Date.now() - hiddenSince > STALE_AFTER_MS;
  hiddenSince = null;
  wake(stale);
});
window.addEventListener("online", () => wake(false));

function showNet(text) {
  const net = $("net");
  net.textContent = text;
  net.hidden = !text;
  document.body.classList.toggle("offline", Boolean(text));
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return true;
  }
  notice({ text: "Not connected: your move was not sent. Reconnecting…", tone: "warn" });
  return false;
}

function receive(text) {
  let message;
  try { message = JSON.parse(text); } catch { return; }
  if (!message || typeof message !== "object") return;
  if (message.keep) keep(message.keep);
  if (message.scene) draw(message.scene);
  if (message.patch && scene) draw(patched(scene, message.patch));
  if (message.notice) notice(message.notice);
}

// A patch: the head fields that changed, and every part in order, an unchanged one by its id alone;
// a grid's cell that is as it was comes as null (cells_kept).
function patched(last, patch) {
  const byId = new Map((Array.isArray(last.parts) ? last.parts : []).map((part) => [part.id, part]));
  const partOf = (part) => {
    if (typeof part === "string") return byId.get(part);
    const was = byId.get(part.id);
    if (!part.cells_kept || !was || !Array.isArray(part.cells) || !Array.isArray(was.cells)) return part;
    const { cells_kept: _, ...rest } = part;
    return { ...rest, cells: part.cells.map((cell, i) => (cell === null ? was.cells[i] : cell)) };
  };
  const parts = (Array.isArray(patch.parts) ? patch.parts : []).map(partOf).filter(Boolean);
  return { ...last, ...patch, parts };
}

// ---- sound and the turn mark ----

let audio = null;
let wasTurn = false;

function unlockAudio() {
  // Browsers allow sound only after a gesture: the first tap or key makes the context.
  if (audio) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try { audio = new Context(); } catch { audio = null; }
}
window.addEventListener("pointerdown", unlockAudio, { capture: true });
window.addEventListener("keydown", unlockAudio, { capture: true });

function chime() {
  if (!audio) return;
  if (audio.state === "suspended") audio.resume();
  const start = audio.currentTime + 0.02;
  [660, 880].forEach((pitch, i) => {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = pitch;
    const at = start + i * 0.13;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.12, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
    tone.connect(gain).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.14);
  });
  window.__board99Chimes = (window.__board99Chimes || 0) + 1; // read by the tests
}

function markTurn(turn) {
  document.body.classList.toggle("turn", turn);
  $("turnmark").hidden = !turn;
  if (turn && !wasTurn) {
    chime();
    if (navigator.vibrate && audio) navigator.vibrate(60);
  }
  wasTurn = turn;
}

// ---- notices: a polite live region and a toast ----

function notice(note) {
  if (!note || typeof note.text !== "string") return;
  const live = $("live");
  live.textContent = "";
  // A fresh text node after a clear makes screen readers announce a repeated notice too.
  setTimeout(() => { live.textContent = note.text; }, 30);
  const toast = document.createElement("div");
  toast.className = `toast tone-${tone(note.tone)}`;
  toast.textContent = note.text;
  const toasts = $("toasts");
  toasts.append(toast);
  while (toasts.children.length > TOASTS_SHOWN) toasts.firstElementChild.remove();
  setTimeout(() => toast.remove(), note.tone === "bad" ? TOAST_MS * 1.5 : TOAST_MS);
}

function tone(name) {
  return ["plain", "good", "warn", "bad"].includes(name) ? name : "plain";
}

// ---- drawing a scene ----

let scene = null;
const edits = new Map(); // form part id -> {field id: value} the guest typed, kept across redraws
let clocks = [];

function draw(next) {
  scene = next;
  const focused = focusKey(document.activeElement);
  applyColours(next.colours);
  document.title = next.title || "board99";
  document.body.dataset.screen = next.screen || "";
  markTurn(Boolean(next.turn));
  drawHeadline(next.headline);
  drawKeys(next.keys);
  clocks = [];
  const main = $("col-main");
  const side = $("col-side");
  const layer = $("dialog-layer");
  const mainParts = document.createDocumentFragment();
  const sideParts = document.createDocumentFragment();
  const dialogs = document.createDocumentFragment();
  const wide = WIDE.matches;
  for (const part of Array.isArray(next.parts) ? next.parts : []) {
    const node = drawPart(part);
    if (!node) continue;
    if (part.type === "dialog") dialogs.append(node);
    else if (part.side && wide) sideParts.append(node);
    else mainParts.append(node);
  }
  // The keys' line closes the side column when there is one, else the main column.
  if (wide && sideParts.childNodes.length > 0) sideParts.append($("keys"));
  else mainParts.append($("keys"));
  const hadDialog = layer.childElementCount > 0;
  main.replaceChildren(mainParts);
  side.replaceChildren(sideParts);
  layer.replaceChildren(dialogs);
  document.body.classList.toggle("has-side", side.childElementCount > 0);
  const dialog = layer.childElementCount > 0;
  $("main").inert = dialog;
  $("keys").inert = dialog;
  tickClocks();
  restoreFocus(focused, dialog && !hadDialog);
  // The welcome asks for a name first: its field takes the focus (a phone opens its keyboard).
  if (next.screen === "welcome" && !focused) {
    const field = main.querySelector("input.input");
    if (field) field.focus();
  }
}

WIDE.addEventListener("change", () => { if (scene) draw(scene); });

function applyColours(colours) {
  if (!colours || typeof colours !== "object") return;
  const root = document.documentElement.style;
  for (const [name, value] of Object.entries(colours)) {
    if (/^[a-z]+$/.test(name) && /^#[0-9a-fA-F]{3,8}$/.test(value)) root.setProperty(`--peg-${name}`, value);
  }
}

function pegColour(name) {
  return `var(--peg-${/^[a-z]+$/.test(name) ? name : "none"}, #808080)`;
}

function drawHeadline(headline) {
  const node = $("headline");
  const text = headline && typeof headline.text === "string" ? headline.text : "";
  if (node.textContent !== text) node.textContent = text;
  node.className = `headline tone-${tone(headline && headline.tone)}`;
  node.hidden = !text;
}

function drawKeys(keys) {
  const node = $("keys");
  node.replaceChildren();
  for (const key of Array.isArray(keys) ? keys : []) {
    const item = el("span", "key-hint");
    item.setAttribute("role", "listitem");
    item.append(el("kbd", "", keyLabel(key.key)), ` ${key.label || ""}`);
    node.append(item);
  }
  node.hidden = node.childElementCount === 0;
}

function keyLabel(name) {
  const text = String(name ?? "");
  const names = { escape: "Esc", enter: "Enter", arrowup: "↑", arrowdown: "↓", arrowleft: "←", arrowright: "→",
    " ": "Space" };
  return names[text.toLowerCase()] || (text.length <= 2 ? text.toUpperCase() : text);
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function section(part, className, label) {
  const node = el("section", `part ${className}`);
  node.dataset.part = part.id || "";
  if (label) {
    const heading = el("h2", "part-label", label);
    heading.id = `label-${part.id}`;
    node.setAttribute("aria-labelledby", heading.id);
    node.append(heading);
  }
  return node;
}

const PARTS = {
  text: drawText, buttons: drawButtons, grid: drawGrid, cards: drawCards, seats: drawSeats,
  list: drawList, clock: drawClock, form: drawForm, tables: drawTables, dialog: drawDialog, total: drawTotal,
};

function drawPart(part) {
  const make = part && PARTS[part.type];
  if (!make) return null;
  const node = make(part);
  if (part.side) node.classList.add("side");
  return node;
}

function drawText(part) {
  const role = part.role || "para";
  const node = el(role === "heading" ? "h1" : "p", `part text role-${role} tone-${tone(part.tone)}`, part.text);
  node.dataset.part = part.id || "";
  if (role === "status") node.setAttribute("role", "status");
  return node;
}

/** A control: a real <button>; a disabled one stays focusable and says why when pressed or focused. */
function control(item, className, partId) {
  const button = el("button", className);
  button.type = "button";
  button.dataset.id = item.id;
  button.dataset.part = partId || "";
  if (item.name) button.setAttribute("aria-label", item.name);
  if (item.enabled === false) {
    button.setAttribute("aria-disabled", "true");
    button.classList.add("disabled");
    if (item.why) {
      button.dataset.why = item.why;
      const why = el("span", "sr-only", item.why);
      why.id = `why-${partId}-${item.id}`;
      button.setAttribute("aria-describedby", why.id);
      button.append(why);
    }
  }
  button.addEventListener("click", (event) => {
    event.preventDefault();
    if (item.enabled === false) {
      notice({ text: item.why || "Not now.", tone: "warn" });
      return;
    }
    send({ press: item.id, fields: {} });
  });
  return button;
}

function drawButtons(part) {
  const node = section(part, "buttons", part.label);
  node.append(buttonRow(part.items, part.id));
  return node;
}

function drawGrid(part) {
  const node = section(part, "grid-part", part.label);
  const board = el("div", "board");
  board.setAttribute("role", "group");
  if (part.label) board.setAttribute("aria-label", part.label);
  const cols = Math.max(1, Number(part.cols) || 1);
  board.style.setProperty("--cols", cols);
  board.dataset.cols = cols;
  const cells = part.cells || [];
  cells.forEach((cell, index) => {
    const square = control(cell, "square", part.id);
    square.dataset.index = index;
    square.tabIndex = -1;
    square.append(el("span", "square-label", cell.label));
    if (cell.peg) {
      const peg = el("span", `peg peg-${cell.peg}`, PEG_MARKS[cell.peg] || "●");
      peg.style.setProperty("--peg", pegColour(cell.peg));
      peg.setAttribute("aria-hidden", "true");
      square.append(peg);
    }
    if (cell.lit) square.classList.add("lit");
    if (cell.last) square.classList.add("last");
    board.append(square);
  });
  // One tab stop for the board (roving tabindex): the first lit square, else the first square.
  const entry = board.querySelector(".square.lit") || board.querySelector(".square");
  if (entry) entry.tabIndex = 0;
  node.append(board);
  return node;
}

function drawCards(part) {
  const node = section(part, "cards-part", part.label);
  const row = el("div", "hand");
  row.setAttribute("role", "group");
  if (part.label) row.setAttribute("aria-label", part.label);
  for (const item of part.items || []) {
    const card = control(item, "card", part.id);
    const sign = SUIT_SIGNS[item.suit] || item.suit || "";
    card.classList.add(sign ? "playing" : "plain");
    if (RED_SIGNS.has(sign)) card.classList.add("red");
    if (item.selected) {
      card.classList.add("selected");
      card.setAttribute("aria-pressed", "true");
    }
    const face = el("span", "card-face");
    face.setAttribute("aria-hidden", "true");
    if (sign) face.append(el("span", "card-corner", `${item.face ?? ""}${sign}`));
    face.append(el("span", "card-big", item.face ?? item.label ?? ""));
    if (sign) face.append(el("span", "card-suit", sign));
    card.append(face);
    if (item.detail) card.append(el("span", "card-detail", item.detail));
    row.append(card);
  }
  node.append(row);
  return node;
}

function drawSeats(part) {
  const node = section(part, "seats-part", part.label || "");
  const list = el("ul", "seats");
  list.setAttribute("aria-label", part.label || "Seats");
  for (const seat of part.items || []) {
    const item = el("li", "seat");
    if (seat.turn) {
      item.classList.add("turn");
      item.setAttribute("aria-current", "true");
    }
    if (seat.you) item.classList.add("you");
    if (seat.colour) {
      const dot = el("span", `seat-dot peg-${seat.colour}`, PEG_MARKS[seat.colour] || "●");
      dot.setAttribute("aria-hidden", "true");
      dot.style.setProperty("--peg", pegColour(seat.colour));
      item.append(dot);
    }
    const words = el("span", "seat-words");
    words.append(el("span", "seat-name", seat.name), el("span", "seat-detail", seat.detail));
    item.append(words);
    if (seat.turn) item.append(el("span", "seat-turn", "▶ to play"));
    list.append(item);
  }
  node.append(list);
  return node;
}

function drawList(part) {
  const node = section(part, "list-part", part.label);
  const list = el("ul", "lines");
  for (const line of part.items || []) list.append(el("li", "", line));
  node.append(list);
  return node;
}

function drawClock(part) {
  const node = el("div", "part clock");
  node.dataset.part = part.id || "";
  node.setAttribute("role", "timer");
  node.setAttribute("aria-label", part.label || "Clock");
  node.append(el("span", "clock-label", part.label || ""));
  const face = el("span", "clock-face");
  node.append(face);
  const seconds = typeof part.seconds === "number" ? part.seconds : null;
  clocks.push({ face, node, ends: seconds === null ? null : Date.now() + seconds * 1000 });
  return node;
}

function tickClocks() {
  for (const clock of clocks) {
    if (clock.ends === null) {
      clock.face.hidden = true;
      continue;
    }
    const left = Math.max(0, Math.ceil((clock.ends - Date.now()) / 1000));
    clock.face.textContent = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    clock.node.classList.toggle("low", left <= 10);
  }
}
setInterval(tickClocks, 250);

function drawForm(part) {
  const node = section(part, "form-part", part.label);
  const form = el("form", "form");
  form.noValidate = true;
  const typed = edits.get(part.id) || {};
  for (const field of part.fields || []) {
    const row = el("label", "field");
    row.append(el("span", "field-label", field.label));
    let input;
    if (field.kind === "select") {
      input = el("select", "input");
      for (const choice of field.choices || []) {
        const option = el("option", "", choice.label);
        option.value = choice.value;
        input.append(option);
      }
    } else {
      input = el("input", "input");
      input.type = "text";
      input.autocomplete = "off";
      input.spellcheck = false;
      if (field.max) input.maxLength = field.max;
    }
    input.name = field.id;
    input.dataset.id = field.id;
    input.dataset.part = part.id || "";
    input.value = field.id in typed ? typed[field.id] : field.value ?? "";
    input.addEventListener("input", () => {
      const kept = edits.get(part.id) || {};
      kept[field.id] = input.value;
      edits.set(part.id, kept);
    });
    row.append(input);
    form.append(row);
  }
  if (part.submit) {
    const submit = el("button", "btn primary", part.submit.label);
    submit.type = "submit";
    submit.dataset.id = part.submit.id;
    submit.dataset.part = part.id || "";
    form.append(submit);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const fields = {};
      for (const input of form.querySelectorAll(".input")) fields[input.name] = input.value;
      if (send({ press: part.submit.id, fields })) edits.delete(part.id);
    });
  }
  node.append(form);
  return node;
}

function drawTables(part) {
  const node = section(part, "tables-part", part.label);
  const list = el("ul", "tables");
  for (const table of part.items || []) {
    const card = el("li", "table-card");
    card.append(el("h3", "table-title", table.title));
    for (const line of table.lines || []) card.append(el("p", "table-line", line));
    card.append(buttonRow(table.buttons, part.id));
    list.append(card);
  }
  node.append(list);
  return node;
}

// A row of the scene's buttons (a buttons part, a table card's, a dialog's): each its label, the primary marked.
function buttonRow(items, partId) {
  const row = el("div", "button-row");
  for (const item of items || []) {
    const button = control(item, "btn", partId);
    button.prepend(item.label);
    if (item.primary) button.classList.add("primary");
    row.append(button);
  }
  return row;
}

function drawDialog(part) {
  const backdrop = el("div", "backdrop");
  const box = el("div", "dialog");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-modal", "true");
  box.dataset.part = part.id || "";
  const title = el("h2", "dialog-title", part.title);
  title.id = `dialog-${part.id}`;
  box.setAttribute("aria-labelledby", title.id);
  box.append(title);
  for (const paragraph of String(part.text || "").split("\n")) box.append(el("p", "dialog-text", paragraph));
  box.append(buttonRow(part.buttons, part.id));
  backdrop.append(box);
  return backdrop;
}

function drawTotal(part) {
  const node = el("div", "part total");
  node.dataset.part = part.id || "";
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", `${part.label || ""} ${part.value ?? ""}`.trim());
  node.append(el("span", "total-label", part.label), el("span", "total-value", part.value));
  return node;
}

// ---- focus: kept across redraws; the reason a disabled control is off shows while it has focus ----

function focusKey(node) {
  if (!node || !node.dataset || !node.dataset.id) return null;
  return { part: node.dataset.part, id: node.dataset.id, start: node.selectionStart, end: node.selectionEnd };
}

function restoreFocus(key, dialogOpened) {
  const layer = $("dialog-layer");
  if (dialogOpened) {
    const first = layer.querySelector(".btn.primary:not(.disabled)") || layer.querySelector("button");
    if (first) first.focus();
    return;
  }
  if (!key) return;
  const selector = `[data-part="${CSS.escape(key.part)}"][data-id="${CSS.escape(key.id)}"]`;
  const node = document.querySelector(selector);
  if (!node) return;
  if (node.classList.contains("square")) {
    for (const other of node.parentElement.querySelectorAll(".square")) other.tabIndex = -1;
    node.tabIndex = 0;
  }
  node.focus({ preventScroll: true });
  if (typeof key.start === "number" && node.setSelectionRange) node.setSelectionRange(key.start, key.end);
}

document.addEventListener("focusout", () => { $("why").hidden = true; });
document.addEventListener("focusin", (event) => {
  const why = $("why");
  const text = event.target && event.target.dataset ? event.target.dataset.why : null;
  why.textContent = text || "";
  why.hidden = !text;
});

// ---- keys: arrows move on the board; the scene's keys go to the server ----

function moveOnBoard(square, key) {
  const board = square.parentElement;
  const cols = Number(board.dataset.cols) || 1;
  const squares = Array.from(board.querySelectorAll(".square"));
  const at = Number(square.dataset.index);
  const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -cols, ArrowDown: cols };
  let to = at;
  if (key in steps) {
    to = at + steps[key];
    if ((key === "ArrowLeft" || key === "ArrowRight") && Math.floor(to / cols) !== Math.floor(at / cols)) to = at;
  } else if (key === "Home") to = at - (at % cols);
  else if (key === "End") to = at - (at % cols) + cols - 1;
  if (to < 0 || to >= squares.length || to === at) return;
  square.tabIndex = -1;
  squares[to].tabIndex = 0;
  squares[to].focus();
}

const BOARD_KEYS = new Set(["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"]);

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && target.classList && target.classList.contains("square") && BOARD_KEYS.has(event.key)) {
    event.preventDefault();
    moveOnBoard(target, event.key);
    return;
  }
  if (target && target.closest && target.closest("input, select, textarea")) return;
  if (target && target.tagName === "BUTTON" && (event.key === "Enter" || event.key === " ")) return;
  if (!scene || !Array.isArray(scene.keys) || ($("main").inert && event.key !== "Escape")) return;
  // The scene names keys as the browser does, in either case ("d", "escape", "Escape", "F1").
  const pressed = event.key.toLowerCase();
  const match = scene.keys.find((k) => typeof k.key === "string" && k.key.toLowerCase() === pressed);
  if (!match) return;
  event.preventDefault();
  send({ key: match.key });
});

connect();
