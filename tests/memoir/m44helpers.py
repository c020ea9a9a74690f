"""Helpers for Memoir '44 rule tests: positions built in code and scripted dice."""

from __future__ import annotations

from wargame.dice import Dice
from wargame.memoir import ALLIES, AXIS, DECK, Action, MemoirGame, m44_to_hex
from wargame.memoir.scenario import custom_scenario

# d6 values that show each battle-die face (wargame.memoir.dice.FACES)
FACE = {"inf": 1, "tank": 3, "grenade": 4, "flag": 5, "star": 6}


class ScriptedDice(Dice):
    """Dice that return scripted values and fail loudly when the script runs out."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def die(self, sides: int) -> int:
        self.sides_log.append(sides)
        if not self.values:
            raise AssertionError("unexpected die roll: the test script is exhausted")
        v = self.values.pop(0)
        assert 1 <= v <= sides
        return v


def faces(*names: str) -> list[int]:
    return [FACE[n] for n in names]


def H(row: int, col: int):
    return m44_to_hex(row, col)


def card_id(name: str, section: str | None = None, skip: int = 0) -> int:
    found = [c.id for c in DECK if c.name == name and (section is None or c.section == section)]
    return found[skip]


def make_state(units, terrain=None, hands=None, active=ALLIES, dice=None, seed=0, **kw):
    """A state in the card phase of ``active``; ``hands`` maps side -> card names or ids."""
    sc = custom_scenario(terrain, units, starts=active, **kw)
    st = MemoirGame(sc).new_state(seed=seed)
    if hands is not None:
        used = set()
        for side in (AXIS, ALLIES):
            ids = []
            for c in hands.get(side, []):
                if isinstance(c, int):
                    cid = c
                else:
                    name, _, sec = c.partition(":")
                    cands = [x.id for x in DECK if x.name == name
                             and (not sec or x.section == sec) and x.id not in used]
                    cid = cands[0]
                used.add(cid)
                ids.append(cid)
            st.hands[side] = ids
        st.deck = [c.id for c in DECK if c.id not in used]
        st.discard = []
    if dice is not None:
        st.dice = ScriptedDice(dice)
    return st


def play(st, name, option=None, section=None):
    side = st.active
    cid = next(c for c in st.hands[side] if DECK[c].name == name
               and (section is None or DECK[c].section == section))
    return st.apply(Action("play", card=cid, option=option))


def order(st, *positions):
    ev = []
    for pos in positions:
        ev += st.apply(Action("order", unit=st.unit_at(H(*pos)).id))
    ev += st.apply(Action("end_orders"))
    return ev


def uid(st, pos) -> int:
    return st.unit_at(H(*pos)).id

