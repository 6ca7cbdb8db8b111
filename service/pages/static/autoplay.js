// Autoplay of the replay viewer: play / pause (the button or the space bar), a step every 0.5 to 5
// seconds, stopping at the last step, and if asked at the next chapter or at a step with a note. Each
// step is shown by replay.js (its "next" link); this only decides when to follow it.
(function () {
  "use strict";
  var bar = document.getElementById("autoplay");
  if (!bar) { return; }
  bar.hidden = false;
  var toggle = document.getElementById("autoplay-toggle");
  var speed = document.getElementById("autoplay-speed");
  var atChapter = document.getElementById("autoplay-chapter");
  var atNote = document.getElementById("autoplay-note");
  var playing = false;
  var timer = null;

  function show(on) {
    playing = on;
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.textContent = (on ? "⏸ " : "▶ ") + bar.getAttribute(on ? "data-pause" : "data-play");
    bar.classList.toggle("playing", on);
  }

  function next() { return document.querySelector('#viewer a[rel="next"]'); }

  function schedule() {
    clearTimeout(timer);
    if (!playing) { return; }
    if (!next()) { show(false); return; }
    timer = setTimeout(function () {
      var link = next();
      if (!playing || !link) { show(false); return; }
      link.click();  // replay.js fetches the step and says "replay:shown" once it is in place
    }, Number(speed.value) || 1000);
  }

  // A step has just been shown: stop where the reader asked to, else go on.
  document.addEventListener("replay:shown", function () {
    if (!playing) { return; }
    var marks = document.querySelector("#viewer .notes");
    var noted = marks && marks.getAttribute("data-noted") === "1";
    var chapter = marks && marks.getAttribute("data-chapter-start") === "1";
    if (!next() || (atNote.checked && noted) || (atChapter.checked && chapter)) { show(false); clearTimeout(timer); return; }
    schedule();
  });

  function flip() {
    show(!playing);
    schedule();
  }

  toggle.addEventListener("click", flip);
  speed.addEventListener("change", schedule);
  document.addEventListener("keydown", function (event) {
    if (event.key !== " " || event.ctrlKey || event.metaKey || event.altKey) { return; }
    var target = event.target;
    if (target && /^(INPUT|SELECT|TEXTAREA|BUTTON|SUMMARY)$/.test(target.tagName)) { return; }
    event.preventDefault();
    flip();
  });
})();
