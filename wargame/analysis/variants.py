"""Exact distributions of the random dates and losses of the Battle for Normandy §19 variants
(``wargame/operational/variants.py``), as pandas DataFrames, compared with Campanha da
Normandia's fixed dates and with history.

Every probability is an exact ``Fraction`` (column ``probability``) with its float (``p``).
The procedures are the engine's: the same day-by-day rolls, the same CN turn mapping
(``effective_turn``: a BFN night roll on a day takes effect from the first CN turn after it).
"""

from __future__ import annotations

from datetime import date, timedelta
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from wargame.operational.variants import (
    DD_VALUES,
    FRIENDLY_FIRE_FACES,
    MULBERRY_FIRST_DAY,
    MULBERRY_TARGET,
    PEGASUS_FACES,
    STORM_TURN,
    WITHDRAWAL_FIRST,
    WITHDRAWAL_LAST,
    day_of,
    days_to_roll,
    effective_turn,
    turn_first_day,
    turn_last_day,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "withdrawal_day_probabilities", "withdrawal_day_distribution", "withdrawal_turn_distribution",
    "mulberry_turn_probabilities", "mulberry_distribution", "carpet_unit_outcomes",
    "friendly_fire_pinned_distribution", "friendly_fire_loss_distribution", "dd_distribution",
    "pegasus_distribution", "comparison_with_cn_and_history",
]

SIXTH = Fraction(1, 6)


# ------------------------------------------------------------------------------ BFN 19.1 / 19.2
@cache
def withdrawal_day_probabilities() -> dict[date, Fraction]:
    """P(withdrawal on each day 30 June - 5 July): a d6 + days since 30 June >= 6, automatic
    on 5 July. P(30 June) = 1/6, P(1 July) = 5/6 * 2/6, ..."""
    out: dict[date, Fraction] = {}
    still = Fraction(1)
    day = WITHDRAWAL_FIRST
    while day <= WITHDRAWAL_LAST:
        i = (day - WITHDRAWAL_FIRST).days
        p_day = Fraction(1) if day == WITHDRAWAL_LAST else Fraction(min(6, i + 1), 6)
        out[day] = still * p_day
        still *= 1 - p_day
        day += timedelta(days=1)
    return out


def withdrawal_day_distribution() -> pd.DataFrame:
    import pandas as pd

    rows = []
    cum = Fraction(0)
    for day, p in withdrawal_day_probabilities().items():
        cum += p
        rows.append({"day": day, "probability": p, "p": float(p), "cumulative": float(cum),
                     "cn_turn": effective_turn(day)})
    return pd.DataFrame(rows)


def withdrawal_turn_distribution() -> pd.DataFrame:
    """The CN turn from which the battleships (or one airborne division) are gone."""
    import pandas as pd

    turns: dict[int, Fraction] = {}
    for day, p in withdrawal_day_probabilities().items():
        t = effective_turn(day)
        turns[t] = turns.get(t, Fraction(0)) + p
    return pd.DataFrame([{"cn_turn": t, "first_day": turn_first_day(t), "probability": p, "p": float(p)}
                         for t, p in sorted(turns.items())])


# ------------------------------------------------------------------------------ BFN 19.4
@cache
def _three_d6() -> dict[int, Fraction]:
    dist = {0: Fraction(1)}
    for _ in range(3):
        nxt: dict[int, Fraction] = {}
        for s, p in dist.items():
            for f in range(1, 7):
                nxt[s + f] = nxt.get(s + f, Fraction(0)) + p * SIXTH
        dist = nxt
    return dist


@cache
def mulberry_turn_probabilities(captured_turn: int = 0, last_turn: int = 16, storm_turn: int | None = STORM_TURN
                                ) -> dict[int, tuple[Fraction, Fraction]]:
    """Turn -> (P(first working this turn), P(working this turn)) for one harbour whose landing
    hex is Allied from ``captured_turn``: a d6 a day from 8 June, 21 to finish; the storm of
    ``storm_turn`` (None: no storm) damages on an odd d6 by 3d6."""
    # state: (progress, has it ever worked) -> probability
    dist: dict[tuple[int, bool], Fraction] = {(0, False): Fraction(1)}
    out: dict[int, tuple[Fraction, Fraction]] = {}
    for turn in range(0, last_turn + 1):
        for k in days_to_roll(turn):
            if day_of(k) < MULBERRY_FIRST_DAY or turn - 1 < captured_turn:
                continue
            nxt: dict[tuple[int, bool], Fraction] = {}
            for (prog, ever), p in dist.items():
                if prog >= MULBERRY_TARGET:
                    nxt[(prog, ever)] = nxt.get((prog, ever), Fraction(0)) + p
                    continue
                for f in range(1, 7):
                    key = (min(MULBERRY_TARGET, prog + f), ever)
                    nxt[key] = nxt.get(key, Fraction(0)) + p * SIXTH
            dist = nxt
        if storm_turn is not None and turn == storm_turn:
            nxt = {}
            for (prog, ever), p in dist.items():
                if prog <= 0:
                    nxt[(prog, ever)] = nxt.get((prog, ever), Fraction(0)) + p
                    continue
                nxt[(prog, ever)] = nxt.get((prog, ever), Fraction(0)) + p / 2   # even: survives
                for dmg, q in _three_d6().items():
                    key = (max(0, prog - dmg), ever)
                    nxt[key] = nxt.get(key, Fraction(0)) + p / 2 * q
            dist = nxt
        first = sum((p for (prog, ever), p in dist.items() if prog >= MULBERRY_TARGET and not ever), Fraction(0))
        working = sum((p for (prog, _), p in dist.items() if prog >= MULBERRY_TARGET), Fraction(0))
        out[turn] = (first, working)
        merged: dict[tuple[int, bool], Fraction] = {}
        for (prog, ever), p in dist.items():
            key = (prog, ever or prog >= MULBERRY_TARGET)
            merged[key] = merged.get(key, Fraction(0)) + p
        dist = merged
    return out


def mulberry_distribution(captured_turn: int = 0, storm: bool = True) -> pd.DataFrame:
    """Per CN turn: P(the harbour starts working this turn), P(working this turn), with the
    turn's dates; CN 9.0 installs both on turn 4 and the storm destroys each with P = 1/2."""
    import pandas as pd

    probs = mulberry_turn_probabilities(captured_turn, 16, STORM_TURN if storm else None)
    rows = []
    cum = Fraction(0)
    for turn, (first, working) in probs.items():
        cum += first
        rows.append({"cn_turn": turn, "first_day": turn_first_day(turn), "last_day": turn_last_day(turn),
                     "probability": first, "p": float(first), "cumulative": float(cum),
                     "working": working, "p_working": float(working)})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------------------ BFN 19.3
def carpet_unit_outcomes(tables=None) -> dict[str, Fraction]:
    """CN 6.3's carpet bombing table over 2d6, read from the Normandy tables: DI/DB/DE/DA."""
    if tables is None:
        from wargame.operational.tables import load_tables

        tables = load_tables("normandy")
    return tables.carpet_distribution()


def friendly_fire_pinned_distribution(n_units: int) -> pd.DataFrame:
    """Of ``n_units`` Allied units next to the targets, how many are pinned (d10 0 or 9)."""
    from math import comb

    import pandas as pd

    q = Fraction(len(FRIENDLY_FIRE_FACES), 10)
    return pd.DataFrame([{"pinned": k, "probability": comb(n_units, k) * q ** k * (1 - q) ** (n_units - k),
                          "p": float(comb(n_units, k) * q ** k * (1 - q) ** (n_units - k))}
                         for k in range(n_units + 1)])


def friendly_fire_loss_distribution(n_units: int, tables=None) -> pd.DataFrame:
    """Steps lost by ``n_units`` full-strength Allied units next to the targets when the
    units not pinned move away: each is pinned with P = 1/5 and then rolls on CN's carpet
    table alone (DB one step; DE and DA eliminate it: two steps)."""
    import pandas as pd

    outcomes = carpet_unit_outcomes(tables)
    q = Fraction(len(FRIENDLY_FIRE_FACES), 10)
    steps = {"DI": 0, "DB": 1, "DE": 2, "DA": 2}
    one: dict[int, Fraction] = {0: 1 - q}
    for r, p in outcomes.items():
        one[steps[r]] = one.get(steps[r], Fraction(0)) + q * p
    dist = {0: Fraction(1)}
    for _ in range(n_units):
        nxt: dict[int, Fraction] = {}
        for s, p in dist.items():
            for k, r in one.items():
                nxt[s + k] = nxt.get(s + k, Fraction(0)) + p * r
        dist = nxt
    return pd.DataFrame([{"steps_lost": s, "probability": p, "p": float(p)} for s, p in sorted(dist.items())])


# ------------------------------------------------------------------------------ BFN 19.6, 19.8
def dd_distribution() -> pd.DataFrame:
    """BFN 19.6.2: P(the DD tanks get ashore) per beach: a d10 (0-9) at or under the value."""
    import pandas as pd

    return pd.DataFrame([{"beach": b, "value": v, "probability": Fraction(v + 1, 10), "p": (v + 1) / 10}
                         for b, v in DD_VALUES.items()])


def pegasus_distribution() -> pd.DataFrame:
    """BFN 19.8 with CN 4.2.3: P(the 5th Parachute Brigade lands intact), with and without."""
    import pandas as pd

    coup = Fraction(len(PEGASUS_FACES), 6)
    cn = Fraction(3, 6)   # CN 4.2.3: British paratroops intact on an even die
    return pd.DataFrame([
        {"rule": "CN 4.2.3", "probability": cn, "p": float(cn)},
        {"rule": "BFN 19.8 + CN 4.2.3", "probability": coup + (1 - coup) * cn, "p": float(coup + (1 - coup) * cn)},
    ])


# ------------------------------------------------------------------------------ comparison
def comparison_with_cn_and_history() -> pd.DataFrame:
    """The variants' random dates next to CN's fixed dates and what happened."""
    import pandas as pd

    wd = withdrawal_day_probabilities()
    mean_day = sum(((d - WITHDRAWAL_FIRST).days * p for d, p in wd.items()), Fraction(0))
    wt = withdrawal_turn_distribution()
    mean_turn = float(sum(wt["probability"] * wt["cn_turn"]))
    mul = mulberry_distribution()
    mean_mul = float(sum(mul["probability"] * mul["cn_turn"]))
    return pd.DataFrame([
        {"event": "bombarding battleships leave",
         "bfn": f"30 June + {float(mean_day):.2f} days on average; from CN turn {mean_turn:.2f}",
         "cn": "never (CN 10.0 support all game)",
         "history": "US battleships leave after shelling Cherbourg (25 June), late June - early July; "
                    "the British ships stay off Caen"},
        {"event": "82nd and 101st Airborne withdrawn",
         "bfn": f"each from CN turn {mean_turn:.2f} on average (turns 9-11)",
         "cn": "turn 13 (13-15 July, CN 4.2.2)",
         "history": "relieved in early July; the 82nd sails for England around 13 July"},
        {"event": "Mulberry working (landing hex held from turn 0)",
         "bfn": f"first working turn {mean_mul:.2f} on average; P(working on turn 9) = "
                f"{float(mul.loc[mul.cn_turn == 9, 'p_working'].iloc[0]):.3f}",
         "cn": "installed turn 4 (16-18 June); storm turn 5: lost with P = 1/2 each",
         "history": "Mulberry A (Omaha) wrecked by the 19-22 June storm; Mulberry B (Arromanches) "
                    "damaged, repaired and working"},
    ])
