"""The Mulberry harbours of the Normandy campaign.

Rules: CN 9.0 (installation, the storm, the penalty for fewer than two harbours, free
landing); BFN 19.4 replaces the installation when its variant is on (see ``variants.py``).
"""

from __future__ import annotations

from wargame.hexgrid import Hex


class MulberryRules:
    """Mulberry harbours (CN 9.0)."""

    def _mulberry_turn(self) -> None:
        rule = self.game.rule("mulberries")
        if not rule or self.game.hooks.replaces_mulberries(self.game):  # BFN 19.4 replaces CN 9.0
            return
        state = self.flags.setdefault("mulberries", {m["name"]: "planned" for m in rule["harbours"]})
        captured = self.flags.setdefault("landing_captured", {})
        for m in rule["harbours"]:
            name = m["name"]
            if state[name] != "planned":
                continue
            landing = Hex.from_id(m["landing"])
            taken = captured.get(name)
            if taken is None:
                continue  # CN 9.0: not taken on turn 0: installed 4 turns after its capture
            if self.turn > self.game.scenario.first_turn and any(self.side_of(u) == "axis" for u in self.units_at(landing)):
                # CN 9.0: the enemy occupies the landing hex after turn 0, once the Allies had
                # taken it (Germans still holding it only delay the harbour, as the sentence
                # before says; docs/rules-notes.md)
                state[name] = "cancelled"
                self._emit("mulberry", "CN 9.0", name=name, status="can no longer be installed")
                continue
            due = rule["install_turn"] if taken <= self.game.scenario.first_turn else taken + rule["delay_turns"]
            if self.turn >= max(due, rule["install_turn"]):
                state[name] = "operating"
                self._emit("mulberry", "CN 9.0", name=name, status=f"installed at {m['hex']}")
        if self.turn == rule["storm_turn"]:
            for m in rule["harbours"]:
                if state[m["name"]] == "operating":
                    die = self.dice.d6()
                    if die % 2 == 1:
                        state[m["name"]] = "destroyed"
                    self._emit("mulberry", "CN 9.0", name=m["name"],
                               status=f"storm die {die}: " + ("destroyed" if die % 2 else "survives"))

    def mulberries_operating(self) -> int:
        return sum(1 for s in (self.flags.get("mulberries") or {}).values() if s == "operating")

    def mulberry_penalty(self) -> int:
        """CN 9.0: from turn 9, with fewer than two Mulberries the Allies lose a column in every
        combat (and with none, also recovery and artillery-only attacks) until Cherbourg falls."""
        rule = self.game.rule("mulberries")
        if not rule or self.turn < rule["penalty_turn"]:
            return 0
        port = Hex.from_id(rule["port"])
        if self.control.get(port) == "allied":
            return 0
        n = self.mulberries_operating()
        return 0 if n >= 2 else (1 if n == 1 else 2)

    def mulberry_landing_free(self, h: Hex) -> bool:
        rule = self.game.rule("mulberries")
        if not rule:
            return False
        states = self.flags.get("mulberries") or {}
        for m in self.game.hooks.mulberry_harbours(self.game, rule):  # BFN 19.4: the chosen beaches
            if Hex.from_id(m["landing"]) == h and states.get(m["name"]) == "operating":
                return True
        port = Hex.from_id(rule["port"])
        return h == port and self.control.get(port) == "allied"

    def _note_mulberry_captures(self) -> None:
        """CN 9.0: the turn each Mulberry's landing hex was first taken by the Allies."""
        rule = self.game.rule("mulberries")
        if not rule:
            return
        captured = self.flags.setdefault("landing_captured", {})
        for m in rule["harbours"]:
            if m["name"] not in captured and self.control.get(Hex.from_id(m["landing"])) == "allied":
                captured[m["name"]] = self.turn
