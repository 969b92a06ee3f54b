"""A pyvis Network whose HTML works offline and runs only its own scripts.

pyvis 0.3.2's template links Bootstrap from a CDN even with ``cdn_resources="in_line"``,
prints the heading unescaped and, when a tooltip contains ``href``, shows tooltips through
``innerHTML``. :class:`OfflineNetwork` keeps pyvis's API (``add_node``, ``set_options``,
``write_html``, ``show``, ``neighborhood_highlight``, ``show_buttons``) and renders its own
template (``viz/pyvis.html``): vis-network inlined from factgraph's vendored copy, text
escaped, tooltips as text, and a Content-Security-Policy that allows only the page's own
scripts (by hash) and no request to anywhere. This module imports pyvis: import it lazily.
"""

from __future__ import annotations

import html
import re
import webbrowser
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup
from pyvis.network import Network

from factgraph.viz.assets import viz_dir
from factgraph.viz.safe_html import content_security_policy, read_asset

TEMPLATE = "pyvis.html"
CSP_MARKER = "__FACTGRAPH_CSP__"
_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def _pyvis_asset(*parts: str) -> str:
    import pyvis

    return Path(pyvis.__file__).parent.joinpath("templates", *parts).read_text(encoding="utf-8")


def _options_js(options: str) -> str:
    """The options JSON made safe inside a script element (no ``<`` can end it)."""
    return options.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace(
        "\u2029", "\\u2029")


class OfflineNetwork(Network):
    """``pyvis.network.Network`` with an offline, script-safe page (see the module doc)."""

    def __init__(self, *args: Any, notebook: bool = False, **kwargs: Any) -> None:
        kwargs["cdn_resources"] = "in_line"
        super().__init__(*args, notebook=False, **kwargs)
        self.path = TEMPLATE
        self.template_dir = str(viz_dir())
        self.templateEnv = Environment(loader=FileSystemLoader(self.template_dir),
                                       autoescape=True)
        if notebook:
            self.prep_notebook()

    def generate_html(self, name: str = "index.html", local: bool = True,
                      notebook: bool = False) -> str:
        """The page as a string (also kept in ``self.html``)."""
        if self.select_menu or self.filter_menu:
            raise ValueError("select_menu / filter_menu need pyvis's inline event handlers, "
                             "which this page's Content-Security-Policy forbids")
        if self.use_DOT:
            raise ValueError("DOT input is not supported by the offline page")
        nodes, edges, heading, height, width, options = self.get_network_data()
        template = self.templateEnv.get_template(self.path)
        page = template.render(
            nodes=nodes, edges=edges, heading=heading, height=height, width=width,
            options=Markup(_options_js(options)), bgcolor=self.bgcolor, conf=self.conf,
            neighborhood_highlight=self.neighborhood_highlight,
            vis_js=Markup(read_asset("vendor", "vis-network.min.js")),
            utils_js=Markup(_pyvis_asset("lib", "bindings", "utils.js")),
        )
        csp = content_security_policy(_SCRIPT.findall(page))
        self.html = page.replace(CSP_MARKER, html.escape(csp, quote=True), 1)
        return str(self.html)

    def write_html(self, name: str, local: bool = True, notebook: bool = False,
                   open_browser: bool = False) -> None:
        """Write the page (UTF-8) to ``name``; nothing else is written beside it."""
        Path(name).write_text(self.generate_html(name, notebook=notebook), encoding="utf-8")
        if open_browser:
            webbrowser.open(Path(name).resolve().as_uri())
