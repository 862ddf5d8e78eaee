"""The tensors the adapters hand to learners: the observation tensor (`TensorLayout`, kept
in play/features.py, where the learned estimate reads it too) and the moves a seat saw
(`HistoryLayout`), which the information-state tensor adds (module spiel_adapter)."""

from __future__ import annotations

import numpy as np

from interpreter.play.features import TensorLayout

__all__ = ["HistoryLayout", "TensorLayout"]


class HistoryLayout:
    """The moves a seat saw, for the information-state tensor: the last `length` moves
    (draws not counted), oldest first, each as one-hot of the seat that moved, a flag for
    a secret move of another seat (its action is not shown), and the action number in
    binary (`bits` digits, lowest first). A game no longer than `length` moves is recalled
    whole: the tensor is then as fine as the information state for what was chosen."""

    def __init__(self, seats: tuple, actions: int, length: int):
        self.seats = seats
        self.length = length
        self.bits = max(1, int(actions - 1).bit_length())
        self.width = len(seats) + 1 + self.bits
        self.size = self.length * self.width

    def encode(self, moves: tuple, viewer: str, out: np.ndarray, at: int) -> None:
        """Write `moves` ((seat, action, secret), oldest first) as `viewer` saw them."""
        recent = moves[-self.length :] if self.length else ()
        n = len(self.seats)
        index = {s: i for i, s in enumerate(self.seats)}
        for j, (seat, action, secret) in enumerate(recent):
            base = at + j * self.width
            out[base + index[seat]] = 1.0
            if secret and seat != viewer:
                out[base + n] = 1.0
                continue
            for b in range(self.bits):
                if action >> b & 1:
                    out[base + n + 1 + b] = 1.0
