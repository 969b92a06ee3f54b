"""A port of the published reference approach to coverage and basis, for timing only.

It follows the structure of the reference implementation of Dejl et al. 2025 (IBM FactReasoner,
``FactGraph.covered_context_ids`` / ``uncovered_context_basis``), written anew here:

* reachability is recomputed per statement: a DFS over parents (ancestors) from *every* node,
  once for the covered set and again for the uncovered set;
* equivalence clusters come from a NetworkX condensation, the prototype is the text mode;
* the basis walks the condensation in topological order, finds each component's cluster by
  scanning all clusters, and runs a per-prototype descendant DFS (again from every node).

One kindness to the reference: its coverage digraph asks for the covered ids once per node
while colouring nodes; here they are computed once per digraph build.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import mode

import networkx as nx


class ReferenceGraph:
    def __init__(
        self, n: int, edges: Sequence[tuple[int, int]], is_response: Sequence[bool],
        texts: Sequence[str],
    ) -> None:
        self.n = n
        self.is_response = list(is_response)
        self.texts = list(texts)
        self.children: list[list[int]] = [[] for _ in range(n)]
        self.parents: list[list[int]] = [[] for _ in range(n)]
        for a, b in edges:
            self.children[a].append(b)
            self.parents[b].append(a)

    def reachable_from_every_node(self, descendants: bool) -> list[set[int]]:
        nbrs = self.children if descendants else self.parents
        out = []
        for start in range(self.n):
            seen = {start}
            stack = [start]
            while stack:
                x = stack.pop()
                for y in nbrs[x]:
                    if y not in seen:
                        seen.add(y)
                        stack.append(y)
            out.append(seen)
        return out

    def covered(self) -> list[int]:
        anc = self.reachable_from_every_node(descendants=False)
        return [i for i in range(self.n)
                if not self.is_response[i] and any(self.is_response[a] for a in anc[i])]

    def uncovered(self) -> list[int]:
        anc = self.reachable_from_every_node(descendants=False)
        return [i for i in range(self.n)
                if not self.is_response[i] and all(not self.is_response[a] for a in anc[i])]

    def digraph(self) -> nx.DiGraph:
        g = nx.DiGraph()
        covered = set(self.covered())
        for i in range(self.n):
            g.add_node(i, covered=i in covered)
        for a in range(self.n):
            for b in self.children[a]:
                g.add_edge(a, b)
        return g

    def clusters(self) -> dict[int, list[int]]:
        cond = nx.condensation(self.digraph())
        out: dict[int, list[int]] = {}
        for c in cond.nodes:
            members = [m for m in cond.nodes[c]["members"] if not self.is_response[m]]
            if not members:
                continue
            top = mode([self.texts[m] for m in members])
            out[next(m for m in members if self.texts[m] == top)] = members
        return out

    def basis(self) -> dict[int, list[int]]:
        desc = self.reachable_from_every_node(descendants=True)
        cond = nx.condensation(self.digraph())
        uncovered_now = set(self.uncovered())
        clusters = self.clusters()
        result: dict[int, list[int]] = {}
        for c in nx.topological_sort(cond):
            members = cond.nodes[c]["members"]
            matching = [(p, ids) for p, ids in clusters.items() if any(m in ids for m in members)]
            if not matching:
                continue
            proto = matching[0][0]
            if proto not in uncovered_now:
                continue
            result[proto] = sorted(uncovered_now & desc[proto])
            uncovered_now -= desc[proto]
        return result


def reference_coverage_and_basis(
    n: int, edges: Sequence[tuple[int, int]], is_response: Sequence[bool], texts: Sequence[str]
) -> tuple[int, int, int]:
    """(covered components, uncovered components, basis size) the reference way."""
    g = ReferenceGraph(n, edges, is_response, texts)
    covered = set(g.covered())
    clusters = g.clusters()
    n_cov = sum(1 for p in clusters if p in covered)
    basis = g.basis()
    return n_cov, len(clusters) - n_cov, len(basis)
