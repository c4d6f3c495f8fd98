// The served hub's search, as you type: asks /api/search and shows each answer as text (never
// as markup: a record's title is anyone's text). Without script the form asks the server.
(function () {
  "use strict";
  var box = document.getElementById("q");
  var out = document.getElementById("results");
  if (!box || !out || !window.fetch) return;
  var timer = null;
  var asked = 0;
  var LOW = "Low confidence: check the record before you rely on it.";  // as the page the server draws
  function show(answer) {
    out.textContent = "";
    if (answer.no_strong_match || !answer.results || !answer.results.length) {
      var p = document.createElement("p");
      p.className = "weak";
      p.textContent = "No strong match" + (answer.reason ? ": " + answer.reason : "");
      out.appendChild(p);
      return;
    }
    if (answer.confidence === "low") {
      var low = document.createElement("p");
      low.className = "weak";
      low.textContent = LOW;
      out.appendChild(low);
    }
    var list = document.createElement("ol");
    list.className = "results";
    answer.results.forEach(function (r) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = "/d/" + encodeURIComponent(r.repository) + "/" + encodeURIComponent(r.id);
      link.textContent = r.repository + " " + r.id + ": " + r.title;
      var snippet = document.createElement("p");
      snippet.className = "snippet";
      snippet.textContent = r.snippet || "";
      item.appendChild(link);
      item.appendChild(snippet);
      list.appendChild(item);
    });
    out.appendChild(list);
  }
  box.addEventListener("input", function () {
    clearTimeout(timer);
    var q = box.value.trim();
    if (q.length < 3) return;
    timer = setTimeout(function () {
      var mine = ++asked;
      fetch("/api/search?limit=8&q=" + encodeURIComponent(q), { credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (answer) { if (mine === asked) show(answer); })
        .catch(function () {});
    }, 250);
  });
})();
