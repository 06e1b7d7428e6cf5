// mqspec report: the clause x target matrix and its drill-down, built from the JSON in #report-data.
// Everything is made with createElement/textContent: report data is never parsed as HTML.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var targets = data.targets;
  var matrix = document.getElementById("matrix");
  var body = matrix.tBodies[0];
  var textFilter = document.getElementById("filter-text");
  var verdictFilter = document.getElementById("filter-verdict");
  var documentFilter = document.getElementById("filter-document");
  var otherSideToggle = document.getElementById("show-other-side");
  var shown = document.getElementById("shown");

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function verdictClass(verdict) { return "v-" + verdict.replace(" ", "-"); }

  // clause id -> scenario indexes, per target
  var byClause = {};
  targets.forEach(function (target) {
    var index = {};
    (data.scenarios[target] || []).forEach(function (scenario, i) {
      (scenario.clauses || []).forEach(function (clause) { (index[clause] = index[clause] || []).push(i); });
    });
    byClause[target] = index;
  });

  var head = el("tr", {}, [el("th", {}, ["Clause"]), el("th", {}, ["Level"]), el("th", {}, ["Section"]),
                           el("th", {}, ["Text"])]);
  targets.forEach(function (target) { head.appendChild(el("th", {title: target}, [target])); });
  matrix.tHead.appendChild(head);

  var documents = {};
  var rows = data.clauses.map(function (clause) {
    documents[clause.document] = true;
    var row = el("tr", {"class": "clause", tabindex: "0", "data-clause": clause.clause_id}, [
      el("td", {"class": "id"}, [clause.clause_id]), el("td", {}, [clause.level]),
      el("td", {}, [clause.section + " " + clause.section_title]), el("td", {}, [clause.text])]);
    targets.forEach(function (target) {
      var verdict = data.matrix[target][clause.clause_id];
      if (!verdict) {   // a clause of the other side of MS-MQRR: not this target's business
        row.appendChild(el("td", {"class": "verdict other-side", title: "a requirement on the " + clause.side +
                               ", and " + target + " is not one"}, ["\u2014"]));
        return;
      }
      row.appendChild(el("td", {"class": "verdict " + verdictClass(verdict.verdict), title: verdict.reason || ""},
                         [verdict.verdict]));
    });
    row.addEventListener("click", function () { toggle(row, clause); });
    row.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggle(row, clause); }
    });
    body.appendChild(row);
    return {row: row, clause: clause};
  });
  Object.keys(documents).sort().forEach(function (name) { documentFilter.appendChild(el("option", {value: name}, [name])); });

  function toggle(row, clause) {
    var next = row.nextElementSibling;
    if (next && next.classList.contains("detail")) {
      next.remove();
      row.classList.remove("open");
      return;
    }
    row.classList.add("open");
    var cell = el("td", {colspan: String(4 + targets.length)}, [detail(clause)]);
    row.parentNode.insertBefore(el("tr", {"class": "detail"}, [cell]), row.nextSibling);
  }

  function detail(clause) {
    var box = el("div", {}, [el("p", {}, [el("strong", {}, [clause.clause_id + " (" + clause.level + ", " +
      clause.document + " " + clause.revision + " §" + clause.section + ")"]), " " + clause.text])]);
    if (!clause.testable) { box.appendChild(el("p", {"class": "muted"}, ["Not testable: " + clause.reason])); }
    (clause.decisions || []).forEach(function (decision) {
      var known = data.decisions[decision] || {title: "", kind: "", readings: []};
      var readings = known.kind === "open" ? " (open: " + known.readings.join(", ") + ")" : "";
      box.appendChild(el("p", {"class": "muted"}, ["Decision " + decision + ": " + known.title + readings]));
    });
    targets.forEach(function (target) {
      var verdict = data.matrix[target][clause.clause_id];
      if (!verdict) { return; }
      box.appendChild(el("h3", {}, [target + ": ", el("span", {"class": "badge " + verdictClass(verdict.verdict)},
        [verdict.verdict]), verdict.reason ? " " + verdict.reason : ""]));
      var found = byClause[target][clause.clause_id] || [];
      if (!found.length) { box.appendChild(el("p", {"class": "muted"}, ["No scenario of this run checks it."])); }
      found.forEach(function (i) { box.appendChild(scenario(data.scenarios[target][i])); });
    });
    return box;
  }

  function scenario(s) {
    var title = el("div", {}, [el("span", {"class": "badge " + verdictClass(s.verdict)}, [s.verdict]), " ",
      el("strong", {}, [s.scenario_name || s.name]), " ",
      el("span", {"class": "muted"}, [(s.feature_uri || "") + (s.scenario_line ? ":" + s.scenario_line : "")])]);
    var box = el("div", {"class": "scenario " + s.verdict.replace(" ", "-")}, [title]);
    if (s.reason) { box.appendChild(el("div", {}, [s.reason])); }
    if ((s.readings || []).length) { box.appendChild(el("div", {"class": "muted"}, ["Readings: " + s.readings.join(", ")])); }
    var evidence = s.evidence;
    if (evidence && (evidence.steps || []).length) {
      box.appendChild(mqspecEvidence.steps(evidence));   // with their data tables and doc strings
    } else if ((s.steps || []).length) {
      var list = el("ol", {"class": "steps"});
      s.steps.forEach(function (step) {
        list.appendChild(el("li", {"class": "s-" + step[2], title: step[2] + ", " + step[3] + " ms"},
                            [step[0] + " " + step[1] + (step[2] === "passed" ? "" : "  [" + step[2] + "]")]));
      });
      box.appendChild(list);
    }
    if (s.verdict === "failed" && (s.message || s.detail || evidence)) {
      // the assertion and the step it failed in; pytest's traceback only on demand
      var failure = evidence && evidence.failure ? evidence.failure : {step: null, message: s.message};
      box.appendChild(el("div", {"class": "failure"}, [el("strong", {}, ["Failure"]),
        failure.step ? " in: " + failure.step : "", el("pre", {"class": "assertion"}, [failure.message || ""])]));
      if (s.detail) {
        box.appendChild(el("details", {"class": "traceback"}, [el("summary", {}, ["Traceback"]),
                                                                el("pre", {}, [s.detail])]));
      }
    }
    if (evidence) { box.appendChild(mqspecEvidence.more(evidence)); }
    return box;
  }

  // a clause none of the targets is judged on (the other side of MS-MQRR): its row shows only on demand; with no
  // target at all (strength results alone) every clause shows
  function otherSide(clause) {
    return targets.length > 0 && targets.every(function (t) { return !data.matrix[t][clause.clause_id]; });
  }

  function applyFilters() {
    var text = textFilter.value.trim().toLowerCase();
    var verdict = verdictFilter.value;
    var documentName = documentFilter.value;
    var count = 0;
    rows.forEach(function (entry) {
      var clause = entry.clause;
      var visible = (otherSideToggle.checked || !otherSide(clause)) &&
        (!documentName || clause.document === documentName) &&
        (!text || (clause.clause_id + " " + clause.text + " " + clause.section_title).toLowerCase().indexOf(text) >= 0) &&
        (!verdict || targets.some(function (t) {
          return (data.matrix[t][clause.clause_id] || {}).verdict === verdict; }));
      entry.row.hidden = !visible;
      var next = entry.row.nextElementSibling;
      if (next && next.classList.contains("detail")) { next.hidden = !visible; }
      if (visible) { count += 1; }
    });
    shown.textContent = count + " of " + rows.length + " clauses";
  }
  [textFilter, verdictFilter, documentFilter, otherSideToggle].forEach(function (control) {
    control.addEventListener("input", applyFilters);
  });
  applyFilters();

  // failures first: each target's failed clauses and scenarios, above the matrix, each opening its drill-down
  function failures() {
    var panel = document.getElementById("failures");
    targets.forEach(function (target) {
      var failed = data.clauses.filter(function (c) {
        return (data.matrix[target][c.clause_id] || {}).verdict === "failed"; });
      var scenarios = (data.scenarios[target] || []).filter(function (s) { return s.verdict === "failed"; });
      var head = el("h3", {}, [target + ": ", failed.length ? failed.length + " clause(s) failed, " +
        scenarios.length + " scenario(s) failed" : "no clause failed"]);
      panel.appendChild(head);
      if (!failed.length) { return; }
      panel.appendChild(el("ul", {"class": "failed-clauses"}, failed.map(function (c) {
        return el("li", {}, [el("a", {href: "#clause=" + c.clause_id}, [c.clause_id]), " " + c.text]); })));
      panel.appendChild(el("ul", {"class": "failed-scenarios"}, scenarios.map(function (s) {
        var first = (s.clauses || []).filter(function (id) {
          return (data.matrix[target][id] || {}).verdict === "failed"; })[0] || (s.clauses || [])[0];
        var message = s.evidence && s.evidence.failure ? s.evidence.failure.message : (s.message || "");
        return el("li", {}, [el("a", {href: "#clause=" + first}, [s.scenario_name || s.name]),
                             el("span", {"class": "muted"}, [" " + message.split("\n")[0]])]); })));
    });
  }
  failures();

  // one page at a time: the one the #fragment names, else the first (every page shows without scripts)
  var pages = Array.prototype.slice.call(document.querySelectorAll("section.page"));
  var links = Array.prototype.slice.call(document.querySelectorAll("#pages a"));
  function showPage() {
    var wanted = decodeURIComponent(location.hash.slice(1));
    // #clause=ID (the strength page's links): the matrix, filtered to that clause, its drill-down open
    var clause = wanted.indexOf("clause=") === 0 ? wanted.slice(7) : null;
    if (clause !== null) { wanted = "clauses"; }
    var current = pages.some(function (page) { return page.id === wanted; }) ? wanted : pages[0].id;
    pages.forEach(function (page) { page.hidden = page.id !== current; });
    links.forEach(function (link) { link.classList.toggle("current", link.getAttribute("data-page") === current); });
    var entry = clause === null ? null : rows.filter(function (e) { return e.clause.clause_id === clause; })[0];
    if (entry) {
      textFilter.value = clause;
      applyFilters();
      var next = entry.row.nextElementSibling;
      if (!(next && next.classList.contains("detail"))) { toggle(entry.row, entry.clause); }
      entry.row.scrollIntoView();
    }
  }
  window.addEventListener("hashchange", showPage);
  showPage();
  document.body.setAttribute("data-ready", "true");
})();
