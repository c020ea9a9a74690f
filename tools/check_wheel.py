"""Build the wheel and try it as a teacher's laptop would (issue #29 item 3; run by make test).

    python tools/check_wheel.py [--keep DIR] [--with-deps]

1. Copies the work tree (tracked and new files, not .venv/build/caches) to a temporary folder
   and builds the wheel there with ``pip wheel --no-deps`` (an isolated build: pip installs
   the build requirements of pyproject.toml, setuptools and Babel; setup.py compiles the
   catalogues into it). Fails on any warning of setuptools (a data folder not declared as a
   package, a deprecated setting). The work tree gets no build/ or egg-info folder.
2. Checks the wheel's files: every bundled scenario file, a compiled catalogue (.mo) per
   language of ``wargame.i18n``, no .po source, no tests.
3. Makes a fresh venv and installs the wheel into it with ``--no-deps``. Its dependencies
   come from the environment running this script (a ``.pth`` line naming that environment's
   site-packages, after the venv's own): nothing is downloaded, and the wheel's wargame is the
   one imported (checked: its ``__file__`` is in the new venv), not the checkout's.
   ``--with-deps`` installs the dependencies from the package index instead (pinned by
   constraints.txt), as ``pip install`` on a laptop would.
4. From another folder, with an empty WARGAME_HOME and no PYTHONPATH, runs the installed
   ``wargame``: ``--version``, ``class --help``, ``serve --help``, ``scenario list`` in
   English and Portuguese (the Portuguese must come from the .mo), a Memoir '44 autoplay
   game, the notebooks' imports, and ``wargame class --lang pt --no-show`` itself: it must
   print the students' link and the teacher's, the students' page must answer through the
   printed address, and Ctrl+C (SIGINT) must stop it with exit code 0.

Prints each step with its time; exits 1 with the failing step's output. Measured here (2
cores shared with other jobs, under nice 19): 53 s, of which the isolated build 18 s and
``wargame class`` 11 s; with ``--with-deps`` 375 s (the install from the index 198 s).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COPY_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "test-artifacts", "__pycache__", "build", "dist", "*.egg-info",
    ".pytest_cache", ".ruff_cache", ".mypy_cache", ".hypothesis", ".ipynb_checkpoints", "*.mo")
LANGUAGES = ("pt",)  # the catalogues besides English (wargame.i18n.LANGUAGES less "en")


class Failed(Exception):
    pass


def step(name: str):
    print(f"- {name} ...", end=" ", flush=True)
    return time.time()


def done(started: float, note: str = "") -> None:
    print(f"ok ({time.time() - started:.1f} s){'; ' + note if note else ''}", flush=True)


def run(cmd: list[str], **kwargs) -> str:
    result = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise Failed(f"{' '.join(map(str, cmd))} -> exit {result.returncode}\n"
                     f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result.stdout


def build_wheel(work: Path) -> Path:
    started = step("build the wheel (pip wheel --no-deps, isolated)")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=COPY_IGNORE)
    dist = work / "dist"
    log = run([sys.executable, "-m", "pip", "wheel", "--verbose", "--no-deps", "--wheel-dir",
               str(dist), str(source)], timeout=600)
    # setuptools' own complaints (a data folder not declared, a deprecated setting)
    complaints = [line.strip() for line in log.splitlines()
                  if "BuildBackendWarning" in line or "DeprecationWarning" in line]
    if complaints:
        raise Failed("the build warns:\n" + "\n".join(complaints[:10]))
    wheels = sorted(dist.glob("wargame-*.whl"))
    if len(wheels) != 1:
        raise Failed(f"expected one wargame wheel in {dist}, found {wheels}")
    done(started, f"{wheels[0].name}, {wheels[0].stat().st_size // 1024} KiB")
    return wheels[0]


def check_contents(wheel: Path) -> None:
    started = step("check the wheel's files")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"wargame/scenarios/{p.relative_to(ROOT / 'scenarios').as_posix()}"
                for p in (ROOT / "scenarios").rglob("*")
                if p.is_file() and "__pycache__" not in p.parts}
    missing = sorted(expected - names)
    if missing:
        raise Failed(f"scenario files missing from the wheel: {missing[:10]}")
    for lang in LANGUAGES:
        if f"wargame/locale/{lang}/LC_MESSAGES/wargame.mo" not in names:
            raise Failed(f"no compiled catalogue for {lang!r} in the wheel")
    extra = sorted(n for n in names if n.endswith((".po", ".pot")) or n.startswith("tests/"))
    if extra:
        raise Failed(f"files that should not ship: {extra[:10]}")
    done(started, f"{len(names)} files, {len(expected)} scenario files, "
                  f"{len(LANGUAGES)} compiled catalogue(s)")


def make_venv(work: Path, wheel: Path, with_deps: bool) -> Path:
    started = step("fresh venv, install the wheel" + (" with its dependencies" if with_deps
                                                      else " (--no-deps)"))
    venv = work / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]
    if with_deps:
        run([*pip, "-c", str(ROOT / "constraints.txt"), str(wheel)], timeout=900)
    else:
        run([*pip, "--no-deps", "--no-index", str(wheel)])
        site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                         "['purelib'])"]).strip())
        here = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
        # a plain path line: the directory joins sys.path after the venv's own site-packages,
        # and its .pth files (the checkout's editable finder among them) are not run
        (site / "zz_dependencies_from_outer_env.pth").write_text("\n".join(sorted(here)) + "\n")
    done(started)
    return venv


def smoke(venv: Path, work: Path) -> None:
    wargame = str(venv / "bin" / "wargame")
    python = str(venv / "bin" / "python")
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "VIRTUAL_ENV", "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(WARGAME_HOME=str(work / "home"), PATH=f"{venv / 'bin'}:{env.get('PATH', '')}")
    kw = {"cwd": elsewhere, "env": env, "timeout": 300}

    started = step("the installed package, the compiled catalogue, the notebooks' imports")
    out = run([python, "-c", (
        "import wargame, wargame.i18n as i, wargame.ui, wargame.ui.serve, "
        "wargame.analysis.explore, wargame.class_server, segno; "
        "from wargame.operational.state import Game; from wargame.ui import CampaignDashboard; "
        "po, mo = i.catalogue_files('pt'); "
        "print(wargame.__file__); print(po.exists(), mo.exists()); "
        "print(len(i.translations('pt'))); print(len(Game('normandy').units))")], **kw).split("\n")
    if str(venv) not in out[0]:
        raise Failed(f"wargame imported from {out[0]}, not from the new venv {venv}")
    if out[1] != "False True" or int(out[2]) < 100:
        raise Failed(f".po present / .mo present: {out[1]}; {out[2]} Portuguese messages")
    done(started, f"{out[2]} Portuguese messages from the .mo; {out[3]} Normandy units")

    started = step("wargame --version, class --help, serve --help")
    version = run([wargame, "--version"], **kw).strip()
    if not re.fullmatch(r"wargame \d+\.\d+\.\d+\S*", version):
        raise Failed(f"wargame --version printed {version!r}")
    if "--teacher-key" not in run([wargame, "class", "--help"], **kw):
        raise Failed("wargame class --help does not list --teacher-key")
    if "--rooms" not in run([wargame, "serve", "--help"], **kw):
        raise Failed("wargame serve --help does not list --rooms")
    done(started, version)

    started = step("wargame scenario list (en, pt)")
    english = run([wargame, "scenario", "list"], **kw)
    portuguese = run([wargame, "--lang", "pt", "scenario", "list"], **kw)
    for needle, text in (("normandy", english), ("memoir44-1", english),
                         ("6 de junho a 24 de julho de 1944", portuguese)):
        if needle not in text:
            raise Failed(f"{needle!r} not in the scenario list:\n{text}")
    done(started, f"{len(english.splitlines())} scenarios")

    started = step("wargame autoplay (a Memoir '44 game, random players)")
    save = work / "home" / "last.json"
    out = run([wargame, "--lang", "pt", "autoplay", "--scenario", "memoir44-1", "--seed", "1",
               "--quiet", "--save", str(save)], **kw)
    if "ações" not in out or not save.is_file():
        raise Failed(f"autoplay printed:\n{out}")
    done(started, out.strip().splitlines()[-1][:100])

    started = step("wargame class --lang pt --no-show: the links, the page, Ctrl+C")
    port = free_port()
    proc = subprocess.Popen([wargame, "class", "--lang", "pt", "--no-show", "--port", str(port)],
                            cwd=elsewhere, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        deadline = time.time() + 120
        while not any("Ctrl+C" in line for line in lines):
            line = proc.stdout.readline()
            if not line and proc.poll() is not None:
                raise Failed("wargame class exited:\n" + "".join(lines))
            lines.append(line)
            if time.time() > deadline:
                raise Failed("wargame class printed no links within 120 s:\n" + "".join(lines))
        text = "".join(lines)
        students = re.search(rf"(http://[^\s]+:{port}/)", text)
        teacher = re.search(r"(http://[^\s]+/teacher\?key=\S{12,})", text)
        if not (students and teacher):
            raise Failed(f"no students' or teacher's link in:\n{text}")
        page = fetch(students.group(1), deadline=time.time() + 60)
        if "<html" not in page.lower():
            raise Failed(f"{students.group(1)} answered with no page:\n{page[:500]}")
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
        rest = proc.stdout.read()
        if code != 0:
            raise Failed(f"wargame class exited with {code} after Ctrl+C:\n{text}{rest}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    done(started, f"students' page {students.group(1)} answered 200")


def fetch(url: str, deadline: float) -> str:
    """The page at ``url`` (200), retried until ``deadline``: the links are printed just
    before the server starts listening."""
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as reply:
                return reply.read().decode("utf-8", "replace")
        except OSError as exc:
            if time.time() > deadline:
                raise Failed(f"{url} did not answer: {exc}") from None
            time.sleep(0.5)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it (default: a "
                        "temporary folder, removed at the end)")
    parser.add_argument("--with-deps", action="store_true",
                        help="install the wheel's dependencies from the package index")
    args = parser.parse_args(argv)
    started = time.time()
    work = Path(args.keep or tempfile.mkdtemp(prefix="wargame-wheel-"))
    if args.keep:
        shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    try:
        wheel = build_wheel(work)
        check_contents(wheel)
        venv = make_venv(work, wheel, args.with_deps)
        smoke(venv, work)
    except (Failed, subprocess.TimeoutExpired, OSError) as exc:
        print(f"FAILED\n{exc}", file=sys.stderr)
        return 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"the wheel works: {time.time() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
