// The live table: follows the game's server-sent events (the same stream as the API's /live, with the
// spectator delay) and, at each step, shows the server's picture of the table after it. The browser's
// EventSource resumes by itself with Last-Event-ID after a dropped connection.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.EventSource) { return; }
  var url = live.getAttribute("data-events") + "?after=" + live.getAttribute("data-after");
  var stepUrl = live.getAttribute("data-step-url");
  var list = document.getElementById("live-narration");
  var source = new EventSource(url);
  var latest = 0;

  // The states' words in the reader's language, from the page.
  var state = document.getElementById("live-state");
  function setState(text) { state.textContent = text; }

  function showPicture(version) {
    latest = version;
    return fetch(stepUrl.replace("/replay/STEP", "/replay/" + version), { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html || version !== latest) { return; }
        var page = new DOMParser().parseFromString(html, "text/html");
        var picture = page.querySelector("#viewer .picture");
        if (picture) {
          document.getElementById("live-picture").innerHTML = picture.innerHTML;
        }
        // The replay's narration marks what a correction voided: take it as it is now.
        var told = page.querySelector("#viewer .narration");
        if (told) {
          list.innerHTML = told.innerHTML;
          var current = list.querySelector(".current");
          if (current) { current.scrollIntoView({ block: "nearest" }); }
        }
      });
  }

  source.addEventListener("open", function () { if (catching === null) { setState(state.dataset.following); } });
  source.addEventListener("error", function () { setState(state.dataset.reconnecting); });
  source.addEventListener("revoked", function (event) {
    source.close();
    setState(state.dataset.stopped.replace("{why}", event.data));
  });
  // Catching up: from the step one joined at (or another one chosen) to the latest, a step every chosen
  // interval, each the replay's own page for it; the live steps that come meanwhile only move "now", and
  // once it is reached the table follows live again.
  var bar = document.getElementById("catch-up");
  var from = document.getElementById("catch-up-from");
  var speed = document.getElementById("catch-up-speed");
  var start = document.getElementById("catch-up-start");
  var stop = document.getElementById("catch-up-stop");
  var now = Number(live.getAttribute("data-after")) || 1;
  var catching = null;  // the step shown while catching up, else null
  var timer = null;

  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, name) { return String(values[name]); });
  }

  function showStep(version) {
    document.getElementById("live-step").textContent = version;
    document.getElementById("live-replay").href = stepUrl.replace("/replay/STEP", "/replay/" + version);
  }

  function catchUp() {
    clearTimeout(timer);
    if (catching === null) { return; }
    if (catching >= now) { follow(); return; }
    catching += 1;
    var shown = catching;
    setState(say(bar.getAttribute("data-catching"), { step: shown, now: now }));
    showStep(shown);
    showPicture(shown).then(function () {
      if (catching === shown) { timer = setTimeout(catchUp, Number(speed.value) || 1000); }
    });
  }

  function follow() {
    clearTimeout(timer);
    catching = null;
    bar.classList.remove("playing");
    start.hidden = false;
    stop.hidden = true;
    setState(bar.getAttribute("data-following"));
    showStep(now);
    showPicture(now);
  }

  bar.hidden = false;
  start.addEventListener("click", function () {
    var first = Math.min(Math.max(Number(from.value) || 1, 1), now);
    catching = first - 1;
    bar.classList.add("playing");
    start.hidden = true;
    stop.hidden = false;
    catchUp();
  });
  stop.addEventListener("click", follow);

  source.addEventListener("step", function (event) {
    var data = JSON.parse(event.data);
    var step = data.step;
    now = Math.max(now, step.version);
    from.max = String(now);
    if (catching !== null) {
      setState(say(bar.getAttribute("data-catching"), { step: catching, now: now }));
      return;
    }
    list.querySelectorAll("li.current").forEach(function (li) {
      li.classList.remove("current");
      li.removeAttribute("id");
    });
    var item = document.createElement("li");
    item.value = step.version;
    item.setAttribute("data-step", step.version);
    item.className = "current";
    item.id = "told-now"; // the picture's aria-describedby: its text alternative is the latest line
    item.textContent = step.text;
    list.appendChild(item);
    item.scrollIntoView({ block: "nearest" });
    showStep(step.version);
    showPicture(step.version);
  });
})();
