"""UniversalFakeDetect (Ojha et al., CVPR 2023) as an audit detector, from checkpoints on disk.

The released model (WisconsinAIVision/UniversalFakeDetect, ``models/clip_models.py``) is a
frozen CLIP ViT-L/14 image encoder whose ``encode_image`` features (768-d) feed one linear layer
(``fc``: 768 -> 1; its state dict is the released ``fc_weights.pth``); the score is the sigmoid of
that logit. Images are normalised with CLIP's mean and standard deviation after a 224-pixel
centre crop (``validate.py``; smaller sides are zero-padded, as torchvision's ``CenterCrop``).

Here the encoder is a transformers ``CLIPVisionModelWithProjection`` folder (the ``image_embeds``
it returns are ``encode_image``'s features: the projected, layer-normed class token) and the head
a ``.pth`` file with ``weight`` [1, D] and ``bias`` [1]. Spec: ``ufd/CLIP_DIR@FC_FILE``. Nothing
is downloaded (``local_files_only``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from forgebench.construct.detectors_npr import safe_load

CLIP_MEAN = (0.48145466, 0.4578275, 0.40821073)
CLIP_STD = (0.26862954, 0.26130258, 0.27577711)
CROP = 224


def centre_crop(rgb: np.ndarray, size: int = CROP) -> np.ndarray:
    """``size`` x ``size`` centre crop, zero-padded where the image is smaller (torchvision's rule:
    top = round((H - size) / 2), left = round((W - size) / 2))."""
    h, w = rgb.shape[:2]
    if h < size or w < size:
        ph, pw = max(0, size - h), max(0, size - w)
        rgb = np.pad(rgb, ((ph // 2, (ph + 1) // 2), (pw // 2, (pw + 1) // 2), (0, 0)))
        h, w = rgb.shape[:2]
    top, left = round((h - size) / 2), round((w - size) / 2)
    return rgb[top : top + size, left : left + size]


def load_ufd(spec: str) -> Callable[[np.ndarray], float]:
    """The scoring function of ``CLIP_DIR@FC_FILE``; ``ValueError`` naming what is missing."""
    clip_dir, sep, fc_file = spec.partition("@")
    if not sep:
        raise ValueError(f"ufd detector {spec!r}: expected ufd/CLIP_DIR@FC_FILE")
    if not (Path(clip_dir) / "config.json").is_file():
        raise ValueError(
            f"ufd detector: {clip_dir} is not a saved CLIP vision model (no config.json)"
        )
    if not Path(fc_file).is_file():
        raise ValueError(f"ufd detector: no such head file {fc_file}")
    import torch
    from transformers import CLIPVisionModelWithProjection

    model: Any = CLIPVisionModelWithProjection.from_pretrained(
        clip_dir, local_files_only=True
    ).eval()

    head = safe_load(fc_file, "ufd detector")
    try:
        weight, bias = head["weight"].float(), head["bias"].float()
    except (KeyError, TypeError, AttributeError):
        raise ValueError(f"ufd detector: {fc_file} holds no 'weight' and 'bias' tensors") from None
    dim = int(model.config.projection_dim)
    if tuple(weight.shape) != (1, dim):
        raise ValueError(
            f"ufd detector: head weight is {tuple(weight.shape)}, the encoder gives {dim}-d features"
        )
    mean = torch.tensor(CLIP_MEAN).view(3, 1, 1)
    std = torch.tensor(CLIP_STD).view(3, 1, 1)

    def score(rgb: np.ndarray) -> float:
        crop = centre_crop(np.ascontiguousarray(rgb[..., :3]))
        x = torch.from_numpy(crop.copy()).permute(2, 0, 1).float() / 255.0
        x = ((x - mean) / std).unsqueeze(0)
        with torch.no_grad():
            feats = model(pixel_values=x).image_embeds
            logit = feats @ weight.T + bias
        return float(torch.sigmoid(logit)[0, 0])

    return score
