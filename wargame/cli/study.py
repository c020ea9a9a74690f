"""``wargame study``: many seeded computer-played games in parallel on Dask
(wargame.analysis.study; docs/studies.md)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from wargame.cli.common import (
    MAX_SEED,
    MIN_SEED,
    PLAYER_METAVAR,
    CommandFailed,
    UsageError,
    check_players,
    describe,
    excerpt,
    non_negative,
    player_arg,
    print_json,
    seed_arg,
)
from wargame.cli.text import HELP, STUDY_TEXT

# wargame study (issue #31): a million games is weeks of CPU already, and the study's tables
# grow with it (10**9 ended in MemoryError); more workers than twice the cores only add
# processes and memory (12 on 2 cores: 14 processes, 1.2 GB). wargame.analysis.study checks
# the same bounds (MAX_STUDY_GAMES, max_workers) for callers of run_study.
MAX_STUDY_GAMES = 1_000_000


def add_parser(sub: Any) -> None:
    study = sub.add_parser("study", help=STUDY_TEXT["help"], description=STUDY_TEXT["help"])
    study.add_argument("--scenario", default="dragoon", help=STUDY_TEXT["opt.scenario"])
    study.add_argument("--games", type=non_negative, default=20, help=STUDY_TEXT["opt.games"])
    study.add_argument("--seed", type=seed_arg, default=1, help=STUDY_TEXT["opt.seed"])
    study.add_argument("--workers", type=non_negative, default=None,
                       help=STUDY_TEXT["opt.workers"])
    study.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help=STUDY_TEXT["opt.scheduler"])
    study.add_argument("--allied", type=player_arg, metavar=PLAYER_METAVAR, default=None,
                       help=HELP["autoplay.allied"])
    study.add_argument("--axis", type=player_arg, metavar=PLAYER_METAVAR, default=None,
                       help=STUDY_TEXT["opt.axis"])
    study.add_argument("--variant", action="append", default=[], metavar="NAME",
                       help=HELP["variant"])
    study.add_argument("--whatif", default=None, metavar="FILE", help=STUDY_TEXT["opt.whatif"])
    study.add_argument("--out", default=None, metavar="DIR", help=STUDY_TEXT["opt.out"])
    study.add_argument("--json", action="store_true", help=STUDY_TEXT["opt.json"])
    study.add_argument("--quiet", action="store_true", help=STUDY_TEXT["opt.quiet"])
    study.add_argument("--retry-failed", action="store_true", help=STUDY_TEXT["opt.retry_failed"])
    study.add_argument("--dashboard", action="store_true", help=STUDY_TEXT["opt.dashboard"])
    study.set_defaults(handler=cmd_study)


STUDY_PACKAGES = ("dask", "distributed", "tqdm")
"""What ``wargame study`` imports beyond the package's own dependencies: the ``study`` extra
(pyproject.toml; issue #35)."""


def cmd_study(args: argparse.Namespace, out: TextIO) -> int:
    """A seeded study on Dask (wargame.analysis.study): the summary, and the table in --out."""
    from wargame.registry import family_of
    from wargame.scenario_errors import ScenarioError

    # the bounds first (issue #31): refused at once, before any scenario is read
    if args.workers == 0:
        raise UsageError(STUDY_TEXT["workers"])
    cores = os.cpu_count() or 1
    if args.workers is not None and args.workers > 2 * cores:
        raise UsageError(STUDY_TEXT["workers_max"].format(high=2 * cores, cores=cores,
                                                          value=excerpt(args.workers)))
    if args.games > MAX_STUDY_GAMES:
        raise UsageError(STUDY_TEXT["games_max"].format(high=MAX_STUDY_GAMES,
                                                        value=excerpt(args.games)))
    check_game_seeds(args.seed, args.games)
    describe(args.scenario)  # an unknown id: the list of known ones
    family = family_of(args.scenario)
    default = family.policies[0]  # the family's default player
    allied, axis = args.allied or default, args.axis or default

    def game() -> Any:
        from wargame.games import open_game

        return open_game(args.scenario)

    check_players(family, {"allied": allied, "axis": axis}, game)  # and hard:worlds=N's settings
    import importlib.util

    missing = [name for name in STUDY_PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        raise CommandFailed(STUDY_TEXT["no_extra"].format(missing=", ".join(missing)))
    from wargame.analysis.study import run_study

    folder = Path(args.out) if args.out else Path(f"study-{args.scenario}-seed{args.seed}")
    if folder.exists() and not folder.is_dir():
        raise UsageError(STUDY_TEXT["out_file"].format(folder=folder))

    def show_dashboard(client: Any) -> None:
        if args.dashboard and client.dashboard_link:
            print(STUDY_TEXT["dashboard"].format(link=client.dashboard_link), file=sys.stderr)

    try:
        study = run_study(args.scenario, args.games, seed=args.seed, variants=args.variant,
                          allied=allied, axis=axis, whatif=args.whatif,
                          workers=args.workers, scheduler=args.scheduler, out=folder,
                          progress=not args.quiet, retry_failed=args.retry_failed,
                          dashboard=args.dashboard, on_client=show_dashboard)
    except (ScenarioError, ValueError) as exc:
        raise UsageError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
    except (OSError, TimeoutError) as exc:
        if args.scheduler:
            raise UsageError(STUDY_TEXT["scheduler"].format(address=args.scheduler,
                                                            error=type(exc).__name__)) from None
        raise UsageError(STUDY_TEXT["out_error"].format(folder=folder,
                                                        reason=exc.strerror or exc)) from None
    print_study(args, study, folder, out)
    if study.failures:  # exit 1, naming the seeds; the summary above is of the others
        seeds = [str(f["seed"]) for f in study.failures]
        listed = ", ".join(seeds[:20])
        if len(seeds) > 20:
            listed = STUDY_TEXT["more_seeds"].format(seeds=listed, more=len(seeds) - 20)
        raise CommandFailed(STUDY_TEXT["failed"].format(failed=len(seeds), seeds=listed,
                                                        total=study.params["games"]))
    return 0


def print_study(args: argparse.Namespace, study: Any, folder: Path, out: TextIO) -> None:
    """The summary of ``study`` on ``out``: JSON with --json, else lines; then its failures."""
    summary = study.summary()
    table = next((p for p in (folder / "results.parquet", folder / "results.csv") if p.exists()),
                 folder)
    total = study.params["games"]
    if args.json:
        print_json({**summary, "played": study.played, "table": str(table),
                     "failures": study.failures}, out)
        return
    print(STUDY_TEXT.plural("head", total).format(**{**summary, "games": total}, played=study.played,
                                    resumed=total - study.played), file=out)
    if summary["games"]:
        ar, (al, ah) = summary["allied_win_rate"], summary["allied_win_rate_ci"]
        xr, (xl, xh) = summary["axis_win_rate"], summary["axis_win_rate_ci"]
        print(STUDY_TEXT["wins"].format(**summary, ar=ar, al=al, ah=ah, xr=xr, xl=xl, xh=xh),
              file=out)
        a, (al, ah) = summary["allied_vp_mean"], summary["allied_vp_ci"]
        x, (xl, xh) = summary["axis_vp_mean"], summary["axis_vp_ci"]
        print(STUDY_TEXT["vp"].format(a=a, al=al, ah=ah, x=x, xl=xl, xh=xh), file=out)
        print(STUDY_TEXT["lost"].format(a=summary["allied_lost_mean"],
                                        x=summary["axis_lost_mean"]), file=out)
        print(STUDY_TEXT["cities"], file=out)
        for city, c in summary["cities"].items():
            turn = ("" if c["mean_turn"] is None
                    else STUDY_TEXT["city_turn"].format(turn=c["mean_turn"]))
            print(STUDY_TEXT["city"].format(city=city, share=c["fell_share"], turn=turn),
                  file=out)
    if study.failures:
        print(STUDY_TEXT.plural("failed_head", len(study.failures)).format(failed=len(study.failures),
                                               folder=folder / "failed"), file=out)
        for f in study.failures:
            print(STUDY_TEXT["failed_row"].format(**f), file=out)
    print(STUDY_TEXT["table"].format(path=table), file=out)


def check_game_seeds(seed: int, games: int) -> None:
    """UsageError unless every game's seed (``game_seed(seed, i)``: seed * 1000003 + i) is one
    a save holds, as ``serve``/``autoplay --seed`` are (issue #31): the study's --seed itself
    is bounded by the argument type, its games' seeds here, before anything is played."""
    from wargame.analysis.study import SEED_STRIDE, game_seed

    first, last = game_seed(seed, 0), game_seed(seed, max(games, 1) - 1)
    if MIN_SEED <= first and last <= MAX_SEED:
        return
    low = -(-MIN_SEED // SEED_STRIDE)  # the smallest seed whose first game fits
    high = (MAX_SEED - (max(games, 1) - 1)) // SEED_STRIDE  # the largest whose last game fits
    raise UsageError(STUDY_TEXT["seed_games"].format(
        seed=excerpt(seed), games=games, value=excerpt(first if first < MIN_SEED else last),
        low=low, high=high))
