"""What the dashboards use of Panel's and Bokeh's internals, in one table (issue #35 item 8):
each private or undocumented name, the module that uses it and what for. After an upgrade of
Panel, Bokeh or jupyter_bokeh, the first test names what is gone; the second keeps the table
whole: a new reach into an internal anywhere in wargame/ must be listed here.

Not yet done (item 8): the uses are spread over five modules, not confined to one; new ones go
to wargame/ui/panel_internals.py."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

INTERNALS = [
    # (module, attribute or None, used by, what for)
    ("panel.io.server", "ComponentResourceHandler", "wargame/ui/serve.py",
     "the /components/ handler limited to the imported component packages"),
    ("panel.io.resources", "COMPONENT_PATH", "wargame/ui/serve.py",
     "the URL prefix of that handler"),
    ("panel.io.resources", "set_resource_mode", "wargame/ui/widgets.py",
     "inline resources for the notebook widget (the Load button's script)"),
    ("panel.io.notebook", "patch_inline_stylesheets", "wargame/ui/widgets.py",
     "the widget's stylesheets inlined as pn.extension(inline=True) does"),
    ("panel.io.state", "set_curdoc", "wargame/ui/room_page.py",
     "a room's news applied in the session of its page"),
    ("panel.custom.JSComponent", "_send_msg", "wargame/ui/keeper.py, wargame/ui/upload.py",
     "messages to the browser side of the game keeper and the Load button"),
    ("bokeh.document.Document()", "_template_variables", "wargame/ui/notebook.py",
     "the notebook's dist_url for the panels created later"),
    ("panel.pane.markup.HTMLBasePane", "_update", "wargame/ui/panel_internals.py",
     "an HTML pane's text change sends only the text, not its stylesheets again "
     "(tests/ui/test_steady_stylesheets.py)"),
    ("panel.pane.HTML()", "_get_properties", "wargame/ui/panel_internals.py",
     "the properties that update would send"),
    ("panel.reactive.Reactive", "_update_properties", "wargame/ui/panel_internals.py",
     "a property change without the design's resolution (tests/ui/test_lean_updates.py)"),
    ("panel.pane.HTML()", "_process_param_change", "wargame/ui/panel_internals.py",
     "an HTML pane's new text as its model's property, alone"),
    ("jupyter_bokeh.BokehModel", "update_from_model", "wargame/ui/widgets.py",
     "the widget's render bundle rebuilt after its stylesheets are inlined (w._model)"),
]
PRIVATE_USE = re.compile(r"from (?:panel|bokeh)\.io[.\w]* import|_send_msg|_template_variables|"
                         r"\w\._model\b")


def _resolve(path: str):
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]).removesuffix("()"))
        except ImportError:
            continue
        for name in parts[i:]:
            obj = getattr(obj, name.removesuffix("()"))
            if name.endswith("()"):
                obj = obj()
        return obj
    raise ImportError(path)


@pytest.mark.parametrize("module, name, user, purpose", INTERNALS)
def test_each_internal_the_dashboards_use_is_still_there(module, name, user, purpose):
    try:
        holder = _resolve(module)
    except (ImportError, AttributeError) as exc:
        pytest.fail(f"{module} is gone ({exc}): {user} uses it for {purpose}")
    assert hasattr(holder, name), f"{module}.{name} is gone: {user} uses it for {purpose}"


def test_every_reach_into_an_internal_is_in_the_table():
    listed = " ".join(user for _, _, user, _ in INTERNALS)
    found = []
    for path in sorted((ROOT / "wargame").rglob("*.py")):
        rel = str(path.relative_to(ROOT))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0]
            if PRIVATE_USE.search(code) and "hold" not in code and rel not in listed:
                found.append(f"{rel}:{n}: {line.strip()}")
    assert found == []


def test_the_scan_sees_a_reach():
    assert PRIVATE_USE.search("    from panel.io.state import set_curdoc")
    assert PRIVATE_USE.search("root = w._model")
    assert not PRIVATE_USE.search("import panel as pn")
