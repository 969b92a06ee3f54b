// factgraph view: draws one fact graph with vis-network. Every piece of text goes into the
// page through textContent (never innerHTML), so statement texts cannot inject markup.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("fg-data").textContent);
  const STATUS = data.palette;
  const byId = new Map(data.statements.map((s) => [s.id, s]));

  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function fmt(x) {
    if (x === null || x === undefined) return "—";
    if (typeof x === "number") return Number.isInteger(x) ? String(x) : x.toFixed(3);
    // a list of checks, e.g. a statement's clauses each with its P ("clauses")
    if (Array.isArray(x)) return x.map(fmt).join("; ");
    if (typeof x === "object") {
      if ("text" in x && "p_stated" in x) return "\u201c" + x.text + "\u201d (P " + fmt(x.p_stated) + ")";
      return Object.entries(x).map(([k, v]) => k + " " + fmt(v)).join(", ");
    }
    return String(x);
  }

  // ---- side panel -------------------------------------------------------------------------
  document.getElementById("fg-query").textContent = data.query || "(no query)";
  const scores = document.getElementById("fg-scores");
  for (const [k, v] of Object.entries(data.scores)) {
    const tr = el("tr");
    tr.appendChild(el("td", k));
    tr.appendChild(el("td", fmt(v), "num"));
    scores.appendChild(tr);
  }
  const legend = document.getElementById("fg-legend");
  for (const [key, item] of Object.entries(STATUS)) {
    const li = el("li");
    const sw = el("span", "", "fg-swatch");
    sw.style.background = item.color;
    if (key === "contradicted") sw.style.border = "3px solid " + item.border;
    li.appendChild(sw);
    li.appendChild(el("span", item.label));
    legend.appendChild(li);
  }
  for (const [key, item] of Object.entries(data.edge_styles)) {
    const li = el("li");
    const ln = el("span", "", "fg-line");
    ln.style.borderColor = item.color;
    if (item.dashes) ln.style.borderTopStyle = "dashed";
    li.appendChild(ln);
    li.appendChild(el("span", item.label));
    legend.appendChild(li);
  }
  for (const [key, item] of Object.entries(data.edge_highlights || {})) {
    const li = el("li", null, "fg-highlight-" + key);
    const ln = el("span", "", "fg-line");
    ln.style.borderColor = item.color;
    if (key === "path") ln.style.borderTopWidth = "5px";
    li.appendChild(ln);
    li.appendChild(el("span", item.label));
    legend.appendChild(li);
  }
  const basisList = document.getElementById("fg-basis");
  for (const b of data.basis) basisList.appendChild(el("li", b.text));
  // Response statements that contradict the background: what the answer gets wrong.
  const contradictedList = document.getElementById("fg-contradictions");
  for (const c of data.contradictions || []) {
    const li = el("li");
    li.dataset.statement = c.id;
    li.appendChild(el("div", c.text, "fg-contradicted"));
    for (const f of c.contradicts) {
      li.appendChild(el("div", "contradicts: " + f.text + (f.source_id ? " (" + f.source_id + ")" : ""), "fg-contradicts"));
      if (f.why) li.appendChild(el("div", "why: " + f.why.line, "fg-why-line"));
    }
    contradictedList.appendChild(li);
  }
  document.getElementById("fg-contradictions-count").textContent =
    String((data.contradictions || []).length);

  // ---- graph data ---------------------------------------------------------------------------
  const contradictedBy = new Map((data.contradictions || []).map((c) => [c.id, c.contradicts]));
  function tooltip(s) {
    const lines = [s.text, "", "id: " + s.id, "origin: " + s.origin + (s.kind !== "atom" ? " (" + s.kind + ")" : ""),
      "status: " + STATUS[s.status].label];
    if (s.source_id) lines.push("source: " + s.source_id);
    if (s.relevance !== null) lines.push("relevance: " + fmt(s.relevance));
    if (s.confidence !== null) lines.push("confidence: " + fmt(s.confidence));
    if (s.component_size > 1) lines.push("equivalent statements: " + s.component_size);
    if (s.trace_id) lines.push("model call: " + s.trace_id + (s.trace_model ? " (" + s.trace_model + ")" : ""));
    const wrong = contradictedBy.get(s.id);
    if (wrong) for (const f of wrong) lines.push("contradicts: " + f.text);
    if (s.why) lines.push("why: " + s.why.line);
    return el("div", lines.join("\n"), "fg-tip");
  }

  const nodes = new vis.DataSet(data.statements.map((s) => ({
    id: s.id,
    label: s.label,
    title: tooltip(s),
    color: { background: STATUS[s.status].color,
             border: contradictedBy.has(s.id) ? STATUS.contradicted.border : STATUS[s.status].border,
             highlight: { background: STATUS[s.status].color, border: "#111" } },
    shape: s.origin === "response" ? "box" : "ellipse",
    borderWidth: s.status === "basis" || contradictedBy.has(s.id) ? 3 : 1,
    font: { color: s.origin === "response" ? "#fff" : "#111", size: 13 },
    cid: s.component,
    source: s.source_id || "",
    relevance: s.relevance,
  })));
  const edges = new vis.DataSet(data.relations.map((r, i) => ({
    id: "e" + i,
    from: r.src, to: r.dst, label_kind: r.label,
    arrows: "to",
    color: { color: data.edge_styles[r.label].color, highlight: data.edge_highlights.selected.color,
             hover: data.edge_highlights.hover.color },
    dashes: !!data.edge_styles[r.label].dashes,
    width: 1.5,
    title: el("div", r.label + (r.probability !== null ? " (p=" + fmt(r.probability) + ")" : "") +
      (r.method ? " by " + r.method : ""), "fg-tip"),
  })));

  // ---- filters ------------------------------------------------------------------------------
  const hiddenSources = new Set();
  let minRelevance = 0;
  let showNeutral = false;
  const sourcesBox = document.getElementById("fg-sources");
  for (const src of data.sources) {
    const label = el("label");
    const box = el("input");
    box.type = "checkbox";
    box.checked = true;
    box.addEventListener("change", () => {
      if (box.checked) hiddenSources.delete(src.id); else hiddenSources.add(src.id);
      refresh();
    });
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + src.label));
    sourcesBox.appendChild(label);
  }
  const nodeView = new vis.DataView(nodes, { filter: (n) =>
    !hiddenSources.has(n.source) && (n.relevance === null || n.relevance === undefined || n.relevance >= minRelevance) });
  const edgeView = new vis.DataView(edges, { filter: (e) => showNeutral || e.label_kind !== "neutral" });

  const container = document.getElementById("fg-graph");
  const big = data.statements.length > data.cluster_threshold;
  const network = new vis.Network(container, { nodes: nodeView, edges: edgeView }, {
    layout: { improvedLayout: !big },
    physics: big
      ? { solver: "barnesHut", stabilization: { iterations: 60 } }
      : { solver: "barnesHut", stabilization: { iterations: 400 },
          barnesHut: { gravitationalConstant: -9000, springLength: 170, avoidOverlap: 0.6 } },
    interaction: { hover: true, tooltipDelay: 150, multiselect: false },
    nodes: { widthConstraint: { maximum: 220 } },
    edges: { smooth: big ? false : { type: "continuous" } },
  });
  network.once("stabilizationIterationsDone", () => network.setOptions({ physics: false }));

  // ---- equivalent statements (SCCs) and large graphs ------------------------------------------
  const components = data.components.filter((c) => c.members.length > 1);
  let grouped = false;
  function groupComponents() {
    for (const c of components) {
      network.cluster({
        joinCondition: (n) => n.cid === c.id,
        clusterNodeProperties: { id: "cluster-" + c.id, label: c.label + " (×" + c.members.length + ")",
          shape: "hexagon", color: STATUS[c.status].color, borderWidth: 2,
          title: el("div", c.text + "\n\n" + c.members.length + " equivalent statements; double-click to expand", "fg-tip") },
      });
    }
    grouped = true;
  }
  function groupSources() {
    // Past the size limit, uncovered statements of one source collapse into one node each.
    for (const src of data.sources) {
      network.cluster({
        joinCondition: (n) => n.source === src.id && n.cid !== undefined && data.component_status[n.cid] === "uncovered",
        clusterNodeProperties: { id: "source-" + src.id, label: src.label + ": uncovered", shape: "database",
          color: STATUS.uncovered.color, title: el("div", "Uncovered statements of " + src.label + "; double-click to expand", "fg-tip") },
      });
    }
  }
  function ungroupAll() {
    for (const id of Object.keys(network.body.nodes)) {
      if (network.isCluster(id)) network.openCluster(id);
    }
    grouped = false;
  }
  network.on("doubleClick", (p) => {
    if (p.nodes.length && network.isCluster(p.nodes[0])) network.openCluster(p.nodes[0]);
  });
  const groupBox = document.getElementById("fg-group");
  groupBox.addEventListener("change", () => { if (groupBox.checked) groupComponents(); else ungroupAll(); });
  if (big) {
    groupComponents();
    groupSources();
    groupBox.checked = true;
  }

  function refresh() {
    const keep = grouped;
    nodeView.refresh();
    edgeView.refresh();
    if (keep) { ungroupAll(); groupComponents(); groupBox.checked = true; }
    status();
  }
  document.getElementById("fg-relevance").addEventListener("input", (ev) => {
    minRelevance = Number(ev.target.value);
    document.getElementById("fg-relevance-value").textContent = String(minRelevance);
    refresh();
  });
  document.getElementById("fg-neutral").addEventListener("change", (ev) => {
    showNeutral = ev.target.checked;
    refresh();
  });

  // ---- selection: details and the covering path ----------------------------------------------
  // Why a context statement is covered, contradicted or missing (factgraph.reasons): the one
  // line every reader shows, the response statement quoted, and each recorded check.
  function whyBox(w) {
    const box = el("div", null, "fg-why");
    box.appendChild(el("div", "Why: " + w.line, "fg-why-line"));
    if (w.quote) box.appendChild(el("blockquote", w.quote, "fg-quote"));
    const checks = [];
    if (w.method) checks.push("method: " + w.method);
    if (w.probability !== null && w.probability !== undefined) checks.push("probability: " + fmt(w.probability));
    for (const [k, v] of Object.entries(w.evidence || {})) checks.push(k + ": " + fmt(v));
    if (w.conflict) checks.push("conflict: " + fmt(w.conflict.slot) + ", fact " + fmt(w.conflict.fact) + ", response " + fmt(w.conflict.response));
    if (w.trace_id) checks.push("model call: " + w.trace_id);
    if (checks.length) {
      const ul = el("ul", null, "fg-evidence");
      for (const c of checks) ul.appendChild(el("li", c));
      box.appendChild(ul);
    }
    return box;
  }
  let highlighted = [];
  function clearHighlight() {
    edges.update(highlighted.map((id) => ({ id, width: 1.5, color: { color: data.edge_styles[edges.get(id).label_kind].color } })));
    highlighted = [];
  }
  function showDetails(id) {
    const box = document.getElementById("fg-details");
    box.textContent = "";
    const s = byId.get(id);
    if (!s) return;
    box.appendChild(el("div", s.text));
    box.appendChild(el("div", STATUS[s.status].label + " · " + s.origin + (s.source_id ? " · " + s.source_id : "")));
    if (s.why) box.appendChild(whyBox(s.why));
    const path = data.paths[id];
    if (path && path.length > 1) {
      box.appendChild(el("div", "Covered through:"));
      const ol = el("ol", null, "fg-path");
      for (const step of path) ol.appendChild(el("li", byId.get(step).text));
      box.appendChild(ol);
      const pathEdges = [];
      for (let i = 0; i + 1 < path.length; i++) {
        const match = edges.get({ filter: (e) => e.from === path[i] && e.to === path[i + 1] && e.label_kind === "entails" });
        if (match.length) pathEdges.push(match[0].id);
      }
      edges.update(pathEdges.map((eid) => ({ id: eid, width: 5, color: { color: data.edge_highlights.path.color } })));
      highlighted = pathEdges;
      network.selectNodes(path.filter((n) => nodeView.get(n)));
    } else if (s.status === "uncovered" || s.status === "basis") {
      box.appendChild(el("div", "No response statement entails this." + (s.status === "basis" ? " It is in the uncovered basis." : "")));
    }
  }
  network.on("click", (p) => {
    clearHighlight();
    if (p.nodes.length && !network.isCluster(p.nodes[0])) showDetails(p.nodes[0]);
  });

  function status() {
    document.getElementById("fg-status").textContent =
      nodeView.length + " of " + data.statements.length + " statements shown" +
      (big ? " (large graph: equivalent statements and uncovered statements per source are grouped)" : "");
  }
  status();

  // ---- open at a statement: view.html#statement=ID (links from the coverage matrix) ---------
  let opened = null;
  function statementFromHash() {
    const m = /(?:^#|&)statement=([^&]*)/.exec(window.location.hash);
    if (!m) return null;
    try { return decodeURIComponent(m[1]); } catch (e) { return null; }
  }
  function focusStatement(id) {
    const where = network.findNode(id);  // [cluster, ..., id] when grouped
    const target = where.length ? where[0] : id;
    if (network.body.nodes[target]) network.focus(target, { scale: 1.0, animation: false });
  }
  function openFromHash() {
    const id = statementFromHash();
    if (id === null || !byId.has(id)) return;
    clearHighlight();
    try { showDetails(id); } catch (e) { /* a grouped node cannot be selected; details stay */ }
    opened = id;
    focusStatement(id);
  }
  openFromHash();
  network.once("stabilizationIterationsDone", () => { if (opened !== null) focusStatement(opened); });
  window.addEventListener("hashchange", openFromHash);

  // Hooks for tests and notebooks.
  window.factgraphView = {
    openedStatement: () => opened,
    network, nodes, edges, nodeView,
    drawnNodeCount: () => network.body.nodeIndices.length,
    shownStatementCount: () => nodeView.length,
    select: (id) => { clearHighlight(); showDetails(id); },
    highlightedEdges: () => highlighted.slice(),
  };
})();
