"""PIXAR pixel labels and edit magnitude (seed 003, Section "Label Construction", Fig. 2).

Shared: every benchmark's footprint gate counts changed pixels this way, and PIXAR's labels,
checks and scoring use the same definition.

Definition (seed 003; PIXAR's public dataset-construction script for the details the page omits):
a pixel is *changed* when the mean over the three RGB channels of the absolute difference
between the original and the edited image, both scaled to [0, 1], is **strictly greater** than
tau::

    d(p) = (|R_o - R_e| + |G_o - G_e| + |B_o - B_e|) / (3 * 255)        changed(p) <=> d(p) > tau

The strict ``>`` is PIXAR's public convention (their script compares ``mean_diff > threshold``).
Before differencing, the edited image is brought to the original's size: cubic interpolation when
either side grows, area interpolation otherwise (again PIXAR's script; OpenCV ``INTER_CUBIC`` /
``INTER_AREA``, results saturated to uint8).

Fast path: for uint8 images ``d(p) > tau`` is equivalent to ``S(p) > K`` with the integer channel
sum ``S = sum |o - e|`` and ``K = floor(765 * tau)`` (``S`` is an integer, so ``S > 765 tau`` iff
``S > floor(765 tau)``). tau is taken as the decimal the user wrote (``Fraction(str(tau))``), so an
exact tie ``S = 765 tau`` (possible only when 765 tau is an integer, e.g. tau = 0.2; never for
0.05 or 0.1) is *not* changed. When ``K < 255`` the saturating uint8 channel sum gives the same
comparison, which is what makes the path fast. :func:`label_reference` is the straightforward
float64 NumPy form of the definition; tests check the two agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import cv2
import numpy as np

DEFAULT_TAU = 0.05
"""tau of the paper's main results (seed 003, Table 2: 'a threshold of tau = 0.05')."""


def threshold_count(tau: float) -> int:
    """``K = floor(765 * tau)``: a uint8 pixel is changed iff its channel sum of |o - e| > K."""
    if not 0.0 <= tau < 1.0:
        raise ValueError(f"tau must lie in [0, 1), got {tau}")
    k = Fraction(str(tau)) * 765
    return int(k.numerator // k.denominator)


def match_size(edited: np.ndarray, height: int, width: int) -> np.ndarray:
    """``edited`` resized to ``height x width``: cubic when either side grows, else area."""
    h, w = edited.shape[:2]
    if (h, w) == (height, width):
        return edited
    interp = cv2.INTER_CUBIC if (h < height or w < width) else cv2.INTER_AREA
    return cv2.resize(edited, (width, height), interpolation=interp)


def _check_pair(original: np.ndarray, edited: np.ndarray) -> np.ndarray:
    for name, a in (("original", original), ("edited", edited)):
        if a.dtype != np.uint8 or a.ndim != 3 or a.shape[2] != 3:
            raise ValueError(f"{name} must be uint8 H x W x 3, got {a.dtype} {a.shape}")
    return match_size(edited, original.shape[0], original.shape[1])


def label_u8(original: np.ndarray, edited: np.ndarray, tau: float = DEFAULT_TAU) -> np.ndarray:
    """The label map as uint8 (255 changed, 0 unchanged): the fast integer path."""
    return labels_u8(original, edited, [tau])[0]


def labels_u8(original: np.ndarray, edited: np.ndarray, taus: Sequence[float]) -> list[np.ndarray]:
    """Label maps (uint8 255/0) for several tau values, sharing one difference image."""
    edited = _check_pair(original, edited)
    ks = [threshold_count(t) for t in taus]
    diff = cv2.absdiff(original, edited)
    out: list[np.ndarray] = []
    small: np.ndarray | None = None
    wide: np.ndarray | None = None
    for k in ks:
        if k < 255:
            if small is None:  # saturating channel sum: min(S, 255) > K  <=>  S > K when K < 255
                small = _saturating_channel_sum(diff)
            out.append(cv2.threshold(small, k, 255, cv2.THRESH_BINARY)[1])
        else:
            if wide is None:
                wide = np.add.reduce(diff, axis=2, dtype=np.uint16)
            out.append(np.where(wide > k, 255, 0).astype(np.uint8))
    return out


def _saturating_channel_sum(diff: np.ndarray) -> np.ndarray:
    """``min(c0 + c1 + c2, 255)`` per pixel of a uint8 H x W x 3 image: two saturating adds of
    its planes (adding a non-negative plane to a saturated sum leaves it saturated), a quarter of
    the time of a 1 x 3 matrix transform."""
    c0, c1, c2 = cv2.split(diff)
    cv2.add(c0, c1, dst=c0)
    cv2.add(c0, c2, dst=c0)
    return c0


def pixel_label(original: np.ndarray, edited: np.ndarray, tau: float = DEFAULT_TAU) -> np.ndarray:
    """The boolean label map ``d(p) > tau`` (see the module docstring)."""
    return label_u8(original, edited, tau) != 0


def mean_abs_diff(original: np.ndarray, edited: np.ndarray) -> np.ndarray:
    """``d(p)`` in [0, 1] as float64 (the difference map of seed 003 Fig. 5)."""
    edited = _check_pair(original, edited)
    o = original.astype(np.float64) / 255.0
    e = edited.astype(np.float64) / 255.0
    return np.asarray(np.abs(o - e).mean(axis=2))


def label_reference(original: np.ndarray, edited: np.ndarray, tau: float) -> np.ndarray:
    """The definition written plainly in float64 NumPy (the benchmark's and tests' reference)."""
    return np.asarray(mean_abs_diff(original, edited) > tau)


@dataclass(frozen=True)
class EditMagnitude:
    """How much an edit changed (seed 003, Fig. 15b 'Edit Magnitude Check').

    Shares are fractions in [0, 1]; the ``inside``/``outside``/``overlap`` fields are ``None``
    when no guiding mask is given (or when the region they divide by is empty).
    """

    changed: int
    """Number of changed pixels."""
    total: int
    """Number of pixels."""
    share: float
    """changed / total: the edit magnitude."""
    inside: float | None = None
    """Share of the mask's pixels that changed."""
    outside: float | None = None
    """Share of the pixels outside the mask that changed (off-mask changes, Fig. 1)."""
    overlap: float | None = None
    """Share of the changed pixels that lie inside the mask (the overlap ratio of Fig. 17)."""


def edit_magnitude(label: np.ndarray, mask: np.ndarray | None = None) -> EditMagnitude:
    """Edit magnitude of a label map, and inside vs outside a guiding mask when one is given."""
    lab = np.asarray(label) != 0
    changed, total = int(np.count_nonzero(lab)), int(lab.size)
    if mask is None:
        return EditMagnitude(changed, total, changed / total if total else 0.0)
    m = np.asarray(mask) != 0
    if m.shape != lab.shape:
        raise ValueError(f"mask shape {m.shape} differs from label shape {lab.shape}")
    n_in = int(np.count_nonzero(m))
    n_out = total - n_in
    c_in = int(np.count_nonzero(lab & m))
    c_out = changed - c_in
    return EditMagnitude(
        changed=changed,
        total=total,
        share=changed / total if total else 0.0,
        inside=c_in / n_in if n_in else None,
        outside=c_out / n_out if n_out else None,
        overlap=c_in / changed if changed else None,
    )


def parse_taus(values: Iterable[float]) -> list[float]:
    """Distinct tau values in the given order; each must lie in [0, 1)."""
    out: list[float] = []
    for t in values:
        threshold_count(t)  # validates
        if t not in out:
            out.append(t)
    return out or [DEFAULT_TAU]


def tau_dirname(tau: float) -> str:
    """The subfolder of one tau when several are written: ``tau0.05``."""
    return f"tau{tau:g}"
