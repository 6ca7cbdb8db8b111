// The tournament screen: shows its panels one at a time (pairings by table, by name, standings), and
// fetches itself again when its server-sent events say what it shows changed (a round published, a
// result entered, a game finished). No polling: the browser's EventSource reconnects by itself, with
// Last-Event-ID telling the server what this screen shows.
(function () {
  "use strict";
  var screen = document.getElementById("screen");
  if (!screen) { return; }
  var panels = document.getElementById("screen-panels");
  var state = document.getElementById("screen-state");
  var seconds = parseInt(screen.getAttribute("data-rotate"), 10) || 15;
  var current = 0;

  function show(index) {
    var all = panels.querySelectorAll(".panel");
    if (!all.length) { return; }
    current = index % all.length;
    all.forEach(function (panel, i) { panel.classList.toggle("active", i === current); });
  }

  if (!window.matchMedia || !window.matchMedia("print").matches) {
    panels.classList.add("rotating");
    show(0);
    window.setInterval(function () { show(current + 1); }, seconds * 1000);
  }
  // Printing shows every panel (the print stylesheet), whatever is shown now.
  window.addEventListener("beforeprint", function () { panels.classList.remove("rotating"); });
  window.addEventListener("afterprint", function () { panels.classList.add("rotating"); });

  if (!window.EventSource) { return; }
  var url = screen.getAttribute("data-events");
  var page = screen.getAttribute("data-page");
  var latest = screen.getAttribute("data-mark");
  var source = new EventSource(url + "?mark=" + encodeURIComponent(latest));

  function refresh(mark) {
    latest = mark;
    fetch(page, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html || mark !== latest) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var body = fresh.getElementById("screen-panels");
        var round = fresh.getElementById("screen-round");
        if (body) { panels.innerHTML = body.innerHTML; show(current); }
        if (round) { document.getElementById("screen-round").textContent = round.textContent; }
        var main = fresh.getElementById("screen");
        if (main) { screen.setAttribute("data-mark", main.getAttribute("data-mark")); }
      });
  }

  source.addEventListener("open", function () { state.textContent = ""; });
  source.addEventListener("error", function () { state.textContent = "…"; });
  source.addEventListener("revoked", function () { source.close(); state.textContent = "×"; });
  source.addEventListener("update", function (event) { refresh(event.data); });
}());
