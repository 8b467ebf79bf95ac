"""The detector's class names, written once for ``vision`` and the training package: the contract's tile
notation (``1m``..``9m``, ``1p``..``9p``, ``1s``..``9s``, ``1z``..``7z``, ``1f``..``8f``) and ``back``.

The order is the class order of every network and dataset (``NAMES[k]`` is class ``k``).

>>> NAMES[0], NAMES[33], NAMES[34], NAMES[-1], len(NAMES)
('1m', '7z', '1f', 'back', 43)
"""

from __future__ import annotations

SUITS = "mps"
FACE_NAMES: tuple[str, ...] = tuple([f"{n}{s}" for s in SUITS for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)])
FLOWER_NAMES: tuple[str, ...] = tuple(f"{n}f" for n in range(1, 9))
BACK = "back"
WHITE = "5z"  # the blank white dragon: a plain white face, a white-backed set's backs' twin
NAMES: tuple[str, ...] = (*FACE_NAMES, *FLOWER_NAMES, BACK)
CLASS_ID: dict[str, int] = {n: i for i, n in enumerate(NAMES)}
