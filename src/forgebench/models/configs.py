"""Model specs, models files and setting overrides as model configs: the one place they become
:class:`~forgebench.models.spec.ModelConfig` objects, for the API (``api.run``, ``api.dry_run``)
and the command line (``--model``, ``--models-file`` and the setting flags, through
:func:`forgebench.cli_support.model_configs`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from forgebench.models.modelsfile import load_models_file
from forgebench.models.spec import (
    ModelConfig,
    SpecError,
    check_setting,
    check_unique_names,
    parse_spec,
)

NO_MODEL = "no model: give --model SPEC (e.g. openai/gpt-5.6) or --models-file FILE"
"""The line when no model was given at all."""


def model_configs(
    models: Sequence[str | ModelConfig] = (),
    *,
    models_file: str | Path | None = None,
    overrides: Mapping[str, float | int | None] | None = None,
    where: Mapping[str, str] | None = None,
) -> list[ModelConfig]:
    """The models of a run as configs: the tables of ``models_file`` first, then ``models``
    (specs ``[ALIAS=]PROVIDER/MODEL[@BASE_URL]`` or configs), in order, with the ``overrides``
    that are given (values not None: ``concurrency``, ``rpm``, ``timeout_s``, ...) applied to
    every one of them.

    Each override is checked first by the models file's own rules
    (:data:`forgebench.models.spec.NUMBER_RULES`); its error line names ``where[name]`` (a flag
    such as ``--rpm``), else the setting. :class:`SpecError` (exit 2, one line) on a bad value, a
    bad spec or file, no model at all, and two models of one name.
    """
    given = {k: v for k, v in (overrides or {}).items() if v is not None}
    for name, value in given.items():
        check_setting(name, value, (where or {}).get(name, name))
    configs = load_models_file(models_file) if models_file is not None else []
    configs = [c.model_copy(update=given) if given else c for c in configs]
    for m in models:
        if isinstance(m, ModelConfig):
            configs.append(m.model_copy(update=given) if given else m)
        else:
            parse_spec(m)  # a bad spec: its own line, before the config's validation
            configs.append(ModelConfig.model_validate({"spec": m, **given}))
    if not configs:
        raise SpecError(NO_MODEL)
    check_unique_names(configs)
    return configs
