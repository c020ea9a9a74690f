"""Benchmark of the dice versions (wargame/dice.py): what version 2 (pure-Python PCG64,
specified) costs against version 1 (``random.Random.randint``), per operation, in
microseconds (best of ``--repeat`` timings of ``--number`` calls each):

* ``d6``: one ``Dice.d6()``;
* ``copy``: ``Dice.copy()`` of dice that drew 200 faces (a search node's or clone's cost);
* ``snapshot``: ``getstate()`` + ``setstate()`` (the campaign engine's guard around ``apply``);
* ``from_dict``: ``Dice.from_dict`` of 200 draws (a Memoir state JSON's dice);
* ``shuffle``: ``Dice.shuffle`` of the 40 Memoir command cards.

The last line printed is one JSON object with every figure.

    .venv/bin/python bench/dice.py [--repeat 5] [--number 20000]
"""

from __future__ import annotations

import argparse
import json
import sys
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from wargame.dice import Dice  # noqa: E402


def micro(fn, number: int, repeat: int) -> float:
    return round(min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6, 3)


def fresh(version: int) -> Dice:
    dice = Dice(1944, version)
    dice.roll(200)
    return dice


def measure(version: int, number: int, repeat: int) -> dict[str, float]:
    saved = fresh(version).to_dict()
    cards = list(range(40))
    snap, shuf = fresh(version), fresh(version)
    return {
        "d6": micro(fresh(version).d6, number, repeat),
        "copy": micro(fresh(version).copy, number // 10, repeat),
        "snapshot": micro(lambda: snap.setstate(snap.getstate()), number, repeat),
        "from_dict": micro(lambda: Dice.from_dict(saved), max(1, number // 200), repeat),
        "shuffle": micro(lambda: shuf.shuffle(cards), max(1, number // 40), repeat),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--number", type=int, default=20000)
    args = parser.parse_args()
    out = {}
    for version in (1, 2):
        figures = measure(version, args.number, args.repeat)
        out[f"v{version}"] = figures
        print(f"dice version {version}: " + ", ".join(f"{k} {v} us" for k, v in figures.items()))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
