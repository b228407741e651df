"""Which constrained-answer forms ``transformers serve`` accepts, ignores or rejects (issue 39).

Builds a tiny random text-only Llama (2 layers, hidden 32) with a word-level tokenizer and a
chat template on disk (nothing downloaded), starts ``transformers serve`` on loopback over it,
and sends one MCQ_CHOICE-shaped request per ``choice_form`` through forgebench's OpenAI-compatible
backend (the exact body a run sends: :func:`forgebench.models.choice.choice_fields`), plus a
free-form control. A random model answers noise, so a reply that is exactly an allowed letter
(or ``{"answer": letter}``) shows the server applied the constraint; free text shows it ignored
the field; an HTTP error shows it rejected it. Prints one line per form and a JSON summary.

    .venv/bin/python benchmarks/choice_transformers_serve.py [--keep DIR]

``transformers serve`` always loads with a ``device_map`` and so needs ``accelerate``, which the
dev environment does not install; put it on the path for this script only, e.g.
``pip install --no-deps --target /tmp/accel accelerate`` and ``PYTHONPATH=/tmp/accel``.

Measured 2026-12-06 (transformers 5.25.0, CPU, 2 shared cores; model built 12.9 s, server up
23.4 s, ~10 s a request): ``json_schema`` accepted and ignored (free text, the same reply as the
free-form control), ``structured_outputs`` and ``guided_choice`` rejected (HTTP 422 "Unexpected
fields in the request"); forgebench's first-request gate stops such a model with one line either
way. Too slow and too heavy (an extra package) for the test suite.

No tiny vision-language model can be built offline here (a VLM needs a processor and an image
tokenizer config of a real checkpoint), so the request is text-only; the constraint fields are
the same for an image request.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|> "
    "{% if m['content'] is string %}{{ m['content'] }}"
    "{% else %}{% for p in m['content'] %}{% if p['type'] == 'text' %}{{ p['text'] }}"
    "{% endif %}{% endfor %}{% endif %} <|end|> {% endfor %}"
    "{% if add_generation_prompt %}<|assistant|> {% endif %}"
)
PROMPT = (
    "Question: What is the authenticity of the image?\nOptions:\nA. AI-generated\n"
    "B. non AI-generated\nPlease select the correct answer from the options above. \n"
)
LETTERS = ("A", "B")


def build_model(root: Path) -> Path:
    """A tiny random Llama and its tokenizer, saved with ``save_pretrained``."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    words = sorted(
        set(PROMPT.replace("\n", " ").replace(".", " . ").split())
        | {"A", "B", "C", "D", "{", "}", '"', ":", "answer", "the", "is", "I", "think", ","}
    )
    special = ["<unk>", "<s>", "</s>", "<pad>", "<|user|>", "<|assistant|>", "<|end|>"]
    vocab = {w: i for i, w in enumerate(special + words)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="<unk>", bos_token="<s>", eos_token="</s>",
        pad_token="<pad>",
    )  # fmt: skip
    fast.chat_template = CHAT_TEMPLATE
    torch.manual_seed(0)
    config = LlamaConfig(
        vocab_size=len(vocab), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=512,
        bos_token_id=1, eos_token_id=2, pad_token_id=3,
    )  # fmt: skip
    model = LlamaForCausalLM(config)
    out = root / "tiny-llama"
    model.save_pretrained(out)
    fast.save_pretrained(out)
    return out


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(url: str, proc: subprocess.Popen[bytes], limit_s: float) -> float:
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit_s:
        if proc.poll() is not None:
            raise RuntimeError(f"transformers serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return time.monotonic() - t0
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"no /health within {limit_s:g} s")


async def ask(url: str, model_path: Path, form: str | None) -> dict[str, Any]:
    """One request through forgebench's backend; what came back."""
    from forgebench.models import choice
    from forgebench.models.base import ModelError, Request
    from forgebench.models.openai_compat import OpenAICompatModel
    from forgebench.models.spec import ModelConfig

    config = ModelConfig(
        spec=f"tiny=openai/{model_path}@{url}", max_tokens=12, timeout_s=60, choice_form=form
    )
    backend = OpenAICompatModel(config)
    request = Request(prompt=PROMPT, choice=LETTERS if form else ())
    t0 = time.monotonic()
    try:
        response = await backend._send(request)  # one request, no gate: we record every outcome
    except ModelError as exc:
        return {"form": form, "outcome": "rejected", "detail": str(exc)[:300]}
    finally:
        await backend.aclose()
    text = response.text
    if form is None:
        outcome = "free-form control"
    elif choice.conforms(text, LETTERS):
        outcome = "accepted (answer held to a letter)"
    else:
        outcome = "ignored (free text)"
    return {"form": form, "outcome": outcome, "reply": text[:120],
            "seconds": round(time.monotonic() - t0, 2)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", type=Path, help="Build the model here and keep it.")
    ap.add_argument("--start-limit-s", type=float, default=120.0)
    args = ap.parse_args(argv)
    root = args.keep or Path(tempfile.mkdtemp(prefix="choice-serve-"))
    root.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    model_path = build_model(root)
    built_s = time.monotonic() - t0
    port = _port()
    exe = Path(sys.executable).with_name("transformers")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    cmd = [str(exe), "serve", str(model_path), "--host", "127.0.0.1", "--port", str(port),
           "--device", "cpu", "--log-level", "warning"]  # fmt: skip
    log = (root / "serve.log").open("wb")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    results: list[dict[str, Any]] = []
    try:
        up_s = _wait(f"http://127.0.0.1:{port}/health", proc, args.start_limit_s)
        url = f"http://127.0.0.1:{port}/v1"
        for form in (None, "json_schema", "structured_outputs", "guided_choice"):
            results.append(asyncio.run(ask(url, model_path, form)))
            print(json.dumps(results[-1]), flush=True)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    import transformers

    summary = {
        "transformers": transformers.__version__,
        "model_built_s": round(built_s, 2),
        "server_up_s": round(up_s, 2),
        "results": results,
    }
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
