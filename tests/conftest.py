"""Fixtures shared by every folder of tests: one Debian chromium, driven by python playwright
(sync API), for the whole session. Only one sync_playwright may live at a time, so the browser
fixtures are defined here once (tests/ui and tests/binder both use them).

Also the markers ``browser``, ``binder`` and ``slow`` (registered in pyproject.toml), set here by
path, fixture and node id so that no test file needs a decorator: ``make test-fast`` deselects
all three, ``make test`` runs everything.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "wargame_browser_helpers", Path(__file__).resolve().parent / "ui" / "conftest.py")
_helpers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_helpers)
CHROME_ARGS = _helpers.CHROME_ARGS
find_chromium = _helpers.find_chromium


# Fixtures that need a real chromium: a test using any of them (directly or through another
# fixture, e.g. tests/ui's dashboard_server) is a browser test.
BROWSER_FIXTURES = frozenset({"chromium_path", "wg_browser", "wg_page", "dashboard_server"})
# Tests that need the repo2docker-like venv of tests/binder (built with pip, ~90 s).
BINDER_FIXTURES = frozenset({"binder_home"})

# The slowest non-browser tests, measured on 2026-11-23 on this 2-core machine (shared with
# other jobs) with
#     .venv/bin/python -m pytest --durations=60 -q --ignore=tests/binder -p no:randomly
# (1058 passed in 231 s): every non-browser test whose call took 2 s or more (seconds beside
# each). Matched on the node id without its parameters, so every parametrisation of a listed
# test is slow. Re-measure and edit this list when `make test-fast` grows past a minute.
SLOW_TESTS = frozenset({
    f"tests/{path}::{name}" for path, name in [
        ("bots/test_greedy.py", "test_normandy_bot_campaign_turn_0_to_16"),  # 32
        ("test_scenario_validation.py", "test_fuzzed_files_give_only_scenario_errors"),  # 30
        ("variants/test_campaign_and_saves.py",
         "test_full_campaign_with_every_variant_and_replay"),  # 14
        ("bots/test_greedy.py",
         "test_dragoon_bot_game_is_legal_keeps_invariants_and_replays"),  # 10
        ("dragoon/test_map.py", "test_build_is_reproducible"),  # 8 (elevation tile)
        ("test_cli.py", "test_autoplay_dragoon_json_and_save"),  # 7.5
        ("normandy/test_campaign.py", "test_full_campaign_random_play_and_replay"),  # 6
        ("bots/test_greedy.py", "test_dragoon_greedy_beats_random_on_each_side"),  # 2 x 4
        ("variants/test_campaign_and_saves.py", "test_save_and_load_with_variants"),  # 4
        ("operational/test_engine_properties.py",
         "test_illegal_actions_never_change_state"),  # 3.6
        ("operational/test_engine_properties.py",
         "test_random_games_keep_invariants_and_replay"),  # 2 x 3
        ("ui/test_dashboard_state.py", "test_dashboard_views_follow_state"),  # 2.2
        ("variants/test_campaign_and_saves.py",
         "test_saves_with_unknown_or_different_variants_are_refused"),  # 2.2
        ("normandy/test_history.py", "test_fuzzed_history_gives_only_scenario_errors"),  # 2.1
        # 0.5 s in that run, 4.4 s in the fast set's own --durations run: it pays for importing
        # matplotlib and the land mask once the Dragoon map build above is deselected
        ("normandy/test_map.py", "test_build_is_reproducible"),
        # measured after the protocol merge (2026-11-23, --durations over the fast set)
        ("schema/test_mutations.py",
         "test_each_mutation_is_a_scenario_error_naming_file_and_field"),  # 24
        ("variants/test_hooks.py",
         "test_without_variants_the_bfn_hooks_play_like_the_bare_rulebook"),  # 3.1
        ("fuzz/test_fuzzlib.py", "test_a_hang_fails"),  # 2 (the hang guard's limit)
        # campaign studies on Dask (2026-11-23, with other jobs on the 2 cores)
        ("analysis/test_study_dragoon.py",
         "test_dragoon_same_table_for_one_and_two_worker_processes"),  # 25
        ("analysis/test_study_dragoon.py",
         "test_dragoon_whatif_study_compares_with_the_base"),  # 9
        # issue 30: two worker processes started to read their sockets (2026-11-27, loaded)
        ("analysis/test_study.py",
         "test_the_local_cluster_listens_on_loopback_only_and_has_no_dashboard"),  # 11
        # rooms (2026-11-23): a real server process killed with SIGKILL; a Memoir game to its end
        ("rooms/test_rooms_sigkill.py", "test_sigkill_mid_game_loses_no_acknowledged_action"),  # 4
        ("rooms/test_rooms_authority.py", "test_game_over_refuses_with_game_over"),  # 3
        # rooms' pages (2026-11-23): seat documents serialised whole, Normandy dashboards
        ("ui/test_seat_views.py",
         "test_memoir_seat_document_holds_its_own_hand_never_the_opponents"),  # 4.8
        ("ui/test_seat_views.py", "test_campaign_seat_document_holds_no_enemy_values"),  # 3.5+2
        ("ui/test_room_pages.py", "test_seat_page_hides_the_room_breaking_controls"),  # 3
        # issue 15: two scripted Normandy turns through the dashboard's store
        ("ui/test_texts_for_people.py",
         "test_scripted_turns_0_and_1_of_normandy_speak_plainly"),  # 9
        # issue 30: every offered action and answer accepted, Normandy plain and with BFN
        # (3 positions each; 20 + 35 s with other jobs on the 2 cores)
        ("test_offered_is_accepted.py",
         "test_every_offered_action_and_answer_is_accepted_in_normandy"),
        # issue 35: pytest in a subprocess on one Memoir scenario's conformance (2026-11-27,
        # 17.7 s with other jobs on the 2 cores)
        ("test_isolated_from_user_data.py",
         "test_pytest_with_a_users_imported_scenario_passes_and_leaves_it_alone"),
        # issue 27: is_legal against apply at random Normandy positions, plain and with BFN
        # (2 positions each; 9 + 25 s on 2026-11-27 with other jobs on the 2 cores)
        ("test_protocol_conformance.py", "test_legal_actions_both_directions_in_normandy"),
    ]
})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    root = config.rootpath
    for item in items:
        path = Path(item.path)
        rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()
        fixtures = set(getattr(item, "fixturenames", ()))
        if (rel.startswith("tests/ui/") and "browser" in Path(rel).name) or (
                fixtures & BROWSER_FIXTURES):
            item.add_marker(pytest.mark.browser)
        if rel.startswith("tests/binder/") and fixtures & (BINDER_FIXTURES | BROWSER_FIXTURES):
            item.add_marker(pytest.mark.binder)
        if item.nodeid.split("[", 1)[0] in SLOW_TESTS:
            item.add_marker(pytest.mark.slow)
    _warn_once_without_memoir_reference(items)


def _warn_once_without_memoir_reference(items: list[pytest.Item]) -> None:
    """One warning for the run when tests need the Memoir '44 reference layouts and the
    setting that finds them is missing (tests/memoir/reference.py): they are skipped, and
    said so once in the warnings summary rather than silently."""
    from tests.memoir.reference import MISSING, REFERENCE

    if REFERENCE is not None:
        return
    skipped = sum(1 for item in items for mark in item.iter_markers("skipif")
                  if mark.kwargs.get("reason") == MISSING)
    if skipped:
        import warnings

        warnings.warn(pytest.PytestWarning(f"{MISSING} ({skipped} tests skipped)"), stacklevel=1)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = find_chromium()
    if path is None:
        pytest.skip("Debian chromium not found even after tools/ensure_chromium.sh")
    return path


@pytest.fixture(scope="session")
def wg_browser(chromium_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROME_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def wg_page(wg_browser):
    context = wg_browser.new_context(viewport={"width": 1500, "height": 1100},
                                     accept_downloads=True)
    page = context.new_page()
    yield page
    context.close()


# The user's own data (imported Memoir '44 scenarios, wargame.paths.user_data_home) is never
# read by the tests: WARGAME_HOME points at an empty folder of the run instead of
# ~/.local/share/wargame. It is set in pytest_configure, before collection, because some test
# files list the scenarios when they are imported (tests/test_protocol_conformance.py). Tests of
# imports set WARGAME_HOME to their own tmp_path. tests/test_isolated_from_user_data.py checks it.
# (the user's value, restored at the end; the run's folder, removed at the end)
_HOMES = pytest.StashKey[tuple[str | None, str]]()


def pytest_configure(config: pytest.Config) -> None:
    import os
    import tempfile

    home = tempfile.mkdtemp(prefix="wargame-home-")
    config.stash[_HOMES] = (os.environ.get("WARGAME_HOME"), home)
    os.environ["WARGAME_HOME"] = home


def pytest_unconfigure(config: pytest.Config) -> None:
    import os
    import shutil

    if _HOMES not in config.stash:
        return
    old, home = config.stash[_HOMES]
    shutil.rmtree(home, ignore_errors=True)
    if old is None:
        os.environ.pop("WARGAME_HOME", None)
    else:
        os.environ["WARGAME_HOME"] = old
