"""What the CLI shows on stderr: factgraph's own lines, and nothing of the libraries it drives
(progress bars such as "Loading weights 0%…100%", their log lines and Python warnings such as
scipy's ``DegenerateDataWarning``) unless ``-v`` asks for more.

Called by the CLI's group once per run, before any command imports a model engine; nothing
here happens at import time, and a library used from Python is left as its user set it.
"""

from __future__ import annotations

import logging
import os
import sys
import warnings

# loggers of the libraries the CLI drives (their own lines: load reports, retries, deprecations)
THIRD_PARTY_LOGGERS = (
    "transformers", "sentence_transformers", "huggingface_hub", "torch", "accelerate",
    "onnxruntime", "tokenizers", "vllm", "ray", "httpx", "httpcore", "urllib3", "filelock",
    "neo4j", "falkordb", "redis", "numba", "py.warnings")
# factgraph's own loggers whose INFO lines show without -v (what the run decided for the user:
# the judge ``auto`` picked, the device a torch engine runs on)
OWN_NOTICE_LOGGERS = ("factgraph.cli.judge_choice", "factgraph.backends.torch_device")
# environment switches the libraries read when they load (a user's own setting wins)
QUIET_ENVIRONMENT = {"HF_HUB_DISABLE_PROGRESS_BARS": "1", "TRANSFORMERS_VERBOSITY": "error",
                     "TRANSFORMERS_NO_ADVISORY_WARNINGS": "1"}


def quiet_third_parties(verbose: int) -> None:
    """Without ``-v`` (``verbose == 0``): no library progress bars, log lines below ERROR or
    Python warnings on stderr (factgraph reports through ``logging``, never ``warnings``), and
    factgraph's own notices (``OWN_NOTICE_LOGGERS``) at INFO. With ``-v`` everything shows as
    the libraries print it."""
    for name in OWN_NOTICE_LOGGERS:
        logging.getLogger(name).setLevel(logging.INFO if verbose < 2 else logging.NOTSET)
    if verbose > 0:
        for name in THIRD_PARTY_LOGGERS:
            logging.getLogger(name).setLevel(logging.NOTSET)
        return
    for key, value in QUIET_ENVIRONMENT.items():
        os.environ.setdefault(key, value)
    for name in THIRD_PARTY_LOGGERS:
        logging.getLogger(name).setLevel(logging.ERROR)
    warnings.simplefilter("ignore")
    _already_loaded_bars_off()


def _already_loaded_bars_off() -> None:
    """The progress switches of libraries imported before the CLI ran (they read the
    environment once, at import)."""
    hub = sys.modules.get("huggingface_hub")
    if hub is not None:
        hub.utils.disable_progress_bars()
    if "transformers" in sys.modules:
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
        transformers_logging.set_verbosity_error()
