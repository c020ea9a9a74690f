"""A failure injected into chosen games of a study (tests of issue 30's failed games)."""

from __future__ import annotations


class Injected(RuntimeError):
    """The failure a test injects into a game."""


def fail_on(monkeypatch, seeds, after: int = 5) -> dict[int, int]:
    """Games of ``seeds``: the first side's policy raises ``Injected`` on its ``after + 1``-th
    choice (in this process: the tests' workers are threads). Returns seed -> the actions
    played when it raised, filled as the games run."""
    import wargame.analysis.study as study_module

    real = study_module._policies
    raised: dict[int, int] = {}

    def policies(game, spec, seed):
        out = real(game, spec, seed)
        if seed in seeds:
            inner, side = out[game.sides[0]], game.sides[0]

            class Failing:
                calls = 0

                def choose(self, state):
                    self.calls += 1
                    if self.calls > after:
                        raised[seed] = len(state.action_log)
                        raise Injected(f"injected into seed {seed}")
                    return inner.choose(state)

            out[side] = Failing()
        return out

    monkeypatch.setattr(study_module, "_policies", policies)
    return raised
