"""The messages of the ``wargame`` command, by domain (wargame.i18n: English here, Portuguese in
wargame/locale/pt/LC_MESSAGES/wargame.po; ``tools/i18n.py update`` after a change). The
domains (``cli``, ``cli.help``, ``cli.argparse``, ``cli.study``, ``cli.rooms``) are the
msgctxt prefixes of the translations: renaming one loses them."""

from __future__ import annotations

from wargame.event_text import RESULT_CODES
from wargame.i18n import Catalogue

# The command line's own sentences (its commands, results and errors), by message id.
TEXT = Catalogue("cli", {
    "prog": "wargame",
    "description": "Classic WWII board wargames: odds, scenarios and dashboards.",
    "odds.help": "exact odds of one attack on the combat results table (CN/OD 5.1)",
    "bombard.help": "exact odds of an air or artillery bombardment (CN/OD 6.2, 8.0)",
    "scenario.help": "list, describe and validate scenarios",
    "serve.help": "open the game dashboard in a browser",
    "autoplay.help": "computer players replay whole games (campaigns or Memoir '44) and report the score",
    "autoplay.progress": "game {game}/{games} (seed {seed}): turn {turn}/{last}",
    "autoplay.row": "seed {seed}: Allies {allied} VP, Axis {axis} VP -> {winner}; units lost: "
                    "Allied {allied_lost}, Axis {axis_lost}; {actions} actions",
    "autoplay.saved": "last game saved to {path} (load it in the dashboard to replay it)",
    "autoplay.player": "no computer player {name!r} for the {side} in {game} games; known: {known}",
    "player_arg": "a computer player: one of {known}, the campaign's hard player with settings "
                  "after a colon (hard:worlds=2), got {value!r}",
    "player_settings": "--{side} {name}: {reason}",
    "not_negative": "must be a whole number >= 0, got {value!r}",
    "whole_number": "must be a whole number, got {value!r}",
    "in_range": "must be a whole number from {low} to {high}, got {value!r}",
    "seed_range": "a seed is a whole number from -2**63 to 2**63 - 1 (the largest a save "
                  "holds), got {value!r}",
    "autoplay.seed_last": "--seed {seed} with --games {games}: the last game's seed would be "
                          "{last}, beyond 2**63 - 1 (the largest a save holds); give a smaller "
                          "--seed",
    "path.empty": "needs a file or folder name, got an empty string",
    "path.nul": "a file name cannot contain a NUL character",
    "error": "{prog}: error: {message}",
    "usage_error": "{prog}: error: {message} (see {prog} --help)\n",
    "os_error": "{what}: {reason}",
    "interrupted": "{prog}: interrupted",
    "too_deep": "the input is nested too deeply to read",
    "memory": "not enough memory for this command",
    "internal": "unexpected error inside wargame ({kind}: {message}); please report it with "
                "the command line",
    "save.folder": "--save {path}: that is a folder; give a file name",
    "save.parent": "--save {path}: cannot write in {folder} ({reason})",
    "serve.failed": "cannot serve on {address}:{port}: {reason}",
    "serve.address": "the address to listen on (default: WARGAME_ADDRESS or 127.0.0.1; 0.0.0.0 "
                     "serves the whole network and then needs --allow-origin)",
    "serve.origin": "HOST[:PORT] of the page as the browsers type it, e.g. 192.168.1.20:5006; "
                    "repeatable; required unless the address is localhost (docs/serving.md)",
    "odds.head": "{title}: attack {attack} against defence {defence}",
    "odds.ratio": "ratio {ratio}",
    "odds.beyond": " (beyond the table: column {column})",
    "odds.column": "column {column}",
    "odds.clamped": "  (clamped at the end of the table)",
    "bombard.head": "{title}: strength {strength} x vulnerability {vulnerability} = {value}",
    "bombard.column": "column {base}{shifted}",
    "table.head": "  {result:<9} {in36:>5}  {pct:>6}",
    "table.row": "  {result:<9} {in36:>2}/36  {pct:>5.1f}%  {bar}",
    "scenario.none": "no bundled scenarios",
    "scenario.no_balance": "-",
    "scenario.front.WESTERN": "Western",
    "scenario.front.EASTERN": "Eastern",
    "scenario.front.MEDITERRANEAN": "Mediterranean",
    "scenario.front.PACIFIC": "Pacific",
    "scenario.unknown": "unknown scenario: {error}",
    "scenario.valid": "ok: {title} ({units} units, {hexes} hexes)",
    "scenario.no_validate": "scenario validation is not available yet ({error})",
    "import.help": "import a Memoir '44 Scenario Editor layout (.m44) as a playable scenario",
    "import.file": "the .m44 file (JSON saved by the Scenario Editor)",
    "import.id": "the scenario's name (played as memoir44-NAME); default: from the file name",
    "import.title": "the title shown in lists (default: the file's own name for it)",
    "import.replace": "overwrite an earlier import of the same name",
    "import.done": "imported memoir44-{id}: {title} ({units} units) -> {path}",
    "import.note": "note: {note}",
    "import.play": "play it: wargame serve --scenario memoir44-{id}",
    "serve.not_yet": "the dashboard is not available yet ({error}); scenario summary above",
    "info.turns": "turns {first}-{last}",
    "info.hexes": "{count} land hexes: {detail}",
    "info.units": "{count} units: {detail} ({ss} SS)",
    "info.places": "{count} named places",
    "info.warning": "note: {warning}",
    "info.provenance": "{what}: {provenance}",
    "odds.need": "--attack and --defense are required for {game}",
    "m44.dice": "Memoir '44: number of battle dice rolled",
    "m44.target": "Memoir '44: the target unit type",
    "m44.figures": "Memoir '44: figures in the target unit (adds the chance to eliminate it)",
    "m44.attacker": "Memoir '44: the attacking unit type (dice from range and terrain)",
    "m44.distance": "Memoir '44: distance to the target in hexes (with --attacker)",
    "m44.terrain": "Memoir '44: the target's terrain (woods, hills, bunker, sandbags ...)",
    "m44.stars": "Memoir '44: stars also hit (Air Power)",
    "m44.need": "Memoir '44 odds need --target and either --dice or --attacker with --distance",
    "m44.head": "Memoir '44: {dice} dice against {target}{figures}",
    "m44.figures_note": " ({figures} figures)",
    "m44.hits_head": "  hits  chance",
    "m44.hits_row": "  {k:>4}  {pct:>6.2f}%  {bar}",
    "m44.expected": "expected hits {value:.3f}",
    "m44.eliminate": "eliminate ({figures} hits or more): {pct:.2f}%",
    "m44.flag": "at least one flag: {pct:.2f}%",
    "info.medals": "medals to win: Allies {allies}, Axis {axis}",
    "info.side_units": "{side}: {infantry} infantry, {armor} armor, {artillery} artillery",
    "info.cards": "cards: Allies {allies}, Axis {axis}; {first}",
    "info.first.allied": "the Allies play first",
    "info.first.axis": "the Axis plays first",
    "info.side.allied": "Allies",
    "info.side.axis": "Axis",
    "info.what.map": "map",
    "info.what.units": "units",
    "table.result": "result",
    "table.chance": "chance",
    "odds.attack": "total attack",
    "odds.defence": "total defence",
    "lang.help": "language of the output: en or pt (default: the LANG environment, else en)",
    "version.help": "print the installed version and exit",
    "version.unknown": "(not installed: run from a checkout)",
}, plurals={
    # counted messages (wargame.i18n: Catalogue.plural): "1 game", "2 games"
    "autoplay.summary": (
        "{games} game, {allied_player} Allies vs {axis_player} Axis: Allies won {allied_wins}, "
        "Axis {axis_wins}, drawn {draws}; mean VP Allies {allied_mean:.1f}, Axis "
        "{axis_mean:.1f}",
        "{games} games, {allied_player} Allies vs {axis_player} Axis: Allies won {allied_wins}, "
        "Axis {axis_wins}, drawn {draws}; mean VP Allies {allied_mean:.1f}, Axis "
        "{axis_mean:.1f}"),
    "odds.shift": ("  {reason}: {columns:+d} column", "  {reason}: {columns:+d} columns"),
    "bombard.shifted": (" -> {column} after {shift:+d} column of terrain",
                        " -> {column} after {shift:+d} columns of terrain"),
    # ``wargame scenario list``: the balance a study measured (issue 32)
    "scenario.balance": ("Allies won {rate:.0%} of {games} game",
                         "Allies won {rate:.0%} of {games} games"),
    "m44.battle": ("{attacker} at {distance} hex against {target} in {terrain}: "
                   "{base} dice{steps} -> {dice}",
                   "{attacker} at {distance} hexes against {target} in {terrain}: "
                   "{base} dice{steps} -> {dice}"),
})

# The rulebook's result codes (CN/OD 5.1.6, 6.2 tables), shown under the odds table: the
# dashboards' words too (one word per concept, wargame.event_text.RESULT_CODES).
CODES = RESULT_CODES


# The help texts of the options (``--help``), by option (wargame.i18n, as TEXT).
HELP = Catalogue("cli.help", {
    "json": "print JSON",
    "odds.shift": "column shift, repeatable: + to the right (attacker), - to the left (defender)",
    "bombard.strength": "air points, or the artillery's summed attack",
    "bombard.vulnerability": "sum of the targets' vulnerability indices",
    "bombard.shift": "terrain columns: negative = to the left (e.g. -2 for a city)",
    "scenario.list": "the bundled scenarios",
    "scenario.info": "summary of one bundled scenario",
    "scenario.validate": "check a scenario folder or file, an .m44 file or a Memoir '44 id",
    "import.docs": "{help} (docs/memoir44-import.md)",
    "serve.scenario": "the scenario to serve (wargame scenario list)",
    "serve.port": "the port to listen on",
    "serve.seed": "the game's seed (default: the scenario's usual one)",
    "serve.variant": "optional rule, repeatable: bfn (all), bfn-19.1 ... bfn-19.8 (Battle for "
                     "Normandy 19; see docs/bfn-variants.md)",
    "serve.no_show": "do not open a browser",
    "serve.computer": "the side the computer plays (the hard player unless the page picks "
                      "another: docs/bots.md)",
    "serve.rooms": "serve rooms for a class instead of one dashboard: a seat link per side, "
                   "every action stored in this SQLite file (docs/rooms-seats.md)",
    "serve.teacher_key": "with --rooms: the key of the teacher's page /teacher?key=KEY "
                         "(default: WARGAME_TEACHER_KEY or a random key, printed)",
    "serve.rooms_folder": "--rooms {path}: expected an SQLite file, found a folder",
    "autoplay.scenario": "a bundled id (wargame scenario list)",
    "autoplay.allied": "who plays the Allies (default: greedy in campaigns, random in "
                       "Memoir '44); the campaigns' hard player takes settings after a colon: "
                       "hard:worlds=2 (docs/bots.md)",
    "autoplay.axis": "who plays the Axis (as --allied)",
    "autoplay.seed": "seed of the first game",
    "autoplay.games": "games, seeds seed, seed+1, ...",
    "variant": "optional rule, repeatable (see serve --help)",
    "autoplay.save": "write the last game's save file",
    "autoplay.quiet": "no progress lines on stderr",
    "save.not_folder": "not a folder",
    "save.denied": "permission denied",
})


# argparse's own words ("usage:", "options", its error messages), which it passes through
# gettext's ``_``: while the command line runs, that ``_`` reads them from this catalogue, so
# ``wargame --lang pt odds --help`` is Portuguese throughout. Keys: argparse's English msgids.
ARGPARSE_TEXT = Catalogue("cli.argparse", {
    "usage": "usage: ",
    "options": "options",
    "positional": "positional arguments",
    "help": "show this help message and exit",
    "error": "%(prog)s: error: %(message)s\n",
    "argument": "argument %(argument_name)s: %(message)s",
    "invalid_choice": "invalid choice: %(value)r (choose from %(choices)s)",
    "invalid_type": "invalid %(type)s value: %(value)r",
    "required": "the following arguments are required: %s",
    "unrecognized": "unrecognized arguments: %s",
    "expected_one": "expected one argument",
    "expected_at_most_one": "expected at most one argument",
    "expected_at_least_one": "expected at least one argument",
    "ambiguous": "ambiguous option: %(option)s could match %(matches)s",
    "not_allowed": "not allowed with argument %s",
    "one_required": "one of the arguments %s is required",
    "ignored_explicit": "ignored explicit argument %r",
}, plurals={
    # argparse's ngettext (an option of nargs=N given fewer words)
    "expected_n": ("expected %s argument", "expected %s arguments"),
})


# wargame study (wargame.analysis.study; docs/studies.md)
STUDY_TEXT = Catalogue("cli.study", {
    "help": "many seeded computer-played campaigns in parallel on Dask: win rates, VP, "
            "capture turns (docs/studies.md)",
    "wins": "Allies won {allied_wins} ({ar:.1%}, 95% CI {al:.1%}-{ah:.1%}), Axis "
            "{axis_wins} ({xr:.1%}, 95% CI {xl:.1%}-{xh:.1%}), drawn {draws}",
    "vp": "mean VP: Allies {a:.1f} (95% CI {al:.1f}-{ah:.1f}), Axis {x:.1f} "
          "(95% CI {xl:.1f}-{xh:.1f})",
    "lost": "mean units lost: Allies {a:.1f}, Axis {x:.1f}",
    "city": "  {city}: taken in {share:.0%} of games{turn}",
    "city_turn": ", on turn {turn:.1f} on average",
    "cities": "victory cities (first held whole by the Allies):",
    "table": "table: {path}",
    "scheduler": "--scheduler {address}: cannot reach the Dask scheduler ({error})",
    "workers": "--workers: must be a whole number >= 1, got 0",
    "workers_max": "--workers: at most {high} (twice the {cores} cores of this machine), got "
                   "{value}",
    "games_max": "--games: at most {high} games in one study, got {value}",
    "seed_games": "--seed {seed} with --games {games}: a game's seed (seed * 1000003 + game) "
                  "would be {value}, beyond what a save holds (-2**63 to 2**63 - 1); give a "
                  "--seed from {low} to {high}",
    "out_file": "--out {folder}: that is a file; give a folder",
    "out_error": "--out {folder}: {reason}",
    "opt.scenario": "a bundled id (wargame scenario list): dragoon, normandy, memoir44-1...",
    "opt.games": "games in the study",
    "opt.seed": "the study's seed (game i: seed * 1000003 + i)",
    "opt.workers": "local worker processes (default: one per core)",
    "opt.scheduler": "a running Dask scheduler, e.g. tcp://host:8786 (instead of local)",
    "opt.axis": "as --allied",
    "opt.whatif": "a what-if YAML file (docs/studies.md)",
    "opt.out": "folder of the results (default study-SCENARIO-seedN); an unfinished study "
               "there resumes",
    "opt.json": "print the summary as JSON",
    "opt.quiet": "no progress bar on stderr",
    "opt.retry_failed": "play again the games --out records as failed (skipped otherwise)",
    "opt.dashboard": "start Dask's dashboard, on 127.0.0.1 only; its address goes to stderr",
    "dashboard": "Dask dashboard: {link}",
    "failed_row": "  game {game}, seed {seed}: {error_type}: {error_message} ({error_where}; "
                  "after {actions} actions, turn {last_turn})",
    "failed": "{failed} of {total} games failed (seeds {seeds}); the others are summarised; "
              "--retry-failed plays them again",
    "more_seeds": "{seeds} and {more} more",
    "no_extra": "wargame study needs Dask and tqdm, which are not installed here ({missing}): "
                "pip install 'wargame[study]'",
}, plurals={
    "head": ("study {name} ({scenario}, seed {seed}): {games} game, {allied} Allies vs {axis} "
             "Axis; {played} played now, {resumed} already done",
             "study {name} ({scenario}, seed {seed}): {games} games, {allied} Allies vs {axis} "
             "Axis; {played} played now, {resumed} already done"),
    "failed_head": ("{failed} game failed and is not counted above (records in {folder}):",
                    "{failed} games failed and are not counted above (records in {folder}):"),
})


# wargame rooms (wargame.rooms; docs/architecture.md "Rooms")
ROOMS_TEXT = Catalogue("cli.rooms", {
    "help": "list, export and delete the rooms of a rooms database (wargame serve --rooms)",
    "db": "the rooms database (SQLite file)",
    "list": "every room: id, code, game, actions, whose turn or the result",
    "export": "write one room as a save file (load it in the dashboard)",
    "delete": "delete one room (its links and code stop working); stop the server first",
    "head": "{id:<14} {code:<7} {game:<22} {actions:>7}  {created:<17} {status}",
    "row": "{id:<14} {code:<7} {game:<22} {actions:>7}  {created:<17} {status}",
    "to_act": "{seat} to act",
    "unloaded": "{id:<14} not resumable: {why}",
    "none": "no rooms in {path}",
    "missing": "{path}: no such rooms database",
    "no_room": "no room {room!r} in {path} (wargame rooms list --db {path})",
    "deleted": "room {room} deleted",
    "room_id": "the room's id (wargame rooms list); one starting with - goes after --, as in "
               "'delete --db F -- -Xb3'",
    "file": "the save file to write",
    "file_folder": "FILE {path}: that is a folder; give a file name",
    "file_parent": "FILE {path}: cannot write there (its folder is missing, not a folder or "
                   "not writable)",
    "col.id": "ROOM",
    "col.code": "CODE",
    "col.game": "GAME",
    "col.actions": "ACTIONS",
    "col.created": "CREATED (UTC)",
    "col.status": "STATUS",
}, plurals={
    "exported": ("room {room} ({actions} action) saved to {path}",
                 "room {room} ({actions} actions) saved to {path}"),
})
