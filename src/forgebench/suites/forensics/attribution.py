"""Forgery attribution (§3.3 Protocol 2; Tables 4 and 13): which model class made this forgery?

Only binary-classification forgeries are re-asked (task ``BC``, type not ``REAL``), with the
paper's question "What is the forgery model that is applied to this {modality}?" and four
options: the item's true model class and three others drawn, seeded per item, from the 22 model
classes of Table 5 (a composite such as ``ED&GR`` is one class), in a seeded order. Option texts
are Table 5's full terms. Probe ``ATTR`` asks it plainly; ``ATTR_DESC`` (Table 13) puts a
description of each of the four offered classes before the question. The paper does not print
its descriptions; ours condense its Appendix 8 "Details of forgery models" to one line each, and
only the offered classes are described (the paper is silent on which).

The modality noun: ``RGB`` -> "RGB image", ``NIR`` -> "near-infrared image", ``VID`` -> "video",
``RGB&TXT`` -> "image-text pair" (our wording; the paper shows only the RGB case).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from forgebench.suites.forensics.contract import LETTERS, ForensicsItem
from forgebench.suites.forensics.ids import ATTR, ATTR_DESC
from forgebench.suites.forensics.taxonomy import FULL_TERMS, MODEL_CLASSES

ATTR_VERSION = "v1"
QUESTION = "What is the forgery model that is applied to this {noun}?"
NOUNS = {
    "RGB": "RGB image",
    "NIR": "near-infrared image",
    "VID": "video",
    "RGB&TXT": "image-text pair",
}

DESCRIPTIONS: dict[str, str] = {
    "GAN": "a generator trained adversarially against a discriminator (e.g. StyleGAN, ProGAN)",
    "DF": "iterative denoising from random noise (e.g. DDPM, Stable Diffusion)",
    "ED": "an encoder-decoder that separates identity from other attributes and alters or swaps faces (e.g. DeepFakes, FaceShifter)",
    "RNN": "recurrent networks that alter sequential data such as talking-head video",
    "PRO": "closed-source commercial generators (e.g. Midjourney)",
    "3D": "a 3D mask made to look like the real user, to fool face recognition",
    "PR": "a printed photograph of the face shown to the camera",
    "PC": "a printed photograph with cut-outs such as the eyes or mouth",
    "RP": "a recorded image or video of the face replayed on a screen",
    "TR": "transformer language models that rewrite text, e.g. its sentiment",
    "DC": "decoder-only networks used for style translation (e.g. CRN, IMLE)",
    "GR": "traditional computer-graphics manipulation (e.g. FaceSwap, Face2Face)",
    "RT": "retrieving existing data, e.g. a mismatched real caption",
    "WILD": "forgeries of unknown origin collected in the wild",
    "VAE": "variational auto-encoders",
    "AR": "auto-regressive generators that produce media token by token (e.g. CogVideo)",
    "ED&RT": "an encoder-decoder face forgery combined with a retrieved text",
    "ED&RNN&GR": "encoder-decoder, recurrent and graphics-based methods combined",
    "GAN&RT": "a GAN face forgery combined with a retrieved text",
    "ED&TR": "an encoder-decoder face forgery combined with transformer-rewritten text",
    "GAN&TR": "a GAN face forgery combined with transformer-rewritten text",
    "ED&GR": "encoder-decoder and graphics-based methods combined",
}
"""One line per model class, condensed from the paper's Appendix 8."""


@dataclass(frozen=True)
class AttributionQuestion:
    """An attribution question for one item."""

    item_id: str
    probe: str
    question: str
    options: dict[str, str]
    answer: str
    hint: str | None
    """The class descriptions (``ATTR_DESC``), shown as the prompt's hint line."""
    version: str


def eligible(item: ForensicsItem) -> bool:
    """Binary-classification forgeries (real media have no forgery model)."""
    return item.task == "BC" and item.type != "REAL" and item.model in MODEL_CLASSES


def _rng(seed: int, item_id: str) -> np.random.Generator:
    h = hashlib.sha256(f"attr\0{seed}\0{item_id}".encode()).digest()
    return np.random.default_rng(int.from_bytes(h[:8], "big"))


def attribution_question(
    item: ForensicsItem, *, seed: int = 0, describe: bool = False
) -> AttributionQuestion:
    """The ``ATTR`` (or, with ``describe``, ``ATTR_DESC``) question of an eligible item."""
    if not eligible(item):
        raise ValueError(f"item {item.id}: attribution needs a binary-classification forgery")
    rng = _rng(seed, item.id)
    others = [m for m in MODEL_CLASSES if m != item.model]
    picks = [others[int(i)] for i in rng.choice(len(others), size=3, replace=False)]
    classes = [item.model, *picks]
    order = rng.permutation(4)
    shown = [classes[int(i)] for i in order]
    options = {LETTERS[k]: FULL_TERMS[c] for k, c in enumerate(shown)}
    answer = LETTERS[shown.index(item.model)]
    hint = None
    if describe:
        hint = " ".join(f"{FULL_TERMS[c]}: {DESCRIPTIONS[c]}." for c in shown)
    probe = ATTR_DESC if describe else ATTR
    question = QUESTION.format(noun=NOUNS[item.modality])
    return AttributionQuestion(
        item.id, probe, question, options, answer, hint, f"{probe}/{ATTR_VERSION}"
    )
