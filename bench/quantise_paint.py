"""The quantiser benchmark's painted pictures, the same on every machine (seeded `Random`):
gradients, shaded spheres, landscapes and flat shapes, SIDE pixels square.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Callable, Sequence
from random import Random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

RGB = tuple[int, int, int]

SIDE = 240
"""Pixels a side of a painted picture."""


def any_colour(rng: Random) -> RGB:
    """A colour of random hue, fairly saturated, neither near black nor near white."""
    red, green, blue = colorsys.hls_to_rgb(rng.random(), rng.uniform(0.25, 0.75), rng.uniform(0.45, 1.0))
    return round(255 * red), round(255 * green), round(255 * blue)


def mix(a: Sequence[float], b: Sequence[float], t: float) -> RGB:
    r, g, bl = (x + (y - x) * t for x, y in zip(a, b, strict=True))
    return round(r), round(g), round(bl)


def gradient(rng: Random) -> PILImage:
    """Three colours blended one into the next along a random direction, the way across bent by
    a slow wave: nothing but continuous tone, as in a sky or a shaded surface."""
    from PIL import Image

    stops = [any_colour(rng) for _ in range(3)]
    angle, wave, phase = rng.uniform(0, math.tau), rng.uniform(0.05, 0.15), rng.uniform(0, math.tau)
    dx, dy = math.cos(angle), math.sin(angle)
    reach = SIDE * (abs(dx) + abs(dy)) / 2
    pixels = []
    for y in range(SIDE):
        for x in range(SIDE):
            along = ((x - SIDE / 2) * dx + (y - SIDE / 2) * dy) / reach  # -1..1
            t = min(1.0, max(0.0, (along + 1) / 2 + wave * math.sin(phase + 6 * (x * dy - y * dx) / SIDE)))
            pixels.append(mix(stops[0], stops[1], 2 * t) if t < 0.5 else mix(stops[1], stops[2], 2 * t - 1))
    image = Image.new("RGB", (SIDE, SIDE))
    image.putdata(pixels)
    return image


def spheres(rng: Random) -> PILImage:
    """Three to six shaded balls, lit from the upper left, on a transparent ground (read as white),
    as in an icon: each colour from its shadow to a white highlight, edges smooth."""
    from PIL import Image

    big = 2 * SIDE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    light = (-0.5, -0.6, 0.62)
    for _ in range(rng.randint(3, 6)):
        base = any_colour(rng)
        radius = rng.uniform(0.12, 0.3) * big
        cx, cy = rng.uniform(radius, big - radius), rng.uniform(radius, big - radius)
        for y in range(int(cy - radius), int(cy + radius) + 1):
            for x in range(int(cx - radius), int(cx + radius) + 1):
                nx, ny = (x + 0.5 - cx) / radius, (y + 0.5 - cy) / radius
                if nx * nx + ny * ny >= 1:
                    continue
                nz = math.sqrt(1 - nx * nx - ny * ny)
                lit = max(0.0, nx * light[0] + ny * light[1] + nz * light[2])
                shade = mix((0, 0, 0), base, 0.3 + 0.7 * lit)
                image.putpixel((x, y), (*mix(shade, (255, 255, 255), lit**12), 255))
    return image.resize((SIDE, SIDE), Image.Resampling.BOX)


def landscape(rng: Random) -> PILImage:
    """A sky fading to the horizon, a sun with a glow, three ranges of hills (each darker and
    nearer, shaded down its slope) and grain of +-8 levels a channel: a photograph, roughly."""
    from PIL import Image

    zenith, horizon = mix(any_colour(rng), (40, 60, 140), 0.5), mix(any_colour(rng), (255, 230, 200), 0.6)
    sun = (rng.uniform(0.15, 0.85) * SIDE, rng.uniform(0.1, 0.35) * SIDE, rng.uniform(0.04, 0.08) * SIDE)
    hills = []
    for layer in range(3):
        waves = [(rng.uniform(1, 4), rng.uniform(0, math.tau), rng.uniform(0.02, 0.06)) for _ in range(3)]
        colour = mix(any_colour(rng), (20, 40, 20), 0.25 + 0.2 * layer)
        hills.append((0.45 + 0.15 * layer, waves, colour))
    pixels = []
    for y in range(SIDE):
        sky = mix(zenith, horizon, y / SIDE)
        for x in range(SIDE):
            colour = sky
            glow = math.dist((x, y), sun[:2]) / sun[2]
            if glow < 1:
                colour = (255, 244, 200)
            elif glow < 4:
                colour = mix(colour, (255, 236, 180), ((4 - glow) / 3) ** 2)
            for top, waves, hill in hills:
                ridge = SIDE * (top + sum(a * math.sin(f * math.tau * x / SIDE + p) for f, p, a in waves))
                if y >= ridge:
                    colour = mix(hill, (0, 0, 0), min(0.5, (y - ridge) / SIDE))
            pixels.append(tuple(min(255, max(0, v + rng.randint(-8, 8))) for v in colour))
    image = Image.new("RGB", (SIDE, SIDE))
    image.putdata(pixels)
    return image


def shapes(rng: Random) -> PILImage:
    """Six to twelve flat shapes (ellipses, rectangles, triangles) in three to five colours on
    white, drawn four times larger and shrunk, so that their edges are smooth: a flat illustration."""
    from PIL import Image, ImageDraw

    big = 4 * SIDE
    image = Image.new("RGB", (big, big), "white")
    pen = ImageDraw.Draw(image)
    inks = [any_colour(rng) for _ in range(rng.randint(3, 5))]
    for _ in range(rng.randint(6, 12)):
        ink = rng.choice(inks)
        x, y = rng.uniform(0, big), rng.uniform(0, big)
        w, h = rng.uniform(0.05, 0.3) * big, rng.uniform(0.05, 0.3) * big
        kind = rng.choice(("ellipse", "rectangle", "triangle"))
        if kind == "ellipse":
            pen.ellipse([x - w, y - h, x + w, y + h], fill=ink)
        elif kind == "rectangle":
            pen.rectangle([x - w, y - h, x + w, y + h], fill=ink)
        else:
            pen.polygon([(x + rng.uniform(-w, w), y + rng.uniform(-h, h)) for _ in range(3)], fill=ink)
    return image.resize((SIDE, SIDE), Image.Resampling.LANCZOS)


PAINTERS: dict[str, Callable[[Random], PILImage]] = {
    "gradients": gradient,
    "spheres": spheres,
    "landscapes": landscape,
    "shapes": shapes,
}
