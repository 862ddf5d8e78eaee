// A seat's page: it shows the board the server draws for this seat, plays a move when a
// button (or a map node, or a cell) is clicked, and draws the board again whenever the
// table's event stream says the number of moves changed (and the players and chat when a
// line is said). The server is the only judge: a move carries the number of moves this
// page saw, and a key of its own so that a request sent twice (a retry, a double click)
// plays once.
"use strict";
const base = document.body.dataset.base;
const board = document.getElementById("board");
const message = document.getElementById("message");
const connection = document.getElementById("connection");
const announce = document.getElementById("announce");
const cardPanel = document.getElementById("card-panel");
let busy = false;  // a move is on its way: further clicks wait for its answer

function seen() { return Number(document.getElementById("seen").value); }

function tell(text) {  // an error stays in view until the person dismisses it
  message.textContent = "";
  if (!text) { return; }
  const words = document.createElement("span");
  words.textContent = text;
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "Dismiss";
  close.addEventListener("click", () => { message.textContent = ""; });
  message.append(words, close);
}

function setButtons(enabled) {
  for (const el of board.querySelectorAll("button.move, button.cell")) { el.disabled = !enabled; }
}

function focusKey(el) {  // what names the focused control, to find it again in the new board
  if (!el || !board.contains(el)) { return null; }
  if (el.dataset && el.dataset.move !== undefined) { return `[data-move="${el.dataset.move}"]`; }
  return el.id ? `#${el.id}` : null;
}

function showLog() {  // the newest lines in view
  const log = document.getElementById("log");
  if (log) { log.scrollTop = log.scrollHeight; }
}

let heard = seen();  // the highest step the event stream has told of
let again = false;  // a refresh was asked for while one was under way
let refreshing = null;  // the refresh under way: one at a time, so an older board never lands last

function pause(ms) { return new Promise((resolve) => { setTimeout(resolve, ms); }); }

// Draw the board again, and again while the page is behind what the stream told or another
// refresh was asked for meanwhile; an answer that failed is asked again a second later while
// the page is behind, so a lost answer never leaves the page stuck on an old position.
function refresh() {
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    do {
      again = false;
      const before = seen();
      const drawn = await drawBoard();
      if (seen() < heard) {
        again = true;
        if (!drawn || seen() === before) { await pause(drawn ? 300 : 1000); }
      }
    } while (again);
  })().finally(() => { refreshing = null; });
  return refreshing;
}

async function drawBoard() {  // true when the server answered
  const before = seen();
  const focused = focusKey(document.activeElement);
  let html;
  try {
    const r = await fetch(base + "/board", {cache: "no-store"});
    if (!r.ok) { return false; }
    html = await r.text();
    connection.textContent = "";
  } catch (err) {
    connection.textContent = "The server cannot be reached: the page will catch up when it is back.";
    return false;
  }
  const fresh = document.createElement("template");
  fresh.innerHTML = html;
  const step = fresh.content.getElementById("seen");
  if (step && Number(step.value) < before) { return true; }  // older than the board shown
  board.replaceChildren(fresh.content);
  showLog();
  if (focused) {
    const target = board.querySelector(focused);
    if (target) { target.focus(); }
  }
  if (seen() !== before) {
    const lines = Array.from(board.querySelectorAll("#log .new"), (el) => el.textContent);
    const status = document.getElementById("status");
    announce.textContent = [...lines, status ? status.textContent : ""].join(" ");
    if (document.querySelector(".end")) { document.getElementById("after-game").hidden = false; }
  }
  return true;
}

async function refreshTalk() {
  try {
    const r = await fetch(base + "/talk", {cache: "no-store"});
    if (r.ok) {
      document.getElementById("talk").innerHTML = await r.text();
      const chat = document.getElementById("chat");
      if (chat) { chat.scrollTop = chat.scrollHeight; }
    }
  } catch (err) { /* the board's refresh says the server is away */ }
}

function newKey() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function post(path, fields) {
  return fetch(base + path, {method: "POST", body: new URLSearchParams(fields)});
}

async function play(index) {
  if (busy) { return; }
  busy = true;
  setButtons(false);
  try {
    const r = await post("/move", {index: index, seen: seen(), key: newKey()});
    if (!r.ok) { tell(await r.text()); }
  } catch (err) {
    tell("The server cannot be reached: your move was not sent. Try again when it is back.");
  }
  await refresh();
  busy = false;
}

function showCard(el) {  // a card's printed text, on tap or focus (hover shows its title too)
  cardPanel.textContent = "";
  const name = document.createElement("strong");
  name.textContent = el.textContent + ": ";
  const text = document.createElement("span");
  text.textContent = el.title;
  cardPanel.append(name, text);
  cardPanel.hidden = false;
}

document.addEventListener("click", (ev) => {
  const card = ev.target.closest(".card");
  if (card) { showCard(card); }
  const el = ev.target.closest("[data-move]");
  if (!el || !board.contains(el)) { return; }
  ev.preventDefault();
  if (ev.detail > 1) { return; }  // the second click of a double click is not a second move
  play(el.dataset.move);
});
document.addEventListener("focusin", (ev) => {
  const card = ev.target.closest && ev.target.closest(".card");
  if (card) { showCard(card); }
});

const chatForm = document.getElementById("chat-form");
if (chatForm) {
  chatForm.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = document.getElementById("chat-text");
    if (!input.value.trim()) { return; }
    try {
      const r = await post("/chat", {text: input.value});
      if (r.ok) { input.value = ""; await refreshTalk(); } else { tell(await r.text()); }
    } catch (err) { tell("The server cannot be reached: your line was not sent."); }
  });
}

async function askToUndo() {  // the page's own step: a request made on an older position is refused
  try {
    const r = await post("/undo", {seen: seen()});
    if (!r.ok) { tell(await r.text()); }
  } catch (err) { tell("The server cannot be reached: nothing was asked."); }
  await refreshTalk();
}

async function vote(button) {
  try {
    const r = await post("/vote", {agree: button.dataset.agree, seen: button.dataset.step});
    if (!r.ok) { tell(await r.text()); }
  } catch (err) { tell("The server cannot be reached: your answer was not sent."); }
  await refreshTalk();
}

document.getElementById("talk").addEventListener("click", (ev) => {
  if (ev.detail > 1) { return; }  // a double click is one request
  if (ev.target.closest("#undo")) { askToUndo(); return; }
  const button = ev.target.closest("button.vote");
  if (button) { vote(button); }
});

const rematch = document.getElementById("rematch");
if (rematch) {
  rematch.addEventListener("click", async () => {
    try {
      const r = await post("/rematch", {});
      if (r.redirected) { window.location.href = r.url; } else if (!r.ok) { tell(await r.text()); }
    } catch (err) { tell("The server cannot be reached."); }
  });
}

showLog();
const events = new EventSource(base + "/events");
events.onmessage = (ev) => {
  connection.textContent = "";
  heard = Math.max(heard, Number(ev.data));
  if (Number(ev.data) !== seen()) { refresh(); }
};
events.addEventListener("talk", () => refreshTalk());
events.onerror = () => {
  connection.textContent = "Reconnecting to the table…";
};
