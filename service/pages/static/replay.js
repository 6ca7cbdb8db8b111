// The replay viewer, a little faster with JavaScript: arrow keys, Home and End step through the game and
// the slider moves as it is dragged. Each step is the same server page the links open (fetched, and
// its viewer swapped in), so what is shown never depends on this script.
(function () {
  "use strict";
  document.documentElement.classList.add("js");
  var busy = false;

  function viewer() { return document.getElementById("viewer"); }

  function urlFor(step) {
    return viewer().getAttribute("data-url").replace("/replay/STEP", "/replay/" + step);
  }

  function go(url, push) {
    if (busy || !url) { return; }
    busy = true;
    fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) {
        if (!response.ok) { window.location.href = url; throw new Error("status " + response.status); }
        return response.text();
      })
      .then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.getElementById("viewer");
        if (!fresh) { window.location.href = url; return; }
        viewer().replaceWith(fresh);
        document.title = page.title;
        if (push) { history.pushState({}, "", url); }
        showCurrent();
        bind();
        document.dispatchEvent(new CustomEvent("replay:shown"));  // autoplay.js goes on from here
      })
      .catch(function () { /* navigated away already */ })
      .finally(function () { busy = false; });
  }

  // The narration list scrolls by itself (a long game's window is taller than the picture): bring the
  // current step into it, a little below its top, without moving the page.
  function showCurrent() {
    var list = viewer().querySelector(".narration");
    var current = list && list.querySelector(".current");
    if (!current) { return; }
    var offset = current.getBoundingClientRect().top - list.getBoundingClientRect().top;
    list.scrollTop += offset - list.clientHeight / 3;
  }

  function link(rel) {
    var found = viewer().querySelector('a[rel="' + rel + '"]');
    return found ? found.getAttribute("href") : null;
  }

  function bind() {
    var slider = document.getElementById("step-slider");
    if (slider) {
      slider.addEventListener("change", function () { go(urlFor(slider.value), true); });
    }
    viewer().querySelectorAll(".controls a, .narration a, .chapters a, .views a").forEach(function (a) {
      a.addEventListener("click", function (event) {
        if (event.ctrlKey || event.metaKey || event.shiftKey) { return; }
        event.preventDefault();
        go(a.getAttribute("href"), true);
      });
    });
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA")
        && target.id !== "step-slider") { return; }
    var rel = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (!rel) { return; }
    event.preventDefault();
    go(link(rel), true);
  });

  window.addEventListener("popstate", function () { go(window.location.href, false); });
  showCurrent();
  bind();
})();
