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
    fetch(stepUrl.replace("/replay/STEP", "/replay/" + version), { credentials: "same-origin" })
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

  source.addEventListener("open", function () { setState(state.dataset.following); });
  source.addEventListener("error", function () { setState(state.dataset.reconnecting); });
  source.addEventListener("revoked", function (event) {
    source.close();
    setState(state.dataset.stopped.replace("{why}", event.data));
  });
  source.addEventListener("step", function (event) {
    var data = JSON.parse(event.data);
    var step = data.step;
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
    document.getElementById("live-step").textContent = step.version;
    document.getElementById("live-replay").href = stepUrl.replace("/replay/STEP", "/replay/" + step.version);
    showPicture(step.version);
  });
})();
