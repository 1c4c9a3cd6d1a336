"""Colour arithmetic for the palette tests: WCAG contrast, colour-blindness simulation, CIEDE2000.

Plain Python, so that checking the side colours needs no extra package.

- Contrast ratio and relative luminance as WCAG 2.2 defines them.
- Dichromacy simulated with the matrices of Machado, Oliveira and Fernandes
  (2009), "A Physiologically-based Model for Simulation of Color Vision
  Deficiency", at severity 1.0, applied to linear sRGB (as colorspacious and
  DaltonLens do).
- Colour difference CIEDE2000 (Sharma, Wu and Dalal 2005) between CIELAB
  colours under D65.
"""

from __future__ import annotations

import math

MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868),
                   (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968),
                     (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
}
# sRGB (linear) to XYZ, D65, and the D65 white point (IEC 61966-2-1).
TO_XYZ = ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))
WHITE = (0.95047, 1.0, 1.08883)


def parse_hex(colour: str) -> tuple[float, float, float]:
    """``#rrggbb`` as three channels in 0..1."""
    value = colour.lstrip("#")
    if len(value) != 6:
        raise ValueError(f"expected #rrggbb, got {colour!r}")
    return tuple(int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))


def to_linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def linear_rgb(colour: str) -> tuple[float, float, float]:
    return tuple(to_linear(c) for c in parse_hex(colour))


def luminance(colour: str) -> float:
    """WCAG relative luminance (its own 0.03928 threshold differs from sRGB's only below one step in 255)."""
    red, green, blue = linear_rgb(colour)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio, 1 to 21."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _apply(matrix, vector):
    return tuple(sum(m * v for m, v in zip(row, vector)) for row in matrix)


def simulate(colour: str, deficiency: str | None) -> tuple[float, float, float]:
    """Linear sRGB of ``colour`` as seen with ``deficiency`` (None: normal vision), clipped to the gamut."""
    rgb = linear_rgb(colour)
    if deficiency is not None:
        rgb = tuple(min(1.0, max(0.0, c)) for c in _apply(MACHADO[deficiency], rgb))
    return rgb


def lab(rgb_linear) -> tuple[float, float, float]:
    """CIELAB (D65) of a linear sRGB colour."""
    def f(t):
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = (f(v / w) for v, w in zip(_apply(TO_XYZ, rgb_linear), WHITE))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def ciede2000(lab1, lab2) -> float:
    """CIEDE2000 colour difference with kL = kC = kH = 1."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dh_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6)) - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh_big / s_h) ** 2
                     + r_t * (dc / s_c) * (dh_big / s_h))


def difference(first: str, second: str, deficiency: str | None = None) -> float:
    """CIEDE2000 between two colours as a person with ``deficiency`` sees them."""
    return ciede2000(lab(simulate(first, deficiency)), lab(simulate(second, deficiency)))
