"""Putting untrusted text into HTML safely."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from typing import Any

from factgraph.viz.assets import viz_path


def json_for_script(data: Any) -> str:
    """JSON that is safe inside ``<script type="application/json">``: no ``<``, ``>``, ``&``
    (so no ``</script>`` or ``<!--`` can end or confuse the element) and no U+2028/2029."""
    text = json.dumps(data, ensure_ascii=False, allow_nan=False)
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                    ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


def script_hash(code: str) -> str:
    """The CSP source expression allowing exactly this inline script."""
    digest = hashlib.sha256(code.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def content_security_policy(scripts: list[str]) -> str:
    """Nothing may load from anywhere; only our own inline scripts (by hash) may run."""
    hashes = " ".join(script_hash(s) for s in scripts)
    return (f"default-src 'none'; script-src {hashes}; style-src 'unsafe-inline'; "
            "img-src data: blob:; font-src data:; connect-src 'none'; base-uri 'none'; "
            "form-action 'none'")


def read_asset(*parts: str) -> str:
    return viz_path(*parts).read_text(encoding="utf-8")


def fill_template(template: str, values: dict[str, str]) -> str:
    """Replace each ``__MARKER__`` of the template in one pass: inserted values (which may hold
    user text that looks like a marker) are never scanned again."""
    pattern = re.compile("|".join(re.escape(k) for k in values))
    return pattern.sub(lambda m: values[m.group(0)], template)
