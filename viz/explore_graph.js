// factgraph explore: draws a named query's result as a small graph (vis-network). Texts go
// into the page only through textContent and canvas labels, never as markup.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("fx-graph-data").textContent);
  function tip(text) {
    const d = document.createElement("div");
    d.className = "fx-tip";
    d.textContent = String(text);
    return d;
  }
  const nodes = new vis.DataSet(data.nodes.map((n) => ({
    id: n.id, label: n.label, title: tip(n.text), shape: n.shape || "ellipse",
    color: n.color || "#d9e2ec",
  })));
  const edges = new vis.DataSet(data.edges.map((e, i) => ({
    id: "e" + i, from: e.from, to: e.to, arrows: e.arrows || "", label: e.label || "",
    color: { color: "#59a14f" },
  })));
  const network = new vis.Network(document.getElementById("fx-graph"), { nodes, edges }, {
    physics: { stabilization: { iterations: 200 } },
    nodes: { widthConstraint: { maximum: 220 }, font: { size: 13 } },
  });
  network.once("stabilizationIterationsDone", () => network.setOptions({ physics: false }));
  window.factgraphExploreGraph = { network, drawnNodeCount: () => network.body.nodeIndices.length,
                                   edgeCount: () => edges.length };
})();
