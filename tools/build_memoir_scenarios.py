"""Write the project's own Memoir '44 scenario files: ``scenarios/memoir44/<id>.json``.

Inputs (documented, none shipped as they are):
- the reference layouts ``<n>.m44`` in the folder ``--reference`` or
  ``$WARGAME_MEMOIR44_REFERENCE`` names (Scenario Editor exports, not in the repository; where
  they come from and their licence: docs/memoir44-sources.md): terrain, obstacles, units, medal
  tags, place names. Their texts are never read.
- ``scenarios/memoir44/scenarios.yaml`` (hand-written): rulebook number -> layout file, title,
  cards, first player, medals and the special rules as data, from the pt-PT rulebook
  (Memoir '44 rulebook, scenarios 1-16 and Overlord).
- ``BRIEFINGS`` below: a short briefing per scenario, written for this project in our own words
  from the rulebook's history and instructions; ``BRIEFINGS_PT`` the same in European
  Portuguese (with the ``pt: {title}`` of scenarios.yaml, written to the file's ``pt``).

Output: one JSON per scenario checked by ``wargame.schema.memoir.MemoirScenarioFile``
(docs/data-formats.md), with a ``provenance`` note. The conversion is ``wargame.memoir.m44``'s,
the same as ``wargame scenario import``'s.

    python tools/build_memoir_scenarios.py [--reference DIR] [--out DIR] [--check]

``--check`` writes nothing and exits 1 when a file differs from what the inputs give.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from wargame.memoir.m44 import convert, read_m44_file  # noqa: E402
from wargame.scenario_errors import ScenarioError, load_yaml  # noqa: E402
from wargame.schema.common import validate  # noqa: E402
from wargame.schema.memoir import MemoirIndex, MemoirScenarioFile  # noqa: E402

INDEX = REPO / "scenarios" / "memoir44" / "scenarios.yaml"
OUT = REPO / "scenarios" / "memoir44"
# the reference layouts are not in the repository (docs/memoir44-sources.md, "Licence note"):
# --reference, or the folder this setting names (CONTRIBUTING.md, "Reference data")
REFERENCE_ENV = "WARGAME_MEMOIR44_REFERENCE"
SOURCE = ("bga-devs/bga-memoir modules/scenarios/{file} @ 4ef4810973233f7f4bf7fbb56775376210a137a3"
          " (a Days of Wonder Scenario Editor export; docs/memoir44-sources.md)")

# Our words, from the rulebook's history and instructions (M44 scenarios 1-16 and Overlord).
BRIEFINGS: dict[str, str] = {
    "1": "Night of 5 to 6 June 1944. British glider troops land beside the Caen canal to seize "
         "the two bridges over the canal and the Orne before the defenders wake up. The Allies "
         "move first with a full hand; the surprised Germans start with 2 cards and draw extra "
         "cards on their first two turns. Each bridge held by an Allied unit is worth a medal.",
    "2": "Morning of D-Day. American paratroopers of the 82nd Airborne gather around "
         "Sainte-Mère-Église and push the German garrison out of the village while a blocking "
         "force holds the north. Before their first turn the Allies drop one more paratroop "
         "unit near the village; it may land badly.",
    "3": "British infantry, commandos and amphibious tanks land together near the mouth of the "
         "Orne and fight their way off the beach. The Germans may use the bunkers. Each village "
         "an Allied unit holds is worth a medal; the commandos move 2 hexes and still fight.",
    "4": "US Rangers climb the cliffs west of Omaha to silence the guns believed to sit on the "
         "point. Climbing from the beach costs 2 hexes of movement. Every Allied unit is a "
         "Ranger. A wood behind the German line taken by the Allies is a medal they keep.",
    "5": "The first wave lands on Omaha under fire from a fortified bluff. The Germans play "
         "first from their bunkers; tanks cannot climb the bluff from the beach, and the sea "
         "wall shelters the Allies only. Each village held by an Allied unit is a medal.",
    "6": "June 1944 in the Massif Central. German columns converge on the Resistance gathered "
         "at Mont Mouchet. Every Allied unit is French Resistance: 3 figures, able to move into "
         "terrain and still fight, and to retreat up to 3 hexes. The German tanks have 4 "
         "figures and each one destroyed gives the Allies 2 medals.",
    "7": "July 1944 on the Vercors plateau. German glider troops land around Vassieux and the "
         "airstrip the Resistance was repairing. The Germans move first. The deck is never "
         "reshuffled: if it runs out before the Allies win, the Germans win.",
    "8": "Late July 1944: after a carpet bombing, American divisions attack south of St-Lô to "
         "break out of the hedgerows. Each of the two villages named in the rulebook (Marigny "
         "and St-Gilles) held by an Allied unit is a medal. The German elite tanks have 4 "
         "figures.",
    "9": "August 1944: German armour counter-attacks towards Avranches while American infantry "
         "holds Hill 317 above Mortain. Climbing a hill costs 2 hexes. While an Allied unit "
         "holds Hill 317 the Allies may play Recon as Air Power. A German unit in St-Hilaire "
         "scores a medal.",
    "10": "Late August 1944: French troops landed in Provence close on the port of Toulon. "
          "Commandos and Rangers move 2 hexes and still fight. An Allied unit in Toulon at the "
          "end of an Allied turn wins at once.",
    "11": "24 August 1944: the French 2nd Armoured Division drives on Paris in two columns. "
          "Each outskirts hex an Allied unit takes is a medal they keep, even if they leave it.",
    "12": "25 August 1944: with the Allies' plans in hand, the Germans attack to keep the road "
          "along the Rhône open. A German unit in Bonlieu or Grane scores a medal each; Allied "
          "units next to the Rhône score one medal in all. The hills north of the Condillac "
          "pass cannot be entered. The Germans move first.",
    "13": "September 1944: British paratroopers hold the north end of the Arnhem road bridge "
          "against German attacks. Every Allied unit is airborne elite; German tanks have 4 "
          "figures. Units enter and leave the bridge only at its ends, and infantry cannot fire "
          "across the wide Rhine.",
    "14": "September 1944 in Lorraine: German panzer brigades lost in the fog meet the "
          "American 4th Armored Division near Arracourt. No special rules: a straight tank "
          "battle. The Germans move first.",
    "15": "December 1944 in the Ardennes: German infantry and Tigers attack the crossroads town "
          "of St-Vith held by a mixed American force. The hill beside St-Vith cannot be "
          "entered; German elite tanks have 4 figures. The Germans move first.",
    "16": "November 1944 in the Vosges: American and French armour try to force the Saverne "
          "gap towards Strasbourg. Hills cannot be entered and artillery cannot fire over them. "
          "Allied units in two Saverne hexes at the end of an Allied turn win at once.",
    "overlord": "Omaha Beach on the double Overlord board, for teams. The first wave lands "
                "under the bluff; the Germans move first. Tanks cannot climb the bluff from "
                "the beach, the sea wall shelters the Allies only, Recon may be played as a "
                "barrage, and Allied units leaving by the German edge score medals.",
}


# The same briefings in European Portuguese, written for this project in our own words (not the
# rulebook's sentences): a teacher's summary of the history and of the scenario's special rules.
BRIEFINGS_PT: dict[str, str] = {
    "1": "Noite de 5 para 6 de junho de 1944. Planadores britânicos pousam junto ao canal de "
         "Caen: os soldados têm de tomar as pontes do canal e do Orne antes que a guarnição "
         "reaja. Os Aliados jogam primeiro e com a mão completa; os alemães, apanhados de "
         "surpresa, começam com 2 cartas e compram cartas a mais nas duas primeiras vezes que "
         "jogam. Cada ponte ocupada por uma unidade aliada vale uma medalha.",
    "2": "Manhã do Dia D. Os paraquedistas americanos da 82.ª Aerotransportada reúnem-se à "
         "volta de Sainte-Mère-Église e expulsam a guarnição alemã da vila, enquanto outro "
         "grupo aguenta a frente norte. Antes de jogarem pela primeira vez, os Aliados lançam "
         "mais uma unidade de paraquedistas perto da vila, que pode cair mal.",
    "3": "Infantaria britânica, comandos e carros anfíbios desembarcam juntos perto da foz do "
         "Orne e abrem caminho para fora da praia. Os alemães podem ocupar os bunkers. Cada "
         "aldeia nas mãos de uma unidade aliada vale uma medalha; os comandos avançam 2 "
         "hexágonos e ainda combatem.",
    "4": "Os Rangers americanos sobem as falésias a oeste de Omaha para calar as peças de "
         "artilharia que se julgava estarem na ponta. Trepar da praia para a falésia gasta 2 "
         "hexágonos de movimento e todas as unidades aliadas são Rangers. O bosque atrás da "
         "linha alemã, se tomado, dá aos Aliados uma medalha que não perdem.",
    "5": "A primeira vaga chega a Omaha debaixo do fogo de uma escarpa fortificada. Os alemães "
         "jogam primeiro, a partir dos bunkers; os carros não conseguem subir a escarpa vindos "
         "da praia e o paredão só protege os Aliados. Cada aldeia ocupada por uma unidade "
         "aliada é uma medalha.",
    "6": "Junho de 1944, no Maciço Central. Colunas alemãs apertam o cerco à Resistência "
         "reunida no Mont Mouchet. Todas as unidades aliadas são da Resistência francesa: 3 "
         "figuras, podem entrar num terreno e combater no mesmo turno e recuar até 3 "
         "hexágonos. Os carros alemães têm 4 figuras e cada um destruído dá 2 medalhas aos "
         "Aliados.",
    "7": "Julho de 1944, no planalto do Vercors. Planadores alemães aterram à volta de Vassieux "
         "e da pista que a Resistência andava a preparar. Os alemães jogam primeiro. O baralho "
         "nunca é baralhado de novo: se as cartas acabarem antes de os Aliados vencerem, "
         "ganham os alemães.",
    "8": "Fim de julho de 1944: depois de um bombardeamento em tapete, as divisões americanas "
         "atacam a sul de Saint-Lô para sair do bocage. Marigny e St-Gilles valem uma medalha "
         "cada enquanto uma unidade aliada lá estiver. Os carros de elite alemães têm 4 "
         "figuras.",
    "9": "Agosto de 1944: os blindados alemães contra-atacam na direção de Avranches, e a "
         "infantaria americana resiste na Cota 317, por cima de Mortain. Subir uma colina custa "
         "2 hexágonos. Enquanto houver uma unidade aliada na Cota 317, os Aliados podem jogar "
         "Reconhecimento como Apoio Aéreo. Uma unidade alemã em St-Hilaire vale uma medalha.",
    "10": "Fim de agosto de 1944: as tropas francesas desembarcadas na Provença apertam o cerco "
          "ao porto de Toulon. Comandos e Rangers avançam 2 hexágonos e ainda combatem. Uma "
          "unidade aliada em Toulon no fim de um turno aliado dá a vitória imediata.",
    "11": "24 de agosto de 1944: a 2.ª Divisão Blindada francesa avança sobre Paris em duas "
          "colunas. Cada hexágono dos arredores conquistado por uma unidade aliada é uma "
          "medalha que fica, mesmo que a unidade saia de lá.",
    "12": "25 de agosto de 1944: com os planos aliados nas mãos, os alemães atacam para manter "
          "aberta a estrada ao longo do Ródano. Cada unidade alemã em Bonlieu ou em Grane vale "
          "uma medalha; as unidades aliadas junto ao Ródano valem, no total, uma medalha. As "
          "colinas a norte do desfiladeiro de Condillac são intransitáveis. Os alemães jogam "
          "primeiro.",
    "13": "Setembro de 1944: paraquedistas britânicos defendem a ponta norte da ponte rodoviária "
          "de Arnhem contra os ataques alemães. Todas as unidades aliadas são paraquedistas de "
          "elite; os carros alemães têm 4 figuras. Só se entra e sai da ponte pelas "
          "extremidades, e a infantaria não consegue disparar por cima do largo Reno.",
    "14": "Setembro de 1944, na Lorena: brigadas blindadas alemãs perdidas no nevoeiro "
          "esbarram na 4.ª Divisão Blindada americana perto de Arracourt. Sem regras "
          "especiais: um combate de carros puro e duro. Os alemães jogam primeiro.",
    "15": "Dezembro de 1944, nas Ardenas: infantaria alemã e carros Tiger atacam o nó de "
          "estradas de St-Vith, defendido por uma força americana mista. A colina ao lado de "
          "St-Vith é intransitável; os carros de elite alemães têm 4 figuras. Os alemães jogam "
          "primeiro.",
    "16": "Novembro de 1944, nos Vosges: blindados americanos e franceses tentam forçar a "
          "passagem de Saverne a caminho de Estrasburgo. Não se pode entrar nas colinas e a "
          "artilharia não dispara por cima delas. Unidades aliadas em dois hexágonos de "
          "Saverne no fim de um turno aliado ganham logo o jogo.",
    "overlord": "A praia de Omaha no tabuleiro duplo do Overlord, para jogar em equipas. A "
                "primeira vaga desembarca ao pé da escarpa e os alemães jogam primeiro. Os "
                "carros não sobem a escarpa vindos da praia, o paredão só protege os Aliados, o "
                "Reconhecimento pode ser jogado como Barragem e as unidades aliadas que saem "
                "pelo lado alemão do tabuleiro ganham medalhas.",
}


def build(reference: Path, index_path: Path = INDEX) -> dict[str, str]:
    """File name -> text of every scenario file."""
    data = load_yaml(index_path)
    validate(MemoirIndex, data, index_path)
    out: dict[str, str] = {}
    for key, entry in data["scenarios"].items():
        sid = str(key)
        for table, texts in (("BRIEFINGS", BRIEFINGS), ("BRIEFINGS_PT", BRIEFINGS_PT)):
            if sid not in texts:
                raise ScenarioError(Path(__file__), table, f"a briefing for scenario {sid}")
        if not entry.get("pt"):
            raise ScenarioError(index_path, f"scenarios.{sid}.pt", "the title in Portuguese")
        raw = read_m44_file(reference / entry["file"])
        scenario = convert(
            raw, scenario_id=sid, title=entry["title"], entry=entry,
            number=int(sid) if sid.isdigit() else None, briefing=BRIEFINGS[sid],
            notes=list(entry.get("m44_differences") or []),
            provenance=(f"Layout (terrain, obstacles, units, medal hexes, place names) from "
                        f"{SOURCE.format(file=entry['file'])}; its texts are not used. Cards, "
                        f"first player, medals and special rules from the Memoir '44 rulebook "
                        f"(pt-PT) via scenarios/memoir44/scenarios.yaml. Briefing "
                        f"written for this project. Built by tools/build_memoir_scenarios.py."),
        )
        scenario = with_portuguese(scenario, entry["pt"]["title"], BRIEFINGS_PT[sid])
        validate(MemoirScenarioFile, scenario, f"{sid}.json")
        out[f"{sid}.json"] = dump(scenario)
    return out


def with_portuguese(scenario: dict[str, Any], title: str, briefing: str) -> dict[str, Any]:
    """The scenario with ``pt: {title, briefing}`` right after its English briefing."""
    out: dict[str, Any] = {}
    for key, value in scenario.items():
        out[key] = value
        if key == "briefing":
            out["pt"] = {"title": title, "briefing": briefing}
    if "pt" not in out:
        out["pt"] = {"title": title, "briefing": briefing}
    return out


def dump(data: dict[str, Any]) -> str:
    """JSON with one line per hex, unit, objective and place (readable diffs)."""
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        value = data[key]
        comma = "," if i < len(keys) - 1 else ""
        if isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"  {json.dumps(key)}: [")
            for j, item in enumerate(value):
                sep = "," if j < len(value) - 1 else ""
                lines.append(f"    {json.dumps(item, ensure_ascii=False)}{sep}")
            lines.append(f"  ]{comma}")
        elif isinstance(value, dict) and key == "special" and value:
            lines.append(f"  {json.dumps(key)}: {{")
            items = list(value.items())
            for j, (k, v) in enumerate(items):
                sep = "," if j < len(items) - 1 else ""
                lines.append(f"    {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}{sep}")
            lines.append(f"  }}{comma}")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=None,
                        help=f"folder of the reference .m44 layouts (default: ${REFERENCE_ENV})")
    parser.add_argument("--index", type=Path, default=INDEX, help="the scenarios.yaml input")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write <id>.json")
    parser.add_argument("--check", action="store_true",
                        help="compare with the files in --out instead of writing")
    args = parser.parse_args(argv)
    if args.reference is None:
        if not os.environ.get(REFERENCE_ENV):
            print(f"error: no reference folder: pass --reference DIR or set {REFERENCE_ENV}",
                  file=sys.stderr)
            return 2
        args.reference = Path(os.environ[REFERENCE_ENV]).expanduser()
    try:
        files = build(args.reference, args.index)
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    stale = [name for name, text in files.items()
             if not (args.out / name).is_file()
             or (args.out / name).read_text(encoding="utf-8") != text]
    if args.check:
        for name in stale:
            print(f"stale: {args.out / name}")
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} scenario files to {args.out} ({len(stale)} changed)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
