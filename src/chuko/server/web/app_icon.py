"""The club's icon, drawn as a PNG by code so no binary file needs keeping in step: three
cards fanned on the felt, inside the middle 80% that a phone's mask never cuts."""

from __future__ import annotations

import struct
import zlib
from functools import cache

FELT = (0x17, 0x4F, 0x35)
CARD = (0xFF, 0xFD, 0xF7)
EDGE = (0x1F, 0x24, 0x21)
PIP = (0xB0, 0x3A, 0x2E)

# Each card: its box in units of the icon's side (left, top, right, bottom).
CARDS = ((0.16, 0.24, 0.52, 0.80), (0.32, 0.18, 0.68, 0.74), (0.48, 0.12, 0.84, 0.68))
BORDER = 0.012  # the card's outline, of the side
RADIUS = 0.04  # its corners' rounding, of the side


@cache
def icon_png(size: int) -> bytes:
    """The icon, `size` pixels square, as PNG bytes."""
    rows = [bytes(_row(y, size)) for y in range(size)]
    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))


def _row(y: int, size: int) -> list[int]:
    out: list[int] = []
    for x in range(size):
        out.extend(_pixel((x + 0.5) / size, (y + 0.5) / size))
    return out


def _pixel(u: float, v: float) -> tuple[int, int, int]:
    colour = FELT
    for index, box in enumerate(CARDS):  # later cards lie on top
        inside = _inside(u, v, box, 0.0)
        if inside:
            colour = CARD if _inside(u, v, box, BORDER) else EDGE
            if index == len(CARDS) - 1 and _in_pip(u, v, box):
                colour = PIP
    return colour


def _inside(u: float, v: float, box: tuple[float, float, float, float], inset: float) -> bool:
    left, top, right, bottom = (box[0] + inset, box[1] + inset, box[2] - inset,
                                box[3] - inset)
    if not (left <= u <= right and top <= v <= bottom):
        return False
    radius = max(RADIUS - inset, 0.0)
    dx = max(left + radius - u, 0.0, u - (right - radius))
    dy = max(top + radius - v, 0.0, v - (bottom - radius))
    return dx * dx + dy * dy <= radius * radius


def _in_pip(u: float, v: float, box: tuple[float, float, float, float]) -> bool:
    """A round pip in the middle of the top card."""
    cu, cv = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return (u - cu) ** 2 + (v - cv) ** 2 <= 0.085 ** 2


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
