"""The Mulberry harbours of the Normandy campaign.

Rules: CN 9.0 (installation, the storm, the penalty for fewer than two harbours, free
landing); BFN 19.4 replaces the installation when its variant is on (see ``variants.py``).
"""

from __future__ import annotations

from wargame.hexgrid import Hex
from wargame.operational.state_protocol import RulesBase


class MulberryRules(RulesBase):
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
                self._emit("mulberry", "CN 9.0", name=name, status="can no longer be installed",
                           code="cancelled")
                continue
            due = rule["install_turn"] if taken <= self.game.scenario.first_turn else taken + rule["delay_turns"]
            if self.turn >= max(due, rule["install_turn"]):
                state[name] = "operating"
                self._emit("mulberry", "CN 9.0", name=name, status=f"installed at {m['hex']}",
                           code="installed", hex=m["hex"])
        if self.turn == rule["storm_turn"]:
            for m in rule["harbours"]:
                if state[m["name"]] == "operating":
                    die = self.dice.d6()
                    if die % 2 == 1:
                        state[m["name"]] = "destroyed"
                    self._emit("mulberry", "CN 9.0", name=m["name"],
                               status=f"storm die {die}: " + ("destroyed" if die % 2 else "survives"),
                               code="storm", die=die, destroyed=bool(die % 2))

    def mulberries_operating(self) -> int:
        return sum(1 for s in (self.flags.get("mulberries") or {}).values() if s == "operating")

    def _note_mulberry_penalty(self) -> None:
        """CN 9.0: "Se, no Turno 9, o jogador aliado tiver apenas um 'mulberry', 'perde' uma
        coluna em qualquer combate em todos os turnos a partir deste (inclusive)": the harbours
        working on turn 9 (after that turn's installations) fix the penalty for the rest of the
        game; a harbour installed later does not lift it. Called at the start of each turn."""
        rule = self.game.rule("mulberries")
        if not rule or self.turn < rule["penalty_turn"] or "mulberry_penalty" in self.flags:
            return
        n = self.mulberries_operating()
        self.flags["mulberry_penalty"] = 0 if n >= 2 else (1 if n == 1 else 2)

    def mulberry_penalty(self) -> int:
        """CN 9.0: from turn 9, with fewer than two Mulberries on turn 9 the Allies lose a column
        in every combat (and with none, also recovery and artillery-only attacks) until
        Cherbourg falls."""
        rule = self.game.rule("mulberries")
        if not rule or self.turn < rule["penalty_turn"]:
            return 0
        port = Hex.from_id(rule["port"])
        if self.control.get(port) == "allied":
            return 0
        if "mulberry_penalty" in self.flags:
            return int(self.flags["mulberry_penalty"])
        n = self.mulberries_operating()  # a position set up after turn 9 without the record
        return 0 if n >= 2 else (1 if n == 1 else 2)

    def _serves(self, harbour: dict, uid: str | None) -> bool:
        """CN 9.0: "2010 para os americanos e 2410 para britânicos e canadenses"."""
        nations = harbour.get("nations") or []
        return uid is None or not nations or self.game.units[uid].nation in nations

    def mulberry_landing_hexes(self, uid: str) -> list[Hex]:
        """CN 9.0: the landing hexes of the working harbours that serve ``uid``'s nation."""
        rule = self.game.rule("mulberries")
        if not rule:
            return []
        states = self.flags.get("mulberries") or {}
        return [Hex.from_id(m["landing"]) for m in self.game.hooks.mulberry_harbours(self.game, rule)  # BFN 19.4
                if states.get(m["name"]) == "operating" and self._serves(m, uid)]

    def mulberry_landing_free(self, h: Hex, uid: str | None = None) -> bool:
        """CN 9.0: landing at a working harbour (for ``uid``'s nation) or at Cherbourg once
        Allied costs nothing."""
        rule = self.game.rule("mulberries")
        if not rule:
            return False
        states = self.flags.get("mulberries") or {}
        for m in self.game.hooks.mulberry_harbours(self.game, rule):  # BFN 19.4: the chosen beaches
            if Hex.from_id(m["landing"]) == h and states.get(m["name"]) == "operating" and self._serves(m, uid):
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
