"""The tile classifier network, TileNet (PyTorch), used to train and export it and the readers; detection runs their
ONNX exports.

Input: (N, 3, S, S) float RGB in 0..1, S = 64 (``vision.crops.CROP``) or larger: the features are resampled to 4 x
4. Outputs: tile-name logits (N, 43) and up-direction logits (N, 4; the art's up points 0/90/180/270 degrees
clockwise from the image's up); ``look`` gives the features both heads read (N, 256), by which detection tells
tiles of one photo that look alike.
"""

from __future__ import annotations

import torch
from torch import nn


def _block(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class _Fit(nn.Module):
    """Features resized to ``side`` x ``side``: 64-pixel crops pass as they are; larger crops (any size ONNX can
    export, unlike adaptive pooling) are resampled, so weights trained on one crop size start another."""

    def __init__(self, side: int) -> None:
        super().__init__()
        self.side = side

    def forward(self, f: torch.Tensor) -> torch.Tensor:
        if f.shape[-1] == self.side and f.shape[-2] == self.side:
            return f
        return nn.functional.interpolate(f, size=(self.side, self.side), mode="bilinear", align_corners=False)


class TileNet(nn.Module):
    def __init__(self, n_classes: int = 43, n_orient: int = 4) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 24, 2), _block(24, 48, 1),  # 32
            _block(48, 48, 2), _block(48, 96, 1),  # 16
            _block(96, 96, 2), _block(96, 144, 1),  # 8
            _block(144, 160, 2),  # 4
            _Fit(4),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(160 * 16, 256)
        self.cls = nn.Linear(256, n_classes)
        self.orient = nn.Linear(256, n_orient)

    def look(self, x: torch.Tensor) -> torch.Tensor:
        """The features both heads read (N, 256)."""
        return torch.relu(self.fc(self.drop(self.features(x).flatten(1))))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.look(x)
        return self.cls(f), self.orient(f)


class CornerNet(nn.Module):
    """The face network (``vision/faces.py``): a tile's crop (N, 3, S, S) -> the four corners of its face (N, 8: x, y
    in the crop's units, the corner of least x + y first, then clockwise as shown), the logit that the face lies
    across (N, 1: its long side along the crop's width) and the logit that the tile stands (N, 1: its face upright,
    the tile on its edge)."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, 16, 2), _block(16, 32, 1),  # 32
            _block(32, 32, 2), _block(32, 48, 1),  # 16
            _block(48, 64, 2),  # 8
            _block(64, 96, 2),  # 4
            _Fit(4),
        )
        self.fc = nn.Linear(96 * 16, 64)
        self.corners = nn.Linear(64, 8)
        self.across = nn.Linear(64, 1)
        self.stands = nn.Linear(64, 1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        f = torch.relu(self.fc(self.features(x).flatten(1)))
        return self.corners(f), self.across(f), self.stands(f)


class RefineNet(nn.Module):
    """The face refiner (``vision/faces.py``): a face found, cut flat into a square with a margin around it (N, 3, S,
    S) -> the four corners of the true face in that square (N, 8: x, y in the crop's units, the corner of least x + y
    first, then clockwise as shown). ``CornerNet``'s trunk, with the corners' head alone."""

    def __init__(self) -> None:
        super().__init__()
        self.features = CornerNet().features
        self.fc = nn.Linear(96 * 16, 64)
        self.corners = nn.Linear(64, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.corners(torch.relu(self.fc(self.features(x).flatten(1))))
