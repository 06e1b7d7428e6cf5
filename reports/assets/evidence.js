// mqspec report: the evidence of a failing scenario (mqspec/evidence.py): its steps with their data tables, what the
// target answered, the PDUs (decoded, hex on demand), the judge's transcript.  Made with createElement/textContent:
// evidence is never parsed as HTML.  report.js calls mqspecEvidence.steps(evidence) and mqspecEvidence.more(evidence).
var mqspecEvidence = (function () {
  "use strict";

  function el(tag, attributes, children) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }
  function text(value) {
    if (value === null || value === undefined) { return ""; }
    return typeof value === "string" ? value : JSON.stringify(value);
  }
  function table(css, headers, rows) {
    var head = el("tr", {}, headers.map(function (h) { return el("th", {}, [h]); }));
    var body = el("tbody", {}, rows.map(function (cells) {
      return el("tr", {}, cells.map(function (cell) {
        return el("td", {}, [typeof cell === "object" && cell !== null && cell.nodeType ? cell : text(cell)]);
      }));
    }));
    return el("table", {"class": css}, [el("thead", {}, [head]), body]);
  }
  function section(css, title, count, content) {
    return el("details", {"class": "evidence " + css, open: ""}, [el("summary", {}, [title + " (" + count + ")"]),
                                                                content]);
  }

  // every step with its outcome, its data table and its doc string
  function steps(evidence) {
    var list = el("ol", {"class": "steps"});
    (evidence.steps || []).forEach(function (step) {
      var item = el("li", {"class": "s-" + step.status, title: step.status + ", line " + step.line},
                    [step.keyword + " " + step.text + (step.status === "passed" ? "" : "  [" + step.status + "]")]);
      if (step.datatable) {
        item.appendChild(table("datatable", step.datatable[0], step.datatable.slice(1)));
      }
      if (step.docstring) { item.appendChild(el("pre", {"class": "docstring"}, [step.docstring])); }
      if (step.error && step.status !== "passed") { item.appendChild(el("div", {"class": "step-error"}, [step.error])); }
      list.appendChild(item);
    });
    return list;
  }

  function calls(evidence) {
    var rows = (evidence.calls || []).map(function (call, i) {
      var args = (call.args || []).map(text).join(", ");
      var named = Object.keys(call.kwargs || {}).map(function (k) { return k + "=" + text(call.kwargs[k]); });
      return [String(i + 1), call.client, call.method, args + (named.length ? ", " + named.join(", ") : ""),
              text(call.result)];
    });
    return section("calls", "What the target answered", rows.length,
                   table("calls", ["#", "client", "call", "arguments", "answer"], rows));
  }

  function hex(value) {
    var lines = [];
    for (var at = 0; at < value.length; at += 32) {
      var line = value.slice(at, at + 32).replace(/(..)/g, "$1 ").trim();
      lines.push(("000" + (at / 2).toString(16)).slice(-4) + "  " + line);
    }
    return el("details", {"class": "hex"}, [el("summary", {}, ["hex"]), el("pre", {}, [lines.join("\n")])]);
  }

  function pdus(evidence) {
    var rows = (evidence.pdus || []).map(function (pdu, i) {
      var decoded = pdu.stub !== undefined ? text(pdu.stub)
        : pdu.status !== undefined && pdu.status !== null ? "status 0x" + pdu.status.toString(16).toUpperCase()
        : pdu.stub_note || "";
      var flags = (pdu.flags || []).join(" ");
      return [String(i + 1), (pdu.at === undefined ? "" : pdu.at.toFixed(3)),
              pdu.client + " #" + pdu.connection, pdu.direction === "out" ? "\u2192 sent" : "\u2190 received",
              pdu.type + (flags ? " [" + flags + "]" : ""), String(pdu.call_id),
              pdu.opnum === undefined || pdu.opnum === null ? "" : pdu.opnum + (pdu.method ? " " + pdu.method : ""),
              pdu.frag_length + " / " + pdu.auth_length + (pdu.stub_length === undefined ? "" : " / " + pdu.stub_length),
              el("div", {}, [el("code", {}, [decoded]), hex(pdu.hex || "")])];
    });
    return section("pdus", "PDUs on the wire", rows.length,
                   table("pdus", ["#", "s", "client, connection", "", "PDU", "call id", "opnum",
                                  "frag / auth / stub length", "decoded"], rows));
  }

  function judge(evidence) {
    var transcript = evidence.judge || {};
    var rows = (transcript.calls || []).map(function (call) {
      if (call.error) { return ["", "", "", call.error, "", ""]; }
      var answer = call.dropped ? "connection dropped" : call.fault !== null && call.fault !== undefined
        ? "fault 0x" + call.fault.toString(16).toUpperCase()
        : call.status !== null && call.status !== undefined ? "0x" + (call.status >>> 0).toString(16).toUpperCase()
        : (call.done ? "" : "(waiting)");
      return [String(call.seq), String(call.at), call.association + " / " + call.connection,
              call.method || ("opnum " + call.opnum), text(call.args || call.stub),
              answer + (call.injected ? " (injected: " + call.injected + ")" : "") +
              (call.outputs ? " " + text(call.outputs) : "")];
    });
    var asked = (transcript.asked || []).map(function (op, i) {
      return [String(i + 1), op.op, text(op.args), text(op.reply), text(op.records)];
    });
    return el("div", {}, [
      section("judge", "The judge's transcript", rows.length,
              table("judge", ["seq", "at s", "association / connection", "call", "arguments", "answer"], rows)),
      section("asked", "What the application asked the client", asked.length,
              table("asked", ["#", "operation", "arguments", "reply", "judge records"], asked))]);
  }

  function more(evidence) {
    var box = el("div", {"class": "evidence-box"});
    if (evidence.note) { box.appendChild(el("p", {"class": "muted"}, [evidence.note])); }
    if ((evidence.calls || []).length) { box.appendChild(calls(evidence)); }
    if ((evidence.pdus || []).length) { box.appendChild(pdus(evidence)); }
    if (evidence.judge) { box.appendChild(judge(evidence)); }
    return box;
  }

  return {steps: steps, more: more};
})();
