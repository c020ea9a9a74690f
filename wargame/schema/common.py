"""Shared pieces of the data-file models: the base model, strict scalar types, hex ids,
validation context and the conversion of pydantic errors into ``ScenarioError``."""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar, get_args

from pydantic import (
    AllowInfNan,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
    ValidationInfo,
)
from pydantic_core import PydanticCustomError

from wargame.scenario_errors import JSON_DIGITS, LongNumber, ScenarioError

__all__ = [
    "Model",
    "OpenModel",
    "Int",
    "Bool",
    "Str",
    "Number",
    "NonNegInt",
    "PosInt",
    "HexId",
    "Side",
    "Nation",
    "Version1",
    "SIDES",
    "NATIONS",
    "expect",
    "expect_value",
    "ref_error",
    "ctx",
    "validate",
    "to_scenario_error",
    "too_deep",
    "non_finite",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "FiniteFloat",
]

SIDES = ("allied", "axis")
NATIONS = ("german", "american", "british", "canadian", "russian", "french")

Int = StrictInt
Bool = StrictBool
Str = StrictStr
# NaN and infinity are no number of any data file (issue #31: ``engage_ratio: .nan`` was
# accepted and its study could never resume): refused here with the field named, and anywhere
# in the data, an ``Any`` field too, by ``validate`` (``non_finite``)
FiniteFloat = Annotated[StrictFloat, AllowInfNan(False)]
Number = StrictInt | FiniteFloat
NonNegInt = Annotated[StrictInt, Field(ge=0)]
PosInt = Annotated[StrictInt, Field(ge=1)]
HexId = Annotated[StrictStr, Field(pattern=r"^[0-9]{4}$", description="a four-digit hex id CCRR")]
Side = Literal["allied", "axis"]
Nation = Literal["german", "american", "british", "canadian", "russian", "french"]

M = TypeVar("M", bound=BaseModel)


def expect_value(value: Any, got: Any = None, path: str = "") -> PydanticCustomError:
    """A validation error expecting a value itself (a format version: ``1``), the same in
    every language."""
    return PydanticCustomError(
        "expected", "{expected}", {"expected": str(value), "got": got, "path": path}
    )


def _not_bool(v: Any) -> Any:
    if isinstance(v, bool):
        raise expect_value(1, v)
    return v


Version1 = Annotated[Literal[1], BeforeValidator(_not_bool)]


class Model(BaseModel):
    """Closed mapping: an unknown (misspelt) key is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class OpenModel(BaseModel):
    """Open mapping: keys not described are kept and not checked."""

    model_config = ConfigDict(extra="allow", frozen=True)


def expect(key: str, got: Any = None, path: str = "", **data: Any) -> PydanticCustomError:
    """A validation error whose message is an expectation ("a hex of the map"): ``key`` is its
    id in the ``loader`` catalogue (wargame/error_texts.py) and ``data`` fills it, so that the
    ``ScenarioError`` made of it is in the reader's language (``to_scenario_error``)."""
    from wargame.error_texts import loader_text

    return PydanticCustomError(
        "expected", "{expected}",
        {"expected": loader_text(key, **data), "got": got, "path": path, "key": key,
         "data": data},
    )


def ref_error(path: str, key: str, got: Any, **data: Any) -> PydanticCustomError:
    """An error found by a model-level check, located at ``path`` below the model; ``key`` and
    ``data`` as for ``expect``."""
    return expect(key, got, path, **data)


def check_once(items: list[Any], attr: str, path: str, key: str,
               seen: set[Any] | None = None) -> set[Any]:
    """A model-level check that ``item.<attr>`` is listed once: the first repeat is an error at
    ``<path>[i].<attr>`` expecting the loader catalogue's ``key``. ``seen`` carries ids over
    from an earlier list; returns the ids."""
    seen = set() if seen is None else seen
    for i, item in enumerate(items):
        value = getattr(item, attr)
        if value in seen:
            raise ref_error(f"{path}[{i}].{attr}", key, value)
        seen.add(value)
    return seen


def ctx(info: ValidationInfo, key: str) -> Any:
    """A cross-reference set passed in the validation context (None: not checked)."""
    context = info.context
    if not isinstance(context, dict):
        return None
    return context.get(key)


def check_in(value: Any, names: Iterable[str] | None, key: str, **data: Any) -> Any:
    """``value`` if it is one of ``names`` (None: not checked), else the error expecting the
    loader catalogue's ``key`` with ``data``."""
    if names is not None and value not in names:
        raise expect(key, value, **data)
    return value


# --- pydantic errors -> ScenarioError ------------------------------------------------------
def _plain(items: Any, limit: int = 8) -> str:
    items = list(items)
    shown = ", ".join(repr(i) for i in items[:limit])
    return shown + (", ..." if len(items) > limit else "")


def _expected_key(err: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The loader catalogue's key and data of a pydantic error's expectation
    (wargame/error_texts.py), or None for the models' own texts."""
    kind = err["type"]
    c = err.get("ctx") or {}
    if kind == "missing":
        return "schema.missing", {}
    if kind == "extra_forbidden":
        return "schema.documented_key", {}
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "schema.whole_number", {}
    if kind in ("float_type", "float_parsing"):
        return "schema.number", {}
    if kind == "finite_number":
        return "schema.finite", {}
    if kind in ("bool_type", "bool_parsing"):
        return "schema.bool", {}
    if kind in ("string_type",):
        return "schema.text", {}
    if kind in ("list_type", "tuple_type", "set_type"):
        return "schema.list", {}
    if kind in ("dict_type", "model_type", "model_attributes_type", "mapping_type"):
        return "schema.mapping", {}
    if kind == "literal_error":
        return "schema.one_of", {"options": c.get("expected")}
    if kind == "string_pattern_mismatch":
        if c.get("pattern") == r"^[0-9]{4}$":
            return "schema.hex_id", {}
        return "schema.pattern", {"pattern": c.get("pattern")}
    if kind == "greater_than_equal":
        return "schema.ge", {"limit": c.get("ge")}
    if kind == "greater_than":
        return "schema.gt", {"limit": c.get("gt")}
    if kind == "less_than_equal":
        return "schema.le", {"limit": c.get("le")}
    if kind in ("too_short", "too_long"):
        lo, hi = c.get("min_length"), c.get("max_length")
        if kind == "too_short":
            return ("schema.min_items", {"count": lo}) if lo else ("schema.non_empty", {})
        return "schema.max_items", {"count": hi}
    if kind == "string_too_short":
        return "schema.non_empty_text", {}
    if kind == "union_tag_invalid":
        return "schema.tag_among", {"tag": c.get("discriminator", "kind"),
                                    "tags": c.get("expected_tags")}
    if kind == "union_tag_not_found":
        return "schema.tag_missing", {"tag": c.get("discriminator", "kind")}
    return None


def _expected(err: dict[str, Any]) -> str:
    keyed = _expected_key(err)
    if keyed is not None:
        from wargame.error_texts import LOADER

        key, data = keyed
        return LOADER.english[key].format(**data)
    if err["type"] == "expected":
        return str((err.get("ctx") or {}).get("expected"))
    if err["type"] == "value_error":
        return str(err.get("msg", "")).removeprefix("Value error, ")
    return str(err.get("msg", err["type"]))


def _path(loc: tuple[Any, ...], data: Any, extra: str = "") -> str:
    """A field path like ``rules.naval_support.columns`` or ``units[3].attack``.

    pydantic puts union tags and validator names in ``loc``; only the steps that exist in the
    data (plus a final missing/unknown key) are kept.
    """
    out = ""
    node = data
    for i, step in enumerate(loc):
        last = i == len(loc) - 1
        if step == "[key]":
            continue
        if isinstance(node, list) and isinstance(step, int):
            out += f"[{step}]"
            node = node[step] if 0 <= step < len(node) else None
        elif isinstance(node, dict) and (step in node or (str(step) in map(str, node))):
            key = step if step in node else next(k for k in node if str(k) == str(step))
            out += f".{step}" if out else str(step)
            node = node[key]
        elif last and isinstance(node, dict) and isinstance(step, str | int):
            out += f".{step}" if out else str(step)
            node = None
    if extra:
        out = f"{out}.{extra}" if out and not extra.startswith("[") else f"{out}{extra}"
    return out or "(top level)"


def _field_names(model: Any, seen: set[Any] | None = None) -> set[str]:
    """Every key (alias or field name) a model and the models inside it know."""
    seen = set() if seen is None else seen
    names: set[str] = set()
    if isinstance(model, type) and issubclass(model, BaseModel):
        if model in seen:
            return names
        seen.add(model)
        for name, f in model.model_fields.items():
            names.add(f.alias or name)
            names |= _field_names(f.annotation, seen)
        return names
    for arg in get_args(model):
        names |= _field_names(arg, seen)
    return names


def _close_key(model: type[BaseModel], key: Any) -> str:
    """The documented key closest to a misspelt ``key``, "" if none is close."""
    close = difflib.get_close_matches(str(key), sorted(_field_names(model)), n=1, cutoff=0.75)
    return close[0] if close else ""


def to_scenario_error(
    exc: ValidationError, file: str | Path, data: Any, model: type[BaseModel] | None = None
) -> ScenarioError:
    errors = exc.errors(include_url=False)
    err = errors[0]  # the first problem in document order...
    if err["type"] == "missing":
        # ...but a misspelt key is both missing and unknown: name the unknown one
        parent = tuple(err["loc"][:-1])
        err = next((e for e in errors if e["type"] == "extra_forbidden"
                    and tuple(e["loc"][:-1]) == parent), err)
    c = err.get("ctx") or {}
    path = _path(
        tuple(err["loc"]), data, str(c.get("path") or "") if err["type"] == "expected" else ""
    )
    keyed = _expected_key(err)
    if err["type"] == "missing":
        return ScenarioError.keyed(file, path, "schema.missing")
    got = (
        c.get("got") if err["type"] == "expected" and c.get("got") is not None else err.get("input")
    )
    if err["type"] == "extra_forbidden":
        # the key is named by the field path; its value does not matter
        close = _close_key(model, err["loc"][-1]) if model is not None and err["loc"] else None
        if close is None:
            return ScenarioError.keyed(file, path, "schema.documented_key")
        if close:
            return ScenarioError.keyed(file, path, "schema.documented_key_close", close=close)
        return ScenarioError.keyed(file, path, "schema.documented_key_misspelt")
    if keyed is not None:
        return ScenarioError.keyed(file, path, keyed[0], got, **keyed[1])
    if err["type"] == "expected" and c.get("key"):
        return ScenarioError.keyed(file, path, c["key"], got, **(c.get("data") or {}))
    return ScenarioError(file, path, _expected(err), got)


MAX_DEPTH = 40


def too_deep(data: Any, limit: int = MAX_DEPTH) -> str | None:
    """The field path of the first value nested more than ``limit`` mappings/lists deep, or
    None. Iterative (a list nested 100 000 deep is measured without recursion) and linear:
    the path is only spelt out for the value found."""
    if not isinstance(data, dict | list | tuple):
        return None
    stack = [iter(data.items() if isinstance(data, dict) else enumerate(data))]
    keys: list[tuple[Any, bool]] = []  # the key of each open container, and "in a list?"
    in_list = [isinstance(data, list | tuple)]
    while stack:
        for key, child in stack[-1]:
            if isinstance(child, dict | list | tuple):
                keys.append((key, in_list[-1]))
                if len(keys) > limit:
                    return "".join(f"[{k}]" if listed else f".{k}" for k, listed in keys
                                   ).lstrip(".")
                stack.append(iter(child.items() if isinstance(child, dict)
                                  else enumerate(child)))
                in_list.append(not isinstance(child, dict))
                break
        else:
            stack.pop()
            in_list.pop()
            if keys:
                keys.pop()
    return None


# No whole number of a data file or save needs more digits than this (a seed is at most
# 2**63 - 1: 19 digits); a longer one is refused by ``validate`` naming its field, before
# anything formats it (Python refuses ints of over 4,300 digits as text, and slowly).
MAX_DIGITS = JSON_DIGITS
_MAX_INT = 10**MAX_DIGITS


def non_finite(data: Any) -> tuple[str, Any] | None:
    """The field path and value of the first NaN or infinite float, or whole number of more
    than ``MAX_DIGITS`` digits, in ``data`` (mappings and lists, any depth), or None.
    Iterative and linear, like ``too_deep`` (which ``validate`` runs first): the path is only
    spelt out for the value found (a list of 50,000 numbers is scanned in milliseconds)."""
    def bad(value: Any) -> bool:
        if isinstance(value, float):
            return not math.isfinite(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return not -_MAX_INT < value < _MAX_INT
        return False

    if not isinstance(data, dict | list | tuple):
        return ("(top level)", data) if bad(data) else None
    stack = [iter(data.items() if isinstance(data, dict) else enumerate(data))]
    keys: list[tuple[Any, bool]] = []  # the key of each open container, and "in a list?"
    in_list = [isinstance(data, list | tuple)]
    while stack:
        for key, child in stack[-1]:
            if isinstance(child, dict | list | tuple):
                keys.append((key, in_list[-1]))
                stack.append(iter(child.items() if isinstance(child, dict)
                                  else enumerate(child)))
                in_list.append(not isinstance(child, dict))
                break
            if bad(child):
                path = "".join(f"[{k}]" if listed else f".{k}"
                               for k, listed in [*keys, (key, in_list[-1])]).lstrip(".")
                return path, child
        else:
            stack.pop()
            in_list.pop()
            if keys:
                keys.pop()
    return None


def _number_error(file: str | Path, path: str, value: Any) -> ScenarioError:
    if isinstance(value, float):
        return ScenarioError.keyed(file, path, "schema.finite", str(value))
    if isinstance(value, LongNumber):  # read from JSON text (json_int)
        digits = value.digits
    else:  # str() of a huge int is refused (and slow): its length from its bits
        digits = int(abs(value).bit_length() * math.log10(2)) + 1
    return ScenarioError.keyed(file, path, "schema.digits", f"{digits} digits",
                               digits=MAX_DIGITS)


def validate(
    model: type[M], data: Any, file: str | Path, context: dict[str, Any] | None = None
) -> M:
    """Validate parsed data against a model; a ScenarioError naming the file and field if not.

    Data nested more than ``MAX_DEPTH`` levels is refused first (no data file needs it, and
    pydantic, repr and json would otherwise recurse through it), then NaN, infinity and
    numbers of more than ``MAX_DIGITS`` digits anywhere (``non_finite``)."""
    deep_path = too_deep(data)
    if deep_path is not None:
        cut = deep_path if len(deep_path) <= 60 else deep_path[:57] + "..."
        raise ScenarioError.keyed(file, cut or "(top level)", "schema.nested_max",
                                  depth=MAX_DEPTH)
    bad = non_finite(data)
    if bad is not None:
        raise _number_error(file, *bad)
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise to_scenario_error(exc, file, data, model) from None
    except RecursionError:
        raise ScenarioError.keyed(file, "(structure)", "schema.nested_less") from None
