"""``hf/PATH_OR_ID``: a local transformers vision-language model (``hf`` extra).

The weights and processor are loaded once per process (``AutoProcessor`` and
``AutoModelForImageTextToText``), in a worker thread on the first request, and shared by every
model object naming the same source. Generation runs in a worker thread too, one request at a
time per loaded model (batching is not done: answers stay independent of what else is in flight).

Placement: CUDA when ``torch.cuda.is_available()`` (``device_map="auto"`` when ``accelerate`` is
installed, else the first GPU; weights in their stored dtype), else CPU in float32.

Request: one user message with the images (first, one ``image`` entry each, in the question's
order) and the prompt, rendered by the processor's chat template (``add_generation_prompt``); ``reasoning`` options are passed to the template (for
example ``{enable_thinking = false}`` for Qwen3-style templates). Generation: greedy when
``temperature`` is 0 or None, else sampling at that temperature (seeded by ``seed`` when given);
``max_new_tokens`` from ``max_tokens`` (1024 when None); ``extra_body`` fields become
``generate`` keyword arguments (``top_p``, ``repetition_penalty``, ...). ``finish_reason`` is
``stop`` when the model emitted an end-of-sequence token, ``length`` when it hit the cap.

A model that cannot be loaded or run (missing folder, no chat template, out of memory) gives a
non-retryable :class:`ModelError`: trying the same input again would fail the same way.
"""

from __future__ import annotations

import asyncio
import importlib.util
import io
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgebench.models import _errors, _sdk
from forgebench.models.base import Model, ModelError, Request, Response, Usage, image_limit
from forgebench.models.spec import ModelConfig, SpecError

DEFAULT_MAX_NEW_TOKENS = 1024
"""``max_new_tokens`` when the config sets no ``max_tokens``."""


@dataclass
class Loaded:
    """A loaded model and processor, shared by every model object naming the same source."""

    model: Any
    processor: Any
    device: str
    lock: threading.Lock
    """Held while generating: one generation at a time per loaded model."""


_LOADED: dict[str, Loaded] = {}
_LOAD_LOCK = threading.Lock()


def load(source: str) -> Loaded:
    """Load ``source`` (a folder or a hub id) once per process; blocking, call it in a thread."""
    with _LOAD_LOCK:
        if source in _LOADED:
            return _LOADED[source]
        import torch
        from transformers import AutoModelForImageTextToText, AutoProcessor
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # the runner draws its own progress
        cuda = torch.cuda.is_available()
        kwargs: dict[str, Any] = {"dtype": "auto" if cuda else torch.float32}
        if cuda and importlib.util.find_spec("accelerate") is not None:
            kwargs["device_map"] = "auto"
        try:
            processor = AutoProcessor.from_pretrained(source)
            model: Any = AutoModelForImageTextToText.from_pretrained(source, **kwargs)
        except (OSError, ValueError, KeyError) as exc:
            raise ModelError(
                f"cannot load hf model {source}: {_errors.one_line(exc)}", retryable=False
            ) from exc
        if "device_map" not in kwargs:
            model.to(torch.device("cuda" if cuda else "cpu"))
        model.eval()
        loaded = Loaded(model, processor, str(model.device), threading.Lock())
        _LOADED[source] = loaded
        return loaded


def generation_kwargs(params: dict[str, Any]) -> dict[str, Any]:
    """``generate`` keyword arguments for the merged request parameters."""
    max_tokens = params.get("max_tokens")
    out: dict[str, Any] = {
        "max_new_tokens": int(max_tokens) if max_tokens is not None else DEFAULT_MAX_NEW_TOKENS
    }
    temperature = params.get("temperature")
    if temperature:
        out.update(do_sample=True, temperature=float(temperature))
    else:
        out.update(do_sample=False, temperature=None, top_p=None, top_k=None)
    out.update(params.get("extra_body") or {})
    return out


def _eos_ids(model: Any, tokenizer: Any) -> set[int]:
    eos = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    if eos is None:
        eos = getattr(tokenizer, "eos_token_id", None)
    if eos is None:
        return set()
    return {int(e) for e in eos} if isinstance(eos, (list, tuple)) else {int(eos)}


def _stop_when(cancel: threading.Event) -> Any:
    """A stopping criterion that ends generation once ``cancel`` is set (a cancelled request)."""
    import torch
    from transformers import StoppingCriteria

    class _Cancelled(StoppingCriteria):
        def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
            done = cancel.is_set()
            return torch.full(
                (input_ids.shape[0],), done, dtype=torch.bool, device=input_ids.device
            )

    return _Cancelled()


def run_generation(
    loaded: Loaded, request: Request, params: dict[str, Any], cancel: threading.Event | None = None
) -> Response:
    """Render, tokenize and generate one answer; blocking, call it in a thread. Setting
    ``cancel`` (the awaiting request was cancelled, e.g. timed out) stops generation at the next
    token, so an abandoned request does not hold the model."""
    import torch
    from PIL import Image
    from transformers import StoppingCriteriaList

    processor = loaded.processor
    tokenizer = getattr(processor, "tokenizer", processor)
    content: list[dict[str, Any]] = []
    images: list[Any] | None = None
    for data in _sdk.all_image_bytes(request):
        try:
            images = [*(images or []), Image.open(io.BytesIO(data)).convert("RGB")]
        except OSError as exc:
            raise ModelError(
                f"cannot decode image: {_errors.one_line(exc)}", retryable=False
            ) from exc
        content.append({"type": "image"})
    content.append({"type": "text", "text": request.prompt})
    messages = [{"role": "user", "content": content}]
    gen = generation_kwargs(params)
    try:
        text = processor.apply_chat_template(
            messages, add_generation_prompt=True, tokenize=False, **(params.get("reasoning") or {})
        )
        bos = getattr(tokenizer, "bos_token", None)
        inputs = processor(
            text=text,
            images=images,
            return_tensors="pt",
            add_special_tokens=not (bos and text.startswith(bos)),
        ).to(loaded.model.device)
        n_in = int(inputs["input_ids"].shape[1])
        with loaded.lock, torch.inference_mode():
            if gen.get("do_sample") and params.get("seed") is not None:
                torch.manual_seed(int(params["seed"]))
            stop = StoppingCriteriaList([_stop_when(cancel)]) if cancel is not None else None
            out = loaded.model.generate(**inputs, **gen, stopping_criteria=stop)
    except (RuntimeError, ValueError, TypeError) as exc:
        raise ModelError(f"hf generation failed: {_errors.one_line(exc)}", retryable=False) from exc
    new = out[0, n_in:].tolist()
    eos = _eos_ids(loaded.model, tokenizer)
    cut = next((i for i, t in enumerate(new) if t in eos), None)
    answer_ids = new if cut is None else new[: cut + 1]
    finish = "stop" if cut is not None or len(new) < gen["max_new_tokens"] else "length"
    import transformers

    return Response(
        text=tokenizer.decode(answer_ids, skip_special_tokens=True).strip(),
        raw={
            "backend": "transformers",
            "transformers_version": transformers.__version__,
            "device": loaded.device,
            "generate_kwargs": {k: v for k, v in gen.items() if v is not None},
            "prompt_text": text,
        },
        usage=Usage(input_tokens=n_in, output_tokens=len(answer_ids)),
        finish_reason=finish,
    )


class HFLocalModel:
    """A transformers vision-language model running in this process."""

    def __init__(self, config: ModelConfig, source: str) -> None:
        self.name = config.name
        self._config = config
        self._source = source
        self._queue: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None

    def _lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._queue is None or self._queue[0] is not loop:
            self._queue = (loop, asyncio.Lock())
        return self._queue[1]

    def describe_request(self, request: Request) -> dict[str, Any]:
        """The exact request, with each image as ``variant:<id>`` instead of its pixels."""
        params = _sdk.merged_params(self._config, request)
        content: list[dict[str, Any]] = [
            {"type": "image", "image": label} for label in _sdk.variant_labels(request)
        ]
        content.append({"type": "text", "text": request.prompt})
        return {
            "model": self._source,
            "messages": [{"role": "user", "content": content}],
            "chat_template_kwargs": dict(params.get("reasoning") or {}),
            "generate_kwargs": {
                k: v for k, v in generation_kwargs(params).items() if v is not None
            },
        }

    async def generate(self, request: Request) -> Response:
        """Generate one answer (the first call loads the weights)."""
        image_limit(self.name, request, self._config.max_images, " (max_images)")
        params = _sdk.merged_params(self._config, request)
        cancel = threading.Event()
        async with self._lock():
            loaded = await asyncio.to_thread(load, self._source)
            try:
                return await asyncio.to_thread(run_generation, loaded, request, params, cancel)
            except asyncio.CancelledError:
                cancel.set()
                raise

    async def aclose(self) -> None:
        """Nothing to close (the weights stay loaded for the process)."""


def _installed(name: str) -> bool:
    if name in sys.modules:
        return sys.modules[name] is not None
    return importlib.util.find_spec(name) is not None


def _looks_local(source: str) -> bool:
    return source.startswith(("/", "./", "../", "~")) or source.count("/") != 1


def create(config: ModelConfig) -> Model:
    """The model an ``hf/PATH_OR_ID`` spec names (weights load on first use)."""
    if not (_installed("torch") and _installed("transformers")):
        raise _sdk.missing_extra(config, "hf")
    source = config.parsed.model
    path = Path(source).expanduser()
    if path.exists():
        if not (path / "config.json").is_file():
            raise SpecError(f"hf model folder {path} has no config.json")
        source = str(path.resolve())
    elif _looks_local(source):
        raise SpecError(f"hf model folder {path} not found")
    return HFLocalModel(config, source)
