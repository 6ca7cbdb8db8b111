// The form starting a game: a game played in teams at some player counts asks for each seat's team only
// once that many seats are filled, and so do the options only a team table takes (without this script the
// team boxes and those options are always there).
"use strict";
(() => {
  const form = document.querySelector("form.new-game[data-team-counts]");
  if (!form) return;
  const counts = form.dataset.teamCounts.split(",").map(Number);
  const seats = [...form.querySelectorAll("select[id^=seat_]")];
  const update = () => {
    const teams = counts.includes(seats.filter((s) => s.value).length);
    for (const label of form.querySelectorAll("label.team")) {
      label.hidden = !teams;
      label.querySelector("input").disabled = !teams; // a team left in a hidden box is not sent
    }
  };
  for (const seat of seats) seat.addEventListener("change", update);
  update();
})();
