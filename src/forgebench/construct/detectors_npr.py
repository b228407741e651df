"""NPR (Tan et al., CVPR 2024, "Rethinking the up-sampling operations in CNN-based generative
network for generalizable deepfake detection") as an audit detector, from a checkpoint on disk.

Architecture as released (chuangchuangtan/NPR-DeepfakeDetection, ``networks/resnet.py``,
``resnet50(num_classes=1)``), written here from that description: the input's neighbouring-pixel
residual ``NPR = x - up(down(x))`` (nearest-neighbour down-sampling by 2 and back), scaled by
2/3, goes through a 3x3 stride-2 convolution (64 channels), batch norm, ReLU and 3x3 max pooling,
then the first two ResNet-50 bottleneck stages (3 and 4 blocks; 64 and 128 planes, expansion 4),
global average pooling and ``fc1`` (512 -> 1). The score is the sigmoid of the logit. The
checkpoint is the released state dict (``NPR.pth``; keys ``conv1``, ``bn1``, ``layer1``,
``layer2``, ``fc1``), loaded strictly. Pre-processing: ImageNet mean and standard deviation,
no resize and no crop (the release's single-image setting, ``no_resize`` / ``no_crop``); an odd
last row or column is dropped so the residual's halves align (the release's commented rule).
Spec: ``npr/CKPT.pth``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)


def build_npr(layers: tuple[int, int] = (3, 4)) -> Any:
    """The NPR network (random weights); ``layers`` blocks in the two stages."""
    import torch
    from torch import nn
    from torch.nn import functional as F

    class Bottleneck(nn.Module):
        expansion = 4

        def __init__(
            self, inplanes: int, planes: int, stride: int = 1, downsample: Any = None
        ) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(inplanes, planes, 1, bias=False)
            self.bn1 = nn.BatchNorm2d(planes)
            self.conv2 = nn.Conv2d(planes, planes, 3, stride=stride, padding=1, bias=False)
            self.bn2 = nn.BatchNorm2d(planes)
            self.conv3 = nn.Conv2d(planes, planes * 4, 1, bias=False)
            self.bn3 = nn.BatchNorm2d(planes * 4)
            self.relu = nn.ReLU(inplace=True)
            self.downsample = downsample

        def forward(self, x: Any) -> Any:
            idt = x if self.downsample is None else self.downsample(x)
            out = self.relu(self.bn1(self.conv1(x)))
            out = self.relu(self.bn2(self.conv2(out)))
            return self.relu(self.bn3(self.conv3(out)) + idt)

    class NPRNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Conv2d(3, 64, 3, stride=2, padding=1, bias=False)
            self.bn1 = nn.BatchNorm2d(64)
            self.relu = nn.ReLU(inplace=True)
            self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
            self.inplanes = 64
            self.layer1 = self._stage(64, layers[0], 1)
            self.layer2 = self._stage(128, layers[1], 2)
            self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
            self.fc1 = nn.Linear(512, 1)

        def _stage(self, planes: int, blocks: int, stride: int) -> Any:
            down = None
            if stride != 1 or self.inplanes != planes * 4:
                down = nn.Sequential(
                    nn.Conv2d(self.inplanes, planes * 4, 1, stride=stride, bias=False),
                    nn.BatchNorm2d(planes * 4),
                )
            mods = [Bottleneck(self.inplanes, planes, stride, down)]
            self.inplanes = planes * 4
            mods += [Bottleneck(self.inplanes, planes) for _ in range(1, blocks)]
            return nn.Sequential(*mods)

        @staticmethod
        def residual(x: Any) -> Any:
            half = F.interpolate(x, scale_factor=0.5, mode="nearest", recompute_scale_factor=True)
            return x - F.interpolate(
                half, scale_factor=2.0, mode="nearest", recompute_scale_factor=True
            )

        def forward(self, x: Any) -> Any:
            y = self.maxpool(self.relu(self.bn1(self.conv1(self.residual(x) * 2.0 / 3.0))))
            y = self.avgpool(self.layer2(self.layer1(y)))
            return self.fc1(torch.flatten(y, 1))

    return NPRNet()


def load_npr(path: str) -> Callable[[np.ndarray], float]:
    """The scoring function of a released NPR checkpoint; ``ValueError`` when it does not fit."""
    if not Path(path).is_file():
        raise ValueError(f"npr detector: no such checkpoint {path}")
    import torch

    state = safe_load(path, "npr detector")
    if isinstance(state, dict) and isinstance(state.get("model"), dict):
        state = state["model"]
    if not isinstance(state, dict):
        raise ValueError(f"npr detector: {path} holds no state dict")
    state = {k.removeprefix("module."): v for k, v in state.items()}
    blocks = tuple(
        len({k.split(".")[1] for k in state if k.startswith(f"{s}.")}) for s in ("layer1", "layer2")
    )
    net = build_npr((blocks[0] or 3, blocks[1] or 4))
    try:
        net.load_state_dict(state, strict=True)
    except RuntimeError as exc:
        first = str(exc).splitlines()[0]
        raise ValueError(f"npr detector: {path} does not fit the NPR network ({first})") from None
    net.eval()
    mean = torch.tensor(IMAGENET_MEAN).view(3, 1, 1)
    std = torch.tensor(IMAGENET_STD).view(3, 1, 1)

    def score(rgb: np.ndarray) -> float:
        h, w = rgb.shape[:2]
        img = np.ascontiguousarray(rgb[: h - h % 2, : w - w % 2, :3])
        x = torch.from_numpy(img.copy()).permute(2, 0, 1).float() / 255.0
        x = ((x - mean) / std).unsqueeze(0)
        with torch.no_grad():
            return float(torch.sigmoid(net(x))[0, 0])

    return score


def safe_load(path: str, what: str) -> Any:
    """``torch.load`` with ``weights_only=True`` (a pickle that would run code is refused); any
    refusal or a damaged file is a ``ValueError`` naming ``what`` and the file."""
    import torch

    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # UnpicklingError, a truncated zip, a foreign format
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(
            f"{what}: {path} cannot be loaded as plain weights ({first[:200]})"
        ) from None
