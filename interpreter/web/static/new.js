// The new-table form: each seat's choice is shown (and sent) only when that seat is in
// play at the chosen number of players (the first of them a person's when none is), and each variant's options only when the variant
// is chosen; a variant that excludes another unticks it. Without this script every field
// is sent, and the server leaves out the seats not in play and the options of variants
// not chosen.
"use strict";
for (const form of document.querySelectorAll("form.new-table")) {
  const players = form.querySelector("select[name=players]");
  const show = () => {
    const shown = [];
    for (const choice of form.querySelectorAll(".seat-choice")) {
      const inPlay = choice.dataset.counts.split(" ").includes(players.value);
      choice.hidden = !inPlay;
      choice.querySelector("select").disabled = !inPlay;
      if (inPlay) { shown.push(choice.querySelector("select")); }
    }
    if (shown.length && !shown.some((select) => select.value === "human")) {
      shown[0].value = "human";  // a table needs a person: the first seat in play, unless one is chosen
    }
    const chosen = new Set(Array.from(form.querySelectorAll("input[name=variant]:checked"), (el) => el.value));
    for (const option of form.querySelectorAll(".option[data-variant]")) {
      const on = chosen.has(option.dataset.variant);
      option.hidden = !on;
      for (const input of option.querySelectorAll("input, select")) { input.disabled = !on; }
    }
  };
  for (const box of form.querySelectorAll("input[name=variant]")) {
    box.addEventListener("change", () => {
      if (box.checked) {
        for (const other of box.dataset.excludes.split(" ").filter(Boolean)) {
          const el = form.querySelector(`input[name=variant][value="${other}"]`);
          if (el) { el.checked = false; }
        }
      }
      show();
    });
  }
  players.addEventListener("change", show);
  show();
}
