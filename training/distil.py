"""Distillation: a network's names held to those another (its teacher) gives, both softened. The fine-tunes
(``training/finetune.py``), the readers (``training/reader.py``) and the classifier learning a camera's faults
(``training/classifier.py``, ``--distil``) keep what their start read with it."""

from __future__ import annotations

TEMPERATURE = 2.0  # both networks' logits divided by this before the softmax


def distillation(names: torch.Tensor, taught: torch.Tensor) -> torch.Tensor:  # noqa: F821
    """How far a network's names (logits, N x names) are from those another taught (logits), both softened at
    ``TEMPERATURE``: the KL divergence per crop, times the temperature squared (its gradients then weigh as the
    names' own loss does)."""
    import torch

    own = torch.log_softmax(names / TEMPERATURE, 1)
    return TEMPERATURE**2 * torch.nn.functional.kl_div(own, torch.softmax(taught / TEMPERATURE, 1),
                                                       reduction="batchmean")
