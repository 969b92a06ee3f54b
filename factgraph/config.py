"""One typed configuration of an evaluation run: method, model specs, method options, limits,
cache and generation parameters.

The CLI (flags, ``--set``, ``--config FILE``), a config file and the Python API
(``factgraph.evaluate(..., **options)``) all build an :class:`EvaluationConfig` from the same
*flat* names — the CLI flag names with ``_`` for ``-`` (``model``, ``max_tokens``, ``seed``,
``max_pairs``, ``t_rel``, ``prune_top_k`` …) — through :meth:`EvaluationConfig.from_flat`, so
they are validated the same way: a name that is neither a run setting nor an option of the
method is an error naming the method and what it takes.

A config file (TOML or JSON) holds flat names, or the sections of the model
(``[generation]``, ``[limits]``, ``[options]``), or both::

    method = "nli"
    model = "openai:qwen@http://127.0.0.1:8000/v1"
    t_rel = 3.0            # a method option, flat
    [limits]
    max_pairs = 500
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    field_validator,
    model_validator,
)

from factgraph.backends.params import DEFAULT_MAX_TOKENS
from factgraph.errors import InputError, UserInputError, describe_validation_error

if TYPE_CHECKING:
    from factgraph.backends.params import GenerationParams
    from factgraph.methods.registry import EmbeddingNeed
    from factgraph.methods.run import Backends, Evaluator
    from factgraph.stages.session import Limits

DEFAULT_METHOD = "e2e"  # the method of a config (CLI, config file) that names none


class ConfigError(UserInputError):
    """A configuration that cannot run; ``str()`` is one line."""


class UnknownOptionError(ConfigError):
    """Names that are neither run settings nor options of the method."""

    def __init__(self, method: str, names: list[str], accepted: list[str]) -> None:
        self.method = method
        self.names = names
        self.accepted = accepted
        quoted = ", ".join(repr(n) for n in names)
        super().__init__(f"option {quoted} does not apply to method {method} "
                         f"(it takes: {', '.join(accepted)})")


class GenerationSettings(BaseModel):
    """Sampling parameters of every text-model call (all part of the call-cache key)."""

    model_config = ConfigDict(extra="forbid")

    max_tokens: int = Field(DEFAULT_MAX_TOKENS, ge=1, description="Generation cap per call.")
    seed: int | None = Field(0, description="Sampling seed.")
    temperature: float = Field(0.0, ge=0.0, description="Sampling temperature.")

    def to_params(self) -> GenerationParams:
        from factgraph.backends.params import GenerationParams

        return GenerationParams(max_tokens=self.max_tokens, seed=self.seed,
                                temperature=self.temperature)


class LimitSettings(BaseModel):
    """Caps per input (None: the engine's default); a cap that binds is recorded in the
    Evaluation's ``limits_hit``."""

    model_config = ConfigDict(extra="forbid")

    max_pairs: int | None = Field(None, ge=1, description="Cap on NLI pairs per input.")
    max_text_chars: int | None = Field(None, ge=1, description="Cap on text length "
                                                               "(characters per text).")
    max_statements: int | None = Field(None, ge=1, description="Cap on statements per text.")

    def to_limits(self) -> Limits:
        from factgraph.stages.session import Limits

        given = {"max_pairs": self.max_pairs, "max_text_chars": self.max_text_chars,
                 "max_statements_per_text": self.max_statements}
        return Limits(**{k: v for k, v in given.items() if v is not None})


RUN_SETTINGS = ("method", "model", "nli_model", "embed_model", "base_url", "concurrency",
                "cache", "prompts_dir")
GENERATION_NAMES = tuple(GenerationSettings.model_fields)
LIMIT_NAMES = tuple(LimitSettings.model_fields)
SECTIONS = ("generation", "limits", "options")


class EvaluationConfig(BaseModel):
    """Everything that decides how an input is evaluated (except the input itself)."""

    model_config = ConfigDict(extra="forbid")

    method: str = Field(DEFAULT_METHOD, description="A method of the registry "
                                                    "(factgraph.methods.registry).")
    model: str | None = Field(None, description="Text model spec: vllm:PATH, "
                                                "transformers:PATH[#FILE.gguf], openai:NAME[@URL]. "
                                                "transformers runs on the GPU torch sees, else "
                                                "the CPU (FACTGRAPH_DEVICE=cpu|cuda:N|mps).")
    nli_model: str | None = Field(None, description="NLI judge spec (cross-encoder:PATH or a "
                                  "text spec); default: the text model judges.")
    embed_model: str | None = Field(None, description="Embedding spec (minilm, "
                                    "sentence-transformers:PATH); needed by pruning and dense "
                                    "retrieval.")
    base_url: str | None = Field(None, description="Base URL of an OpenAI-compatible server "
                                 "(else FACTGRAPH_OPENAI_BASE_URL / OPENAI_BASE_URL).")
    concurrency: int | None = Field(None, ge=1, description="Most requests in flight to an "
                                                            "OpenAI-compatible server.")
    cache: bool | str = Field(True, description="Call cache: True (default file), a path, or "
                                                "False (no cache).")
    prompts_dir: str | None = Field(None, description="A directory of the user's prompts: "
                                    "DIR/NAME.toml replaces the packaged prompt NAME (default: "
                                    "$FACTGRAPH_PROMPTS).")
    generation: GenerationSettings = Field(default_factory=GenerationSettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="Method options (validated by the method).")
    # the options as the method's typed model, made when the options are validated (below)
    _typed_options: tuple[dict[str, Any], BaseModel] | None = PrivateAttr(None)

    @field_validator("method")
    @classmethod
    def _known_method(cls, value: str) -> str:
        from factgraph.methods import METHODS

        if value not in METHODS:
            raise ValueError(f"unknown method {value!r}; known: {', '.join(METHODS)}")
        return value

    @model_validator(mode="after")
    def _options_fit_the_method(self) -> EvaluationConfig:
        from factgraph.methods.registry import get_method_spec, option_fields

        options_cls = get_method_spec(self.method).options
        accepted = sorted(option_fields(options_cls))
        unknown = sorted(set(self.options) - set(accepted))
        if unknown:
            raise UnknownOptionError(self.method, unknown, accepted)
        try:
            typed = options_cls.model_validate(self.options)
        except ValidationError as e:
            raise ValueError(f"options.{describe_validation_error(e)}") from None
        self._typed_options = (dict(self.options), typed)
        return self

    # -- building ------------------------------------------------------------------------------
    @classmethod
    def from_flat(cls, values: Mapping[str, Any]) -> EvaluationConfig:
        """A config from flat names (CLI flag names with ``_``; ``-`` is accepted too).

        Run settings and generation / limit names go to their place, section tables
        (``generation``, ``limits``, ``options``) are merged underneath the flat names, every
        other name is a method option. ``cache_path=PATH`` and ``no_cache=True`` are the CLI's
        spellings of ``cache``.
        Raises :class:`ConfigError` (one line) when something does not fit.
        """
        data: dict[str, Any] = {"generation": {}, "limits": {}, "options": {}}
        flat = {raw.replace("-", "_"): value for raw, value in values.items()}
        for name in SECTIONS:  # section tables first: a flat name always wins over them
            table = flat.pop(name, None)
            if table is None:
                continue
            if not isinstance(table, Mapping):
                raise ConfigError(f"{name}: expected a table of settings, got {table!r}")
            data[name].update({k.replace("-", "_"): v for k, v in table.items()})
        for name, value in flat.items():
            if name == "cache_path":
                if value is not None:
                    data["cache"] = str(value)
            elif name == "no_cache":
                if value:
                    data["cache"] = False
            elif name in RUN_SETTINGS:
                data[name] = value
            elif name in GENERATION_NAMES:
                data["generation"][name] = value
            elif name in LIMIT_NAMES:
                data["limits"][name] = value
            else:
                data["options"][name] = value
        try:
            return cls.model_validate(data)
        except UnknownOptionError:
            raise
        except ValidationError as e:
            inner = _unknown_option_inside(e)
            if inner is not None:
                raise inner from None
            raise ConfigError(describe_validation_error(e)) from None
        except ValueError as e:  # an unknown method, from get_method
            raise ConfigError(str(e)) from None

    @classmethod
    def from_file(cls, path: str | Path, **overrides: Any) -> EvaluationConfig:
        """A config from a TOML / JSON file; ``overrides`` (flat names, None ignored) win."""
        values = read_config_file(path)
        values.update({k: v for k, v in overrides.items() if v is not None})
        try:
            return cls.from_flat(values)
        except ConfigError as e:
            raise InputError(path, str(e)) from None

    def merged(self, **flat: Any) -> EvaluationConfig:
        """This config with flat names overriding it (None values are ignored)."""
        base = self.model_dump(exclude_defaults=True)
        for section in SECTIONS:
            base.setdefault(section, {})
        values: dict[str, Any] = dict(base)
        values.update({k: v for k, v in flat.items() if v is not None})
        return self.from_flat(values)

    # -- what it builds -----------------------------------------------------------------------
    def text_model_spec(self) -> str | None:
        """The text model spec with ``base_url`` folded into an ``openai:NAME`` spec."""
        model = self.model
        if model and self.base_url and model.startswith("openai:") and "@" not in model:
            return f"{model}@{self.base_url}"
        return model

    def typed_options(self) -> BaseModel:
        """The method's options as its typed model, validated once, when the config was
        built (again only if ``options`` was changed since)."""
        from factgraph.methods.registry import get_method_spec

        made = self._typed_options
        if made is None or made[0] != self.options:
            typed = get_method_spec(self.method).options.model_validate(self.options)
            made = self._typed_options = (dict(self.options), typed)
        return made[1]

    def embeddings_needed(self) -> EmbeddingNeed:
        """Whether the run needs an embedding model, as its options say (a pruning lever of
        nli, an e2e judge kind that reads sentence similarity: ``JudgeKind.embeddings``)."""
        from factgraph.methods.registry import embeddings_needed

        return embeddings_needed(self.typed_options())

    def embed_model_spec(self) -> str | None:
        """The embedding spec; MiniLM when the options need embeddings and none is given."""
        if self.embed_model is None and self.embeddings_needed() != "none":
            return "minilm"
        return self.embed_model

    def backends(self) -> Backends:
        """Load the models (once; share the result across inputs). BackendSpecError on a bad
        spec or a missing engine."""
        from factgraph.backends.factory import concurrency_kwargs
        from factgraph.methods.run import Backends

        model = self.text_model_spec()
        text_kwargs = concurrency_kwargs(model, self.concurrency)  # the engine's own keyword
        # e2e's "auto" embeds only for a long-form answer: load MiniLM then, not before
        lazy = self.embed_model is None and self.embeddings_needed() == "lazy"
        return Backends.from_specs(model, self.nli_model, self.embed_model_spec(),
                                   cache=self.cache, text_kwargs=text_kwargs,
                                   lazy_embeddings=lazy)

    def evaluator(self, backends: Backends | None = None) -> Evaluator:
        """An Evaluator for this config, on ``backends`` or on models loaded from the specs."""
        from factgraph.methods.run import Evaluator
        from factgraph.prompts import prompt_set

        prompts = prompt_set(self.prompts_dir)  # checked before any model is loaded
        return Evaluator(self.method, backends=backends if backends is not None
                         else self.backends(), options=self.typed_options(),
                         params=self.generation.to_params(), limits=self.limits.to_limits(),
                         prompts=prompts)


def _unknown_option_inside(err: ValidationError) -> UnknownOptionError | None:
    for item in err.errors():
        ctx = item.get("ctx") or {}
        inner = ctx.get("error")
        if isinstance(inner, UnknownOptionError):
            return inner
    return None


def read_config_file(path: str | Path) -> dict[str, Any]:
    """The flat names and section tables of a TOML / JSON config file (InputError, one line,
    when it cannot be read)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
        data = tomllib.loads(text) if p.suffix == ".toml" else json.loads(text)
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except tomllib.TOMLDecodeError as e:
        raise InputError(path, f"invalid config: {e}") from None
    except json.JSONDecodeError as e:
        raise InputError(path, f"invalid config: {e.msg} (column {e.colno})",
                         line=e.lineno) from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(path, f"cannot read: {e}") from None
    if not isinstance(data, dict):
        raise InputError(path, "a config file holds one table/object")
    return {k.replace("-", "_"): v for k, v in data.items()}
