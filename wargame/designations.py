"""The units' designations (their names in units.yaml, English) in the reader's language
(issue #28): "16th Infantry Regiment" -> "Regimento de Infantaria 16".

Portuguese puts the number after the designation, as its army does ("Regimento de Infantaria
14"): no ordinal, no gender to agree with (docs/rules-notes.md, "Student words"). Pure: imports
only ``wargame.i18n``; ``wargame.event_text`` and ``wargame.student_text`` use it.
"""

from __future__ import annotations

import re

from wargame.i18n import Catalogue, language

__all__ = ["DESIGNATIONS", "unit_designation"]

DESIGNATIONS = Catalogue("units.designations", {
    "Infantry Regiment": "Infantry Regiment",
    "Grenadier Regiment": "Grenadier Regiment",
    "Infantry Brigade": "Infantry Brigade",
    "SS Panzergrenadier Regiment": "SS Panzergrenadier Regiment",
    "Parachute Regiment": "Parachute Regiment",
    "Parachute Infantry Regiment": "Parachute Infantry Regiment",
    "Panzergrenadier Regiment": "Panzergrenadier Regiment",
    "Cavalry Group (Mechanized)": "Cavalry Group (Mechanized)",
    "Canadian Infantry Brigade": "Canadian Infantry Brigade",
    "Armoured Brigade": "Armoured Brigade",
    "SS Panzer Regiment": "SS Panzer Regiment",
    "Flak Assault Regiment": "Flak Assault Regiment",
    "Armored Regiment": "Armored Regiment",
    "Werfer Brigade": "Werfer Brigade",
    "Panzer Regiment": "Panzer Regiment",
    "Luftwaffe Jäger Regiment": "Luftwaffe Jäger Regiment",
    "Brigade": "Brigade",
    "Armored Group": "Armored Group",
    "Tank Brigade": "Tank Brigade",
    "Special Service (Commando) Brigade": "Special Service (Commando) Brigade",
    "SS Heavy Tank Battalion": "SS Heavy Tank Battalion",
    "Parachute Brigade": "Parachute Brigade",
    "Panzergrenadier-Lehr Regiment": "Panzergrenadier-Lehr Regiment",
    "Group of Moroccan Tabors": "Group of Moroccan Tabors",
    "Glider Infantry Regiment": "Glider Infantry Regiment",
    "Assault Gun Brigade": "Assault Gun Brigade",
    "Army artillery": "Army artillery",
    "Armored Infantry Regiment": "Armored Infantry Regiment",
    "(Highland) Infantry Brigade": "(Highland) Infantry Brigade",
    "Panzer-Lehr Regiment": "Panzer-Lehr Regiment",
    "Parachute Regimental Combat Team": "Parachute Regimental Combat Team",
    "Reserve Division": "Reserve Division",
    "Airborne Division": "Airborne Division",
    "Airborne Task Force": "Airborne Task Force",
    "Algerian Infantry Division": "Algerian Infantry Division",
    "Colonial Infantry Division": "Colonial Infantry Division",
    "Guards Armoured Division": "Guards Armoured Division",
    "Independent Parachute Brigade": "Independent Parachute Brigade",
    "Luftwaffe Field Division": "Luftwaffe Field Division",
    "Moroccan Infantry Division": "Moroccan Infantry Division",
    "Panzer Lehr Division": "Panzer Lehr Division",
    "SS Panzergrenadier Division": "SS Panzergrenadier Division",
    "Air Landing": "Air Landing",
    "Canadian Armoured Brigade": "Canadian Armoured Brigade",
    "Flak Regiment": "Flak Regiment",
    "Mobile Brigade": "Mobile Brigade",
    "Guards Brigade": "Guards Brigade",
    "Heavy Tank Battalion": "Heavy Tank Battalion",
    "Guards Armoured Brigade": "Guards Armoured Brigade",
    "Airlanding Brigade": "Airlanding Brigade",
    "Armored Division": "Armored Division",
    "Armoured Division": "Armoured Division",
    "Panzer Division": "Panzer Division",
    "SS Panzer Division": "SS Panzer Division",
    "Parachute Division": "Parachute Division",
    "Canadian Infantry Division": "Canadian Infantry Division",
    "Infantry Division (Motorized)": "Infantry Division (Motorized)",
    "Infantry Division": "Infantry Division",
    "Ranger Battalions": "Ranger Battalions",
    "Ranger Battalion": "Ranger Battalion",
    "Regiment": "Regiment",
    "Coastal Battery": "Coastal Battery",
    "Naval Infantry Regiment": "Naval Infantry Regiment",
    "Assault Regiment": "Assault Regiment",
    "Special Service Force": "Special Service Force",
    "Corps Artillery": "Corps Artillery",
    "Army Artillery": "Army Artillery",
    "Panzer Group West Artillery": "Panzer Group West Artillery",
    "corps": "{roman} {qualifier}Corps Artillery",
    "army": "{ordinal} Army Artillery",
    "ordinal.First": "First", "ordinal.Second": "Second", "ordinal.Seventh": "Seventh",
    "qualifier.SS Panzer": "SS Panzer ", "qualifier.Panzer": "Panzer ",
    "qualifier.Canadian": "Canadian ", "qualifier.Parachute": "Parachute ",
    "qualifier.Luftwaffe Field": "Luftwaffe Field ", "qualifier.Reserve": "Reserve ",
    "and": "and",
    "place.Cherbourg": "Cherbourg",
    "Mechanized": "Mechanized",
})
"""English designation -> the reader's; ``corps``/``army`` rebuild the corps and army
artillery names; ``unit_designation`` puts the number back."""



_ORDINAL = re.compile(r"^(\d+)(?:st|nd|rd|th) (.+)$")
_TWO_ORDINALS = re.compile(r"^(\d+)(?:st|nd|rd|th)/(\d+)(?:st|nd|rd|th) (.+)$")
_NUMBER_AFTER = re.compile(r"^(.+?) (\d+|AOK \d+)$")
_QUOTED = re.compile(r'^(.+?) ("[^"]+")$|^("[^"]+") (.+)$')
_PARENS = re.compile(r"^(.+?) \(([^)]+)\)$")
_CORPS = re.compile(r"^([IVXL]+) (SS Panzer |Panzer |Canadian |Parachute |Luftwaffe Field |"
                    r"Reserve )?Corps [Aa]rtillery$")
_ARMY = re.compile(r"^(First|Second|Seventh) Army Artillery$")


def _phrase(text: str) -> str | None:
    """An English designation phrase in the current language, or None when unknown."""
    return DESIGNATIONS[text] if text in DESIGNATIONS and text not in (
        "corps", "army", "and") else None


def unit_designation(name: str) -> str:
    """A unit's English name (units.yaml) in the current language: "16th Infantry Regiment"
    -> "Regimento de Infantaria 16"; a name it cannot read comes back as it is (French
    abbreviations such as "RTS", "CC 1", "FFI Vercors" are kept: the units' own names)."""
    text = str(name)
    if language() == "en" or not text:
        return text
    return _designation(text)


def _designation(text: str) -> str:
    if ", " in text:
        return ", ".join(_designation(p) for p in text.split(", "))
    if text.startswith("Kampfgruppe "):
        return "Kampfgruppe " + _designation(text.removeprefix("Kampfgruppe "))
    m = _TWO_ORDINALS.match(text)
    if m and _phrase(m.group(3)):
        return f"{_phrase(m.group(3))} {m.group(1)} {DESIGNATIONS['and']} {m.group(2)}"
    m = _ORDINAL.match(text)
    if m and m.group(2).startswith("("):  # "51st (Highland) Infantry Division"
        inner, _, rest = m.group(2)[1:].partition(") ")
        if _phrase(rest):
            return f"{_phrase(rest)} {m.group(1)} ({_phrase(inner) or inner})"
    if m:
        rest = _designation(m.group(2))
        return f"{rest} {m.group(1)}" if rest != m.group(2) or _phrase(m.group(2)) else text
    m = _CORPS.match(text)
    if m:
        qual = m.group(2) or ""
        qualifier = DESIGNATIONS[f"qualifier.{qual.strip()}"] if qual else ""
        return DESIGNATIONS["corps"].format(roman=m.group(1), qualifier=qualifier).strip()
    m = _ARMY.match(text)
    if m:
        return DESIGNATIONS["army"].format(ordinal=DESIGNATIONS[f"ordinal.{m.group(1)}"])
    m = _QUOTED.match(text)
    if m:
        if m.group(1):
            return f"{_designation(m.group(1))} {m.group(2)}"
        return f"{_designation(m.group(4))} {m.group(3)}"
    m = _PARENS.match(text)
    if m and _phrase(text) is None:
        inner = m.group(2)
        inner = DESIGNATIONS.get(f"place.{inner}") if f"place.{inner}" in DESIGNATIONS \
            else _phrase(inner) or inner.replace(" and ", f" {DESIGNATIONS['and']} ")
        return f"{_designation(m.group(1))} ({inner})"
    found = _phrase(text)
    if found is not None:
        return found
    m = _NUMBER_AFTER.match(text)
    if m and _phrase(m.group(1)):
        return f"{_phrase(m.group(1))} {m.group(2)}"
    return text


