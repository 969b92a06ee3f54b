"""The explorer as a Starlette app (served by uvicorn from ``factgraph explore``).

Routes (GET only; anything else is 405):

* ``/``                     queries, models and the leaderboard over all evaluations;
* ``/query/{query_id}``     the query's leaderboard, coverage matrix and responses;
* ``/model/{model}``        a model's evaluations;
* ``/view/{evaluation_id}`` the offline graph view of one evaluation (``#statement=ID`` opens
  it at a statement with its covering path highlighted);
* ``/queries``              the named read-only queries with a form each;
* ``/queries/{name}``       one named query run with the form's values as parameters.
"""

from __future__ import annotations

import functools
import html
import logging
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from factgraph.explore import pages
from factgraph.explore.named import form_params, result_graph
from factgraph.explore.security import Guard
from factgraph.explore.sources import (
    EvaluationSummary,
    NamedQueryUnavailable,
    QuerySummary,
    Source,
)
from factgraph.graph import analyze, contradictions
from factgraph.graph.reasons import reasons
from factgraph.store.queries import NamedQuery, unknown_value_message
from factgraph.store.registry import store_names
from factgraph.viz.matrix import coverage_matrix
from factgraph.viz.safe_html import content_security_policy, read_asset

log = logging.getLogger(__name__)
CHOICES_LIMIT = 500  # stored values a named query's field offers as choices


def _html(page: pages.Page, status: int = 200) -> HTMLResponse:
    return HTMLResponse(page.html, status_code=status,
                        headers={"Content-Security-Policy": page.csp})


class PageCache:
    """The last ``size`` drawn pages by key (a page's key holds the fingerprints of the
    evaluations it was drawn from, so a changed evaluation is drawn anew)."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, ...], Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[str, ...], make: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = make()
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return value


class Explorer:
    """The pages over one source; drawn matrices and views are kept in a bounded cache."""

    def __init__(self, source: Source, cache_size: int = 32) -> None:
        self.source = source
        self.cache = PageCache(cache_size)

    def _nav(self, query: str | None = None, model: str | None = None,
             queries: list[QuerySummary] | None = None,
             summaries: list[EvaluationSummary] | None = None) -> str:
        if summaries is None:
            summaries = self.source.summaries()
        models = Counter(s.model for s in summaries)
        return pages.nav(self.source.label, self.source.queries() if queries is None else queries,
                         dict(sorted(models.items())), current_query=query, current_model=model)

    def _not_found(self, message: str) -> HTMLResponse:
        return _html(pages.layout("not found", self._nav(), pages.error_main(message)), 404)

    def index(self, request: Request) -> Response:
        queries = self.source.queries()
        summaries = self.source.summaries()
        main = pages.index_main(self.source.label, queries, summaries)
        return _html(pages.layout("start", self._nav(queries=queries, summaries=summaries), main))

    def query(self, request: Request) -> Response:
        qid = request.path_params["query_id"]
        keyed = self.source.evaluations_for(qid)
        if not keyed:
            return self._not_found(f"no query with id {qid}")

        def draw() -> tuple[str, str]:
            evs = [k.evaluation for k in keyed]
            matrix = coverage_matrix(evs)
            return matrix.query or qid, pages.query_main(
                matrix, {ev.id: contradictions(ev.graph) for ev in evs},
                {ev.id: reasons(analyze(ev.graph)) for ev in evs})

        title, main = self.cache.get(("query", *sorted(k.fingerprint for k in keyed)), draw)
        return _html(pages.layout(title, self._nav(query=qid), main))

    def model(self, request: Request) -> Response:
        model = request.path_params["model"]
        summaries = self.source.summaries(model)
        if not summaries:
            return self._not_found(f"no evaluations of model {model}")
        return _html(pages.layout(model, self._nav(model=model),
                                  pages.model_main(model, summaries)))

    def view(self, request: Request) -> Response:
        from factgraph.viz.view import render_view

        eid = request.path_params["evaluation_id"]
        keyed = self.source.evaluation(eid)
        if keyed is None:
            return self._not_found(f"no evaluation with id {eid}")
        page = self.cache.get(("view", keyed.fingerprint), lambda: render_view(keyed.evaluation))
        return HTMLResponse(page, headers={"Content-Security-Policy": self._view_csp()})

    def _view_csp(self) -> str:
        return str(self.cache.get(("view-csp",), lambda: content_security_policy(
            [read_asset("vendor", "vis-network.min.js"), read_asset("view.js")])))

    def _choices(self, queries: list[NamedQuery]) -> dict[str, dict[str, list[Any]]]:
        """Per query name, per parameter, the values the database holds (at most
        ``CHOICES_LIMIT`` each; each distinct listing query runs once)."""
        known = {(q.name, p): c for q in queries for p, c in q.known.items()}
        keys = {f"{name}\x00{p}": c for (name, p), c in known.items()}
        found = self.source.stored_values(keys, CHOICES_LIMIT) if keys else {}
        out: dict[str, dict[str, list[Any]]] = {}
        for key, values in found.items():
            name, p = key.split("\x00", 1)
            out.setdefault(name, {})[p] = values
        return out

    def named_index(self, request: Request) -> Response:
        note = None if self.source.database else (
            "These run against the fact database: push the results (factgraph db push) and "
            f"start factgraph explore --store {'|'.join(store_names())}.")
        queries = self.source.named_queries()
        main = pages.named_index_main(queries, note, self._choices(list(queries.values())))
        return _html(pages.layout("named queries", self._nav(), main))

    def named(self, request: Request) -> Response:
        name = request.path_params["name"]
        q = self.source.named_queries().get(name)
        if q is None:
            return self._not_found(f"no named query {name}")
        form = {k: v for k, v in request.query_params.items() if k in q.params}
        choices = self._choices([q]).get(name, {})
        rows: list[dict[str, Any]] = []
        error: str | None = None
        graph = None
        status = 200
        try:
            params, missing = form_params(q, form, choices)
        except ValueError as e:
            params, missing, error, status = {}, [], str(e), 400
        if error is None and missing:
            error = ("fill in " + ", ".join(missing) + " and run") if form else None
            if error is None:  # a fresh form: nothing run yet
                main = pages.named_result_main(q, form, [], "Fill in the parameters and run.",
                                               False, choices)
                return _html(pages.layout(name, self._nav(), main))
            status = 400
        if error is None:
            try:
                rows = self.source.run_named(name, params)
                graph = result_graph(q, params, rows)
                if not rows:  # a value that matches nothing stored says so, as the CLI does
                    error = self._unknown_value(q, params)
                    status = 200 if error is None else 400
            except NamedQueryUnavailable as e:
                error, status = str(e), 409
            except Exception as e:  # the server's own message, first line only
                log.info("named query %s failed: %s", name, e)
                first = str(e).splitlines()[0] if str(e) else type(e).__name__
                error, status = f"{type(e).__name__}: {first}", 400
        main = pages.named_result_main(q, form, rows, error, graph is not None, choices)
        return _html(pages.layout(name, self._nav(), main, graph=graph), status)

    def _unknown_value(self, q: NamedQuery, params: dict[str, Any]) -> str | None:
        """The CLI's message for a given value that matches nothing stored (every stored
        value is read here, not only the offered choices), or None."""
        given = {p: c for p, c in q.known.items() if params.get(p) is not None}
        if not given:
            return None
        return unknown_value_message(self.source.stored_values(given), params)


def timed(handler: Callable[[Request], Response]) -> Callable[[Request], Response]:
    """Add a ``Server-Timing`` header: the page's wall time and the CPU time of the thread
    that drew it (on a busy machine the two differ by the time spent waiting for a CPU)."""

    @functools.wraps(handler)
    def run(request: Request) -> Response:
        wall, cpu = time.perf_counter(), time.thread_time()
        response = handler(request)
        response.headers["Server-Timing"] = (
            f"page;dur={(time.perf_counter() - wall) * 1000:.1f}, "
            f"cpu;dur={(time.thread_time() - cpu) * 1000:.1f}")
        return response

    return run


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("explorer page failed: %s", request.url.path)
    text = html.escape(f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    return HTMLResponse(f"<!DOCTYPE html><title>error</title><p>{text}</p>", status_code=500,
                        headers={"Content-Security-Policy": "default-src 'none'"})


def create_app(source: Source, token: str | None = None, loopback_only: bool = True) -> Any:
    """The ASGI app: the explorer's routes behind ``Guard`` (see factgraph.explore.security).

    ``loopback_only`` (the app is bound to a loopback address) checks the Host header; a
    non-loopback bind needs ``token``.
    """
    x = Explorer(source)
    routes = [
        Route("/", timed(x.index), methods=["GET"]),
        Route("/query/{query_id}", timed(x.query), methods=["GET"]),
        Route("/model/{model:path}", timed(x.model), methods=["GET"]),
        Route("/view/{evaluation_id:path}", timed(x.view), methods=["GET"]),
        Route("/queries", timed(x.named_index), methods=["GET"]),
        Route("/queries/{name}", timed(x.named), methods=["GET"]),
    ]
    app = Starlette(routes=routes, exception_handlers={Exception: _server_error})
    return Guard(app, token=token, loopback_only=loopback_only)
