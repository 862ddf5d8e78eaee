// A seat's page: it shows the board the server draws for this seat, plays a move when a
// button (or a map node, or a cell) is clicked, and draws the board again whenever the
// table's event stream says the number of moves changed. The server is the only judge:
// a move carries the number of moves this page saw, and a key of its own so that a
// request sent twice (a retry, a double click) plays once.
"use strict";
const base = document.body.dataset.base;
const board = document.getElementById("board");
const message = document.getElementById("message");
const connection = document.getElementById("connection");
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

async function refresh() {
  try {
    const r = await fetch(base + "/board", {cache: "no-store"});
    if (r.ok) { board.innerHTML = await r.text(); connection.textContent = ""; }
  } catch (err) {
    connection.textContent = "The server cannot be reached: the page will catch up when it is back.";
  }
}

function newKey() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function play(index) {
  if (busy) { return; }
  busy = true;
  setButtons(false);
  const body = new URLSearchParams({index: index, seen: seen(), key: newKey()});
  try {
    const r = await fetch(base + "/move", {method: "POST", body: body});
    if (!r.ok) { tell(await r.text()); }
  } catch (err) {
    tell("The server cannot be reached: your move was not sent. Try again when it is back.");
  }
  await refresh();
  busy = false;
}

document.addEventListener("click", (ev) => {
  const el = ev.target.closest("[data-move]");
  if (!el || !board.contains(el)) { return; }
  ev.preventDefault();
  if (ev.detail > 1) { return; }  // the second click of a double click is not a second move
  play(el.dataset.move);
});

const events = new EventSource(base + "/events");
events.onmessage = (ev) => {
  connection.textContent = "";
  if (Number(ev.data) !== seen()) { refresh(); }
};
events.onerror = () => {
  connection.textContent = "Reconnecting to the table…";
};
