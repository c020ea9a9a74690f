"""What the dashboards use of Panel's, Bokeh's, jupyter_bokeh's and panel_material_ui's
internals, in one table (issue #35 item 8): each private or undocumented name and what for.
All of them are reached from ``wargame/ui/panel_internals.py`` alone, through small named
functions and classes that the other modules call. After an upgrade, the first test names what
is gone; the completeness test keeps the table whole and the reaches confined: a reach into a
private name of those packages from any other module of wargame/, or one in panel_internals
that the table does not list, fails it.

What counts as a reach (``reaches``): a private attribute (``x._name``) that no module of
wargame/ defines itself (no ``def _name``, ``_name =`` or ``self._name =`` anywhere), a private
name or a ``panel.io.*`` / ``bokeh.io.*`` module imported from those packages, a method or class
attribute of a wargame class that overrides a private one of its Panel base (other than
``DOCUMENTED``), and a private name given as a string (``getattr(x, "_name")``, a patch of
``"_name"``) that wargame does not define. ``NOT_PANEL`` lists the reaches of this kind into
other libraries' private names, which the scan cannot tell from Panel's by their name alone."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOME = "wargame/ui/panel_internals.py"
LIBRARIES = ("panel", "bokeh", "jupyter_bokeh", "panel_material_ui")
DOCUMENTED = {"_esm", "_importmap", "_stylesheets", "_rename", "_repr_mimebundle_"}
"""JSComponent's documented declarations (Panel's JSComponent reference), and IPython's
display protocol."""
BY_NAME = {"getattr", "setattr", "hasattr", "delattr", "_replace", "_patched",
           "panel_original"}
"""Calls that reach an attribute by a name given as a string (panel_internals' patches)."""
NOT_PANEL = {("wargame/i18n.py", "_catalog"): "the messages of a gettext GNUTranslations"}


def _widget_model():
    import jupyter_bokeh
    from bokeh.models import Div

    return jupyter_bokeh.BokehModel(Div())


INTERNALS = [
    # (where the name lives: a dotted path, "()" for an instance, or a function making the
    # holder; the name; what panel_internals uses it for)
    ("panel.io.server", "ComponentResourceHandler",
     "component_resource_handler: the /components/ handler, which wargame serve limits to "
     "imported component packages"),
    ("panel.io.resources", "COMPONENT_PATH", "component_path: the URL prefix of that handler"),
    ("panel.io.resources", "set_resource_mode",
     "inline_ipywidget: inline resources for the notebook widget (the Load button's script)"),
    ("panel.io.notebook", "patch_inline_stylesheets",
     "inline_ipywidget: the widget's stylesheets inlined as pn.extension(inline=True) does"),
    ("jupyter_bokeh.BokehModel", "update_from_model",
     "inline_ipywidget: the widget's render bundle rebuilt after its stylesheets are inlined"),
    (_widget_model, "_model", "inline_ipywidget: the widget's Bokeh root, its render bundle"),
    ("panel.io.state", "set_curdoc",
     "in_session (a room's news applied in the session of its page) and ordered_callbacks"),
    ("panel.io.state.state", "_thread_pool", "ordered_callbacks: the served pages' thread pool"),
    ("panel.io.state.state", "_change_callbacks",
     "ordered_callbacks: a document's pending (debounced) widget changes"),
    ("panel.io.state.state", "_handle_exception", "ordered_callbacks: Panel's error report"),
    ("panel.io.state.state", "_handle_future_exception",
     "ordered_callbacks: Panel's error report of a pool task"),
    ("panel.reactive.Syncable", "_change_coroutine",
     "ordered_callbacks: replaced (tests/ui/test_ordered_callbacks.py pins its source)"),
    ("panel.reactive.Syncable", "_event_coroutine", "ordered_callbacks: replaced"),
    ("panel.reactive.Syncable", "_comm_event", "ordered_callbacks: replaced"),
    ("panel.reactive.Syncable", "_change_event", "ordered_callbacks: a widget change, run"),
    ("panel.reactive.Syncable", "_process_bokeh_event", "ordered_callbacks: an event, run"),
    ("panel.pane.markup.HTMLBasePane", "_update",
     "steady_stylesheets: an HTML pane's text change sends only the text, not its stylesheets "
     "again (tests/ui/test_steady_stylesheets.py)"),
    ("panel.pane.HTML()", "_get_properties",
     "steady_stylesheets: the properties that update would send"),
    ("bokeh.document.Document()", "_template_variables",
     "set_dist_url: the notebook's dist_url for the panels created later"),
    ("panel.viewable.Viewer", "_create_view", "view_of: the Panel object a dashboard shows"),
    ("panel.pane.HTML()", "_models", "view_roots: the Bokeh roots a view is drawn in"),
    ("panel.custom.JSComponent", "_send_msg",
     "BrowserMessages.send_to_browser: messages to the browser side of the game keeper and "
     "the Load button"),
    ("panel.custom.JSComponent", "_handle_msg",
     "BrowserMessages: the browser's messages (overridden; the component's own called on)"),
    ("panel_material_ui.FileInput", "_handle_msg",
     "ChunkedUpload.component_message: a finished upload into the input's value"),
    ("panel_material_ui.FileInput", "_process_chunk", "ChunkedUpload.add_chunk"),
    ("panel_material_ui.FileInput()", "_file_buffer",
     "ChunkedUpload.chunks_received and forget_upload: the chunks received per file"),
    ("panel_material_ui.FileInput()", "_buffer",
     "ChunkedUpload.forget_upload: the files received, not yet in the value"),
    ("panel.reactive.Reactive", "_update_properties",
     "lean_property_updates: replaced, a property change without the design's resolution "
     "(tests/ui/test_lean_updates.py)"),
    ("panel.pane.HTML()", "_process_param_change",
     "lean_property_updates: an HTML pane's new text as its model's property, alone"),
]


def _resolve(path):
    if callable(path):
        return path()
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


def _label(where) -> str:
    return where if isinstance(where, str) else f"{where.__name__}()"


@pytest.mark.parametrize("where, name, purpose", INTERNALS,
                         ids=[f"{_label(w)}.{n}" for w, n, _ in INTERNALS])
def test_each_internal_the_dashboards_use_is_still_there(where, name, purpose):
    try:
        holder = _resolve(where)
    except (ImportError, AttributeError, TypeError) as exc:
        pytest.fail(f"{_label(where)} is gone ({exc}): {HOME} uses it in {purpose}")
    assert hasattr(holder, name), f"{_label(where)}.{name} is gone: {HOME} uses it in {purpose}"


def _private(name: str) -> bool:
    return (name.startswith("_") and name.strip("_") != ""
            and not (name.startswith("__") and name.endswith("__")))


def _trees() -> dict[str, ast.Module]:
    return {str(p.relative_to(ROOT)): ast.parse(p.read_text(encoding="utf-8"))
            for p in sorted((ROOT / "wargame").rglob("*.py"))}


def _owned(trees: dict[str, ast.Module]) -> set[str]:
    """The private names wargame defines for itself (functions, classes, variables, arguments,
    attributes of ``self``/``cls``)."""
    owned = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                owned.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                owned.add(node.id)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                owned.add(node.attr)  # (stored on another object: a reach, unless owned)
            elif isinstance(node, ast.arg):
                owned.add(node.arg)
    return {name for name in owned if _private(name)}


def _overrides(module_name: str, tree: ast.Module) -> list[tuple[int, str]]:
    """Methods and class attributes of the module's classes that override a private one of a
    Panel/Bokeh base class."""
    found: list[tuple[int, str]] = []
    classes = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    if not classes:
        return found
    module = importlib.import_module(module_name)
    for node in classes:
        cls = getattr(module, node.name, None)
        if not inspect.isclass(cls):
            continue
        bases = [b for b in cls.__mro__[1:] if b.__module__.split(".")[0] in LIBRARIES]
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                names = [item.name]
            elif isinstance(item, ast.Assign | ast.AnnAssign):
                targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                names = [t.id for t in targets if isinstance(t, ast.Name)]
            else:
                continue
            found += [(item.lineno, f"overrides {name}") for name in names
                      if _private(name) and name not in DOCUMENTED
                      and any(name in vars(b) for b in bases)]
    return found


def reaches(rel: str, tree: ast.Module, owned: set[str]) -> list[tuple[int, str]]:
    """Where module ``rel`` reaches into a private name of Panel, Bokeh, jupyter_bokeh or
    panel_material_ui (module doc): (line, name)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            if node.attr not in owned:
                found.append((node.lineno, node.attr))
        elif (isinstance(node, ast.ImportFrom) and node.module
              and node.module.split(".")[0] in LIBRARIES):
            parts = node.module.split(".")
            if len(parts) > 2 and parts[1] == "io" or any(map(_private, parts)):
                found.append((node.lineno, node.module))
            found += [(node.lineno, a.name) for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in BY_NAME:
            found += [(node.lineno, arg.value) for arg in node.args
                      if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                      and _private(arg.value) and arg.value not in owned]
    module_name = rel.removesuffix(".py").replace("/", ".")
    return sorted(found + _overrides(module_name, tree))


def test_every_reach_into_an_internal_is_in_panel_internals_and_in_the_table():
    trees = _trees()
    home = trees.pop(HOME)
    owned = _owned(trees)
    elsewhere = [f"{rel}:{line}: {name}" for rel, tree in trees.items()
                 for line, name in reaches(rel, tree, owned) if (rel, name) not in NOT_PANEL]
    assert elsewhere == [], f"reaches into Panel's internals outside {HOME}: move them there"
    listed = {name for _, name, _ in INTERNALS} | {
        where for where, _, _ in INTERNALS if isinstance(where, str)}
    unlisted = [f"{HOME}:{line}: {name}" for line, name in reaches(HOME, home, owned)
                if name not in listed]
    assert unlisted == [], "reaches in panel_internals missing from INTERNALS: list them"


def _scan(source: str, owned: frozenset[str] = frozenset()) -> list[str]:
    return [name for _, name in reaches("probe", ast.parse(source), set(owned))]


def test_the_scan_sees_a_reach():
    assert _scan("from panel.io.state import set_curdoc\n") == ["panel.io.state"]
    assert _scan("root = w._model\n") == ["_model"]
    assert _scan("HTMLBasePane._update = f\n") == ["_update"]
    assert _scan("_replace(HTMLBasePane, '_update', f)\n") == ["_update"]
    assert _scan("x = getattr(state, '_thread_pool')\n") == ["_thread_pool"]
    assert _scan("from panel.io import hold\nimport panel as pn\nself._layout = 1\n"
                 "y = self._layout\n", frozenset({"_layout"})) == []
    assert _scan("from bokeh.models import ColumnDataSource\n") == []


def test_the_scan_sees_an_override_of_a_private_method():
    # BrowserKeep (a JSComponent) as it was before BrowserMessages: its own _handle_msg
    source = "class BrowserKeep:\n    _esm = ''\n    def _handle_msg(self, data):\n        pass\n"
    assert reaches("wargame/ui/keeper.py", ast.parse(source), set()) == [
        (3, "overrides _handle_msg")]
