"""The five perspectives of seed 002 (Forensics-Bench) and the release's category tokens.

Every item carries a *type code* ``SEMANTIC-MODALITY-TASK-TYPE-MODEL`` in the paper's
abbreviations (Table 5), e.g. ``HS-RGB-BC-ES-DF``; a composite value keeps its ``&``
(``FE&FT``, ``ED&GR``). Real media are ``...-REAL-REAL`` as in Tables 15-26.

The release TSV packs the five perspectives into its ``category`` column as
``semantic_type_model_modality_task`` (the positions ``wrap_load_data`` reads in the release's
``summary_scores.py``, Forensics-Bench/Forensics-Bench). The token spellings below are exactly
the keys of that file's ``ABBREVIATIONS_MAP`` (case matters: ``3D``, ``RNN``,
``encoderdecoderRNNtraditional``); each is mapped to the Table 5 abbreviation of the full term
the release gives it. The release's map is one flat dictionary; here each position has its own
vocabulary, so a token in the wrong position is an error. Real media: the release writes ``real``
in the type position and ``none`` in the model position; both mean "real media without being
forged" there, so either token is accepted in either of those two positions (-> ``REAL``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from forgebench.errors import UserError

Perspective = Literal["semantic", "modality", "task", "type", "model"]
PERSPECTIVES: tuple[Perspective, ...] = ("semantic", "modality", "task", "type", "model")
"""Type-code order (and Table 2's column order)."""

CATEGORY_ORDER: tuple[Perspective, ...] = ("semantic", "type", "model", "modality", "task")
"""Position of each perspective in the release's ``category`` string (split on ``_``)."""

_REAL_TOKENS = {"real": "REAL", "none": "REAL"}

TOKENS: dict[Perspective, dict[str, str]] = {
    "semantic": {"human": "HS", "nonhuman": "GS"},
    "modality": {
        "visibleimage": "RGB",
        "nirimage": "NIR",
        "visibleimagetext": "RGB&TXT",
        "video": "VID",
    },
    "task": {"category": "BC", "seg": "SLS", "det": "SLD", "temporal": "TL"},
    "type": {
        "entiresynthesis": "ES",
        "faceantispoofing": "SPF",
        "faceedit": "FE",
        "faceeditfacetransferoneface": "FE&FT",
        "faceedittextattributemanipulation": "FE&TAM",
        "faceedittextswap": "FE&TS",
        "facereenactment": "FR",
        "faceswapmultiplefaces": "FSM",
        "faceswaponeface": "FSS",
        "faceswaponefacefaceedit": "FSS&FE",
        "faceswaponefacetextattributemanipulation": "FSS&TAM",
        "faceswaponefacetextswap": "FSS&TS",
        "facetransferoneface": "FT",
        "styletransfer": "ST",
        "textattributemanipulation": "TAM",
        "textswap": "TS",
        "generalcopymove": "CM",
        "generalremove": "RM",
        "generalsplicing": "SPL",
        "imageenhancement": "IE",
        "outofcontext": "OOC",
        **_REAL_TOKENS,
    },
    "model": {
        "diffusion": "DF",
        "gan": "GAN",
        "proprietary": "PRO",
        "3D": "3D",
        "papercut": "PC",
        "print": "PR",
        "replay": "RP",
        "encoderdecoder": "ED",
        "encoderdecodertraditional": "ED&GR",
        "encoderdecodertransformer": "ED&TR",
        "gantransformer": "GAN&TR",
        "encoderdecoderretrieval": "ED&RT",
        "ganretrieval": "GAN&RT",
        "RNN": "RNN",
        "traditional": "GR",
        "encoderdecoderRNNtraditional": "ED&RNN&GR",
        "unknown": "WILD",
        "vae": "VAE",
        "transformer": "TR",
        "retrieval": "RT",
        "autoregressive": "AR",
        "decoder": "DC",
        **_REAL_TOKENS,
    },
}

FULL_TERMS: dict[str, str] = {
    "HS": "Human Subject",
    "GS": "General Subject",
    "RGB": "RGB Images",
    "NIR": "Near-infrared Images",
    "VID": "Videos",
    "RGB&TXT": "RGB Images and Texts",
    "BC": "Forgery Binary Classification",
    "SLD": "Forgery Spatial Localization (Detection)",
    "SLS": "Forgery Spatial Localization (Segmentation)",
    "TL": "Forgery Temporal Localization",
    "ES": "Entire Synthesis",
    "SPF": "Spoofing",
    "FE": "Face Editing",
    "FE&FT": "Face Editing & Face Transfer",
    "FE&TAM": "Face Editing & Text Attribute Manipulation",
    "FE&TS": "Face Editing & Text Swap",
    "FR": "Face Reenactment",
    "FSM": "Face Swap (Multiple Faces)",
    "FSS": "Face Swap (Single Face)",
    "FSS&FE": "Face Swap (Single Face) & Face Editing",
    "FSS&TAM": "Face Swap (Single Face) & Text Attribute Manipulation",
    "FSS&TS": "Face Swap (Single Face) & Text Swap",
    "FT": "Face Transfer",
    "CM": "Copy-Move",
    "RM": "Removal",
    "SPL": "Splicing",
    "IE": "Image Enhancement",
    "REAL": "Real media without being forged",
    "OOC": "Out-of-Context",
    "ST": "Style Translation",
    "TAM": "Text Attribute Manipulation",
    "TS": "Text Swap",
    "3D": "3D masks",
    "RNN": "Recurrent Neural Networks",
    "TR": "Transformer",
    "DC": "Decoder",
    "DF": "Diffusion models",
    "ED": "Encoder-Decoder",
    "ED&RNN&GR": "Encoder-Decoder&Recurrent Neural Networks&Graphics-based methods",
    "ED&TR": "Encoder-Decoder&Transformer",
    "ED&RT": "Encoder-Decoder&Retrieval-based methods",
    "ED&GR": "Encoder-Decoder&Graphics-based methods",
    "GAN": "Generative Adversarial Networks",
    "GAN&TR": "Generative Adversarial Networks&Transformer",
    "GAN&RT": "Generative Adversarial Networks&Retrieval-based methods",
    "PC": "Paper-Cut",
    "PR": "Print",
    "PRO": "Proprietary",
    "RP": "Replay",
    "RT": "Retrieval-based methods",
    "AR": "Auto-regressive models",
    "GR": "Graphics-based methods",
    "WILD": "Unknown (in the wild)",
    "VAE": "Variational Auto-Encoders",
}
"""Table 5: abbreviation -> full term."""

VALUES: dict[Perspective, tuple[str, ...]] = {
    p: tuple(dict.fromkeys(TOKENS[p].values())) for p in PERSPECTIVES
}
"""The abbreviations each perspective admits."""

MODEL_CLASSES: tuple[str, ...] = tuple(v for v in VALUES["model"] if v != "REAL")
"""The 22 forgery-model classes (§3.3, Protocol 2 samples wrong options from these)."""

_TOKEN_OF: dict[Perspective, dict[str, str]] = {
    p: {v: k for k, v in reversed(list(TOKENS[p].items()))} for p in PERSPECTIVES
}
_TOKEN_OF["type"]["REAL"] = "real"
_TOKEN_OF["model"]["REAL"] = "none"


class TaxonomyError(UserError, ValueError):
    """A category string or type code that does not fit the taxonomy (the message names why)."""


@dataclass(frozen=True)
class TypeCode:
    """One forgery detection type: the five perspective values in Table 5's abbreviations."""

    semantic: str
    modality: str
    task: str
    type: str
    model: str

    def __str__(self) -> str:
        return "-".join(self.value(p) for p in PERSPECTIVES)

    def value(self, perspective: Perspective) -> str:
        """The abbreviation of one perspective."""
        return str(getattr(self, perspective))

    @property
    def is_real(self) -> bool:
        """Real media (type ``REAL``)."""
        return self.type == "REAL"

    def category(self) -> str:
        """The release's ``category`` string for this type (real media: ``real`` / ``none``)."""
        return "_".join(_TOKEN_OF[p][self.value(p)] for p in CATEGORY_ORDER)


def parse_category(category: str) -> TypeCode:
    """The type code of a release ``category`` (``semantic_type_model_modality_task``).

    Raises :class:`TaxonomyError` naming the unknown token and its perspective.
    """
    parts = category.strip().split("_")
    if len(parts) != len(CATEGORY_ORDER):
        raise TaxonomyError(
            f"{category!r} has {len(parts)} '_'-separated tokens, expected 5 "
            "(semantic_type_model_modality_task)"
        )
    values: dict[str, str] = {}
    for perspective, token in zip(CATEGORY_ORDER, parts, strict=True):
        abbrev = TOKENS[perspective].get(token)
        if abbrev is None:
            raise TaxonomyError(f"unknown forgery {perspective} token {token!r} in {category!r}")
        values[perspective] = abbrev
    return TypeCode(**values)


def parse_type_code(code: str) -> TypeCode:
    """A ``SEMANTIC-MODALITY-TASK-TYPE-MODEL`` string as a :class:`TypeCode` (checked)."""
    parts = code.strip().split("-")
    if len(parts) != len(PERSPECTIVES):
        raise TaxonomyError(f"{code!r} is not SEMANTIC-MODALITY-TASK-TYPE-MODEL")
    for perspective, value in zip(PERSPECTIVES, parts, strict=True):
        if value not in VALUES[perspective]:
            raise TaxonomyError(f"{value!r} is not a forgery {perspective} of Table 5")
    return TypeCode(*parts)
