// The start form: each seat's choice is shown (and sent) only when that seat is in play at
// the chosen number of players. Without this script every seat is sent, and the server
// leaves out those not in play.
"use strict";
for (const form of document.querySelectorAll("form.new-table")) {
  const players = form.querySelector("select[name=players]");
  const show = () => {
    for (const choice of form.querySelectorAll(".seat-choice")) {
      const inPlay = choice.dataset.counts.split(" ").includes(players.value);
      choice.hidden = !inPlay;
      choice.querySelector("select").disabled = !inPlay;
    }
  };
  players.addEventListener("change", show);
  show();
}
