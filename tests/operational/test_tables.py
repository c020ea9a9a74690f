"""The CN and OD tables as loaded from scenarios/<game>/tables.yaml, checked cell by cell
against an independent transcription of the rulebook text made here.

Sources: the Campanha da Normandia rulebook ("CN table": TABELA DE EFEITOS DE COMBATE,
TABELA DE BOMBARDEIO, TABELA DE VULNERABILIDADE, TABELA DE "CARPET BOMBING") and
the Operação Dragoon rulebook ("OD table": the clean CRT printed at the very end,
TABELA DE BOMBARDEIO, TABELA DE VULNERABILIDADE). Rows are copied as the text prints them,
cells separated by tabs, and parsed by the helpers below.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wargame.dice import two_d6_distribution
from wargame.operational.tables import (
    load_tables,
    odds_ratio,
    ratio_column,
    ratio_label,
    split_result,
)

GAMES = ("normandy", "dragoon")
BANDS = ("2-12", "3-11", "4-10", "5-9", "6-8", "7")

# CN table: "TABELA DE EFEITOS DE COMBATE" (Campanha da Normandia), header and six rows.
CN_CRT_TEXT = """\
\t1-3\t1-2\t1-1\t2-1\t3-1\t4-1\t5-1\t6-1\t7-1\t8-1\t9-1
2-12\tDVB ARI\tIMP\tDRI AVB\tDRB AVB\tDRB AVB\tDRB AVB\tEMP\tDE AVB\tDE AVB\tDE AVI\tDE AVI
3-11\tDVB ARB\tDVB ARI\tIMP\tDRB AVB\tDRB AVB\tDRB AVB\tDRB AVB\tEMP\tDE AVB\tDE AVB\tDE AVI
4-10\tDVI ARI\tDVB ARB\tDVB ARI\tIMP\tDRB AVB\tDRB AVB\tDRB AVB\tDRB AVI\tEMP\tDE AVB\tDE AVB
5-9\tDVI ARB\tDVI ARI\tDVB ARB\tDVB ARB\tIMP\tDRB AVB\tDRB AVB\tDRI AVI\tDRB AVI\tEMP\tDE AVB
6-8\tDVB AE\tDVI ARB\tDVI ARI\tDVB ARB\tDVB ARB\tIMP\tDRB AVB\tDRB AVB\tDRI AVI\tDRB AVI\tEMP
7\tDVI AE\tDVB AE\tDVI ARB\tDVB ARB\tDVB ARB\tDVB ARB\tIMP\tDRI AVB\tDRB AVB\tDRI AVI\tDRB AVI
"""

# OD table: the clean CRT at the very end of the Operação Dragoon rulebook. The text prints no row
# labels there; they are the garbled copy's (2-12, 3-11, 4-10, 5-9, 6-8, 7), added here.
OD_CRT_TEXT = """\
\t1-3\t1-2\t1-1\t2-1\t3-1\t4-1\t5-1\t6-1\t7-1\t8-1\t9-1
2-12\tDVB ARI\tIMP\tDRI AVB\tDRB AVB\tDRI AVI\tDRB AVI\tEMP\tDE AVB\tDE AVB\tDE AVI\tDE AVI
3-11\tDVB ARB\tDVB ARI\tIMP\tDRI AVB\tDRB AVB\tDRI AVI\tDRB AVI\tEMP\tDE AVB\tDE AVB\tDE AVI
4-10\tDVI ARI\tDVB ARB\tDVB ARI\tIMP\tDRI AVB\tDRB AVB\tDRI AVI\tDRB AVI\tEMP\tDE AVB\tDE AVB
5-9\tDVI ARB\tDVI ARI\tDVB ARB\tDVB ARI\tIMP\tDRI AVB\tDRB AVB\tDRI AVI\tDRB AVI\tEMP\tDE AVB
6-8\tDVB AE\tDVI ARB\tDVI ARI\tDVB ARB\tDVB ARI\tIMP\tDRI AVB\tDRB AVB\tDRI AVI\tDRB AVI\tEMP
7\tDVI AE\tDVB AE\tDVI ARB\tDVI ARI\tDVB ARB\tDVB ARI\tIMP\tDRI AVB\tDRB AVB\tDRI AVI\tDRB AVI
"""

# OD table, garbled copy (first printing): the defender's codes (upper line) and attacker's
# codes (lower line) of each row as legible there, noise removed. Cells with one code are EMP
# or IMP. Used to confirm the clean copy.
OD_CRT_GARBLED_DEFENDER = {
    "2-12": "DVB IMP DRI DRB DRI DRB EMP DE DE DE DE",
    "3-11": "DVB DVB IMP DRI DRB DRI DRB EMP DE DE DE",
    "4-10": "DVI DVB DVB IMP DRI DRB DRI DRB EMP DE DE",
    "5-9": "DVI DVI DVB DVB IMP DRI DRB DRI DRB EMP DE",
    "6-8": "DVB DVI DVI DVB DVB IMP DRI DRB DRI DRB EMP",
    "7": "DVI DVB DVI DVI DVB DVB IMP DRI DRB DRI DRB",
}
OD_CRT_GARBLED_ATTACKER = {
    "2-12": "ARI - AVB AVB AVI AVI - AVB AVB AVI AVI",
    "3-11": "ARB ARI - AVB AVB AVI AVI - AVB AVB AVI",
    "4-10": "ARI ARB ARI - AVB AVB AVI AVI - AVB AVB",
    "5-9": "ARB ARI ARB ARI - AVB AVB AVI AVI - AVB",
    "6-8": "AE ARB ARI ARB ARI - AVB AVB AVI AVI -",
    "7": "AE AE ARB ARI ARB ARI - AVB AVB AVI AVI",
}

# CN table: "TABELA DE BOMBARDEIO" (columns 1 - 10, 11- 20, 21 - 30, 31 - 40, 41 - oo).
CN_BOMBARDMENT_TEXT = """\
\t1 - 10\t11- 20\t21 - 30\t31 - 40\t41 - ∞
2-12\tDB\tDB\tDB\tDE\tDE
3-11\tDB\tDB\tDB\tDB\tDE
4-10\tDI\tDB\tDB\tDB\tDB
5-9\tDI\tDI\tDB\tDB\tDB
6-8\tDI\tDI\tDI\tDB\tDB
7\tDI\tDI\tDI\tDI\tDB
"""

# OD table: "TABELA DE BOMBARDEIO" (columns 1 - 12, 13- 24, 25 - 36, 37 - 48, 49 - oo).
OD_BOMBARDMENT_TEXT = """\
\t1 – 12\t13- 24\t25 - 36\t37 - 48\t49 - ∞
2-12\tDB\tDB\tDB\tDB\tDB
3-11\tDI\tDB\tDB\tDB\tDB
4-10\tDI\tDI\tDB\tDB\tDB
5-9\tDI\tDI\tDI\tDB\tDB
6-8\tDI\tDI\tDI\tDI\tDB
7\tDI\tDI\tDI\tDI\tDI
"""

# CN table: "TABELA DE "CARPET BOMBING"" (DADOS / RESULTADO).
CN_CARPET_TEXT = {"2-12": "DI", "3-11": "DE", "4-10": "DA", "5-9": "DB", "6-8": "DE", "7": "DA"}

# Vulnerability tables: (air attack, artillery) per unit type of tables.yaml.
# CN table: infantry-like 1/2; armour, mech. cavalry, mech. artillery, assault guns 2/1;
# artillery, rocket launchers, AA and coastal artillery 2/2.
CN_VULNERABILITY = {
    **dict.fromkeys(
        [
            "infantry",
            "motorized_infantry",
            "paratroop",
            "glider",
            "ranger_commando",
            "naval_infantry",
            "bicycle_infantry",
        ],
        (1, 2),
    ),
    **dict.fromkeys(
        ["armour", "mechanized_cavalry", "mechanized_artillery", "assault_gun"], (2, 1)
    ),
    **dict.fromkeys(["artillery", "rocket_launcher", "anti_aircraft", "coastal_artillery"], (2, 2)),
}
# OD table: infantry, marines, armoured infantry, commandos, mountain troops, paratroops 1/2;
# armour 2/1; artillery 2/2; guerrillas (air blank) -/1, stored as 0.
OD_VULNERABILITY = {
    **dict.fromkeys(
        ["infantry", "paratroop", "commando", "mountain", "armoured_infantry"], (1, 2)
    ),
    "armour": (2, 1),
    "artillery": (2, 2),
    "guerrilla": (0, 1),
}


def parse_table(text: str) -> tuple[list[str], dict[str, list[str]]]:
    lines = text.splitlines()
    header = [c.replace(" ", "").replace("–", "-") for c in lines[0].split("\t")[1:]]
    rows = {}
    for line in lines[1:]:
        band, *cells = line.split("\t")
        rows[band] = cells
    return header, rows


CRT_TEXT = {"normandy": CN_CRT_TEXT, "dragoon": OD_CRT_TEXT}
BOMBARDMENT_TEXT = {"normandy": CN_BOMBARDMENT_TEXT, "dragoon": OD_BOMBARDMENT_TEXT}
BOMBARDMENT_BOUNDS = {
    "normandy": [(1, 10), (11, 20), (21, 30), (31, 40), (41, None)],
    "dragoon": [(1, 12), (13, 24), (25, 36), (37, 48), (49, None)],
}


def crt_cells(game: str):
    header, rows = parse_table(CRT_TEXT[game])
    for band in BANDS:
        for column, cell in zip(header, rows[band], strict=True):
            yield game, band, column, cell


ALL_CRT_CELLS = [cell for game in GAMES for cell in crt_cells(game)]


# CRT ------------------------------------------------------------------------------------
def test_transcriptions_have_every_cell():
    assert len(ALL_CRT_CELLS) == 2 * 6 * 11


@pytest.mark.parametrize("game", GAMES)
def test_crt_columns_match_text(game):
    header, rows = parse_table(CRT_TEXT[game])
    tables = load_tables(game)
    assert list(tables.crt_columns) == header
    assert list(rows) == list(BANDS)


@pytest.mark.parametrize(("game", "band", "column", "cell"), ALL_CRT_CELLS)
def test_crt_cell_matches_rulebook(game, band, column, cell):
    tables = load_tables(game)
    assert tables.crt[band][tables.crt_columns.index(column)] == cell


@pytest.mark.parametrize(("game", "band", "column", "cell"), ALL_CRT_CELLS)
def test_crt_result_by_dice_total(game, band, column, cell):
    tables = load_tables(game)
    totals = [int(t) for t in band.split("-")]
    for total in totals:
        assert tables.crt_result(column, total) == cell
        assert tables.crt_result(tables.crt_columns.index(column), total) == cell


def test_od_clean_crt_agrees_with_the_garbled_copy():
    header, rows = parse_table(OD_CRT_TEXT)
    for band in BANDS:
        defender = OD_CRT_GARBLED_DEFENDER[band].split()
        attacker = OD_CRT_GARBLED_ATTACKER[band].split()
        for i, cell in enumerate(rows[band]):
            d, a = split_result(cell)
            assert d == defender[i], (band, header[i])
            assert (a or "-") == attacker[i], (band, header[i])


def test_the_two_crts_differ():
    # OD is its own table (DRI/AVI where CN has DRB/AVB), never assume they are equal.
    assert load_tables("normandy").crt != load_tables("dragoon").crt
    assert load_tables("normandy").crt["2-12"][4] == "DRB AVB"
    assert load_tables("dragoon").crt["2-12"][4] == "DRI AVI"


@pytest.mark.parametrize("game", GAMES)
def test_every_crt_code_is_known(game):
    known_defender = {"DE", "DRB", "DRI", "DVB", "DVI"}
    known_attacker = {"AVI", "AVB", "ARI", "ARB", "AE"}
    for cells in load_tables(game).crt.values():
        for cell in cells:
            d, a = split_result(cell)
            if a is None:
                assert d in {"EMP", "IMP"}
            else:
                assert d in known_defender and a in known_attacker


@pytest.mark.parametrize("game", GAMES)
def test_crt_distributions_sum_to_one(game):
    tables = load_tables(game)
    for column in tables.crt_columns:
        dist = tables.crt_distribution(column)
        assert sum(dist.values()) == 1
        assert all(p.denominator in (1, 2, 3, 4, 6, 9, 12, 18, 36) for p in dist.values())


def test_crt_distribution_example_cn_2_1():
    # CN table, column 2-1: DRB AVB on 2,3,11,12 (6/36), IMP on 4,10 (6/36), DVB ARB otherwise.
    dist = load_tables("normandy").crt_distribution("2-1")
    assert dist == {"DRB AVB": Fraction(6, 36), "IMP": Fraction(6, 36), "DVB ARB": Fraction(24, 36)}


def test_row_bands_have_the_documented_weights():
    dist = two_d6_distribution()
    assert [sum(dist[int(t)] for t in b.split("-")) * 36 for b in BANDS] == [2, 4, 6, 8, 10, 6]


# Bombardment ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_bombardment_columns_match_text(game):
    header, _ = parse_table(BOMBARDMENT_TEXT[game])
    tables = load_tables(game)
    bounds = [(c.low, c.high) for c in tables.bombardment_columns]
    assert bounds == BOMBARDMENT_BOUNDS[game]
    for (low, high), label in zip(bounds, header, strict=True):
        assert label == (f"{low}-{high}" if high else f"{low}-∞")


@pytest.mark.parametrize("game", GAMES)
def test_every_bombardment_cell_matches_rulebook(game):
    _, rows = parse_table(BOMBARDMENT_TEXT[game])
    tables = load_tables(game)
    for band in BANDS:
        assert list(tables.bombardment[band]) == rows[band], band
        for total in (int(t) for t in band.split("-")):
            for column, cell in enumerate(rows[band]):
                assert tables.bombardment_result(column, total) == cell


@pytest.mark.parametrize("game", GAMES)
def test_bombardment_column_boundaries(game):
    tables = load_tables(game)
    assert tables.bombardment_column(0) is None
    for index, (low, high) in enumerate(BOMBARDMENT_BOUNDS[game]):
        assert tables.bombardment_column(low) == index
        if high is not None:
            assert tables.bombardment_column(high) == index
            assert tables.bombardment_column(high + 1) == index + 1
    assert tables.bombardment_column(10_000) == len(BOMBARDMENT_BOUNDS[game]) - 1


@pytest.mark.parametrize("game", GAMES)
def test_bombardment_distributions_sum_to_one(game):
    tables = load_tables(game)
    for column in range(len(tables.bombardment_columns)):
        assert sum(tables.bombardment_distribution(column).values()) == 1


# Carpet bombing ---------------------------------------------------------------------------
@pytest.mark.parametrize("band", BANDS)
def test_cn_carpet_bombing_matches_rulebook(band):
    tables = load_tables("normandy")
    assert tables.carpet_bombing == CN_CARPET_TEXT
    for total in (int(t) for t in band.split("-")):
        assert tables.carpet_result(total) == CN_CARPET_TEXT[band]


def test_od_has_no_carpet_bombing():
    tables = load_tables("dragoon")
    assert tables.carpet_bombing is None
    with pytest.raises(ValueError):
        tables.carpet_result(7)


def test_carpet_bombing_distribution_sums_to_one():
    dist = two_d6_distribution()
    carpet = load_tables("normandy").carpet_bombing
    total = sum((dist[t] for t in range(2, 13)), Fraction(0))
    assert total == 1
    # DA: 4, 10 and 7 -> 6/36 + 6/36
    p_da = sum(dist[t] for t in range(2, 13) if load_tables("normandy").carpet_result(t) == "DA")
    assert p_da == Fraction(12, 36)
    assert set(carpet.values()) == {"DI", "DB", "DE", "DA"}


# Vulnerability ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "expected"), [("normandy", CN_VULNERABILITY), ("dragoon", OD_VULNERABILITY)]
)
def test_vulnerability_per_unit_type(game, expected):
    tables = load_tables(game)
    assert set(tables.unit_types) == set(expected)
    for name, (air, artillery) in expected.items():
        unit = tables.unit_type(name)
        assert (unit.air_vulnerability, unit.artillery_vulnerability) == (air, artillery), name


# Odds ratio (CN/OD 5.1.1) -----------------------------------------------------------------
def test_5_1_1_example_eleven_against_four_is_two_to_one():
    assert odds_ratio(11, 4) == (2, 1)
    assert ratio_label(odds_ratio(11, 4)) == "2-1"


def test_5_1_1_inverse_ratio():
    assert odds_ratio(4, 9) == (1, 2)
    assert odds_ratio(4, 12) == (1, 3)
    assert odds_ratio(5, 9) == (1, 1)  # 9 / 5 = 1.8 -> 1-1
    assert odds_ratio(4, 4) == (1, 1)


def test_odds_ratio_rejects_negative_strengths():
    with pytest.raises(ValueError):
        odds_ratio(-1, 3)
    with pytest.raises(ValueError):
        odds_ratio(3, -1)


@pytest.mark.parametrize("game", GAMES)
def test_ratio_column_clamps_to_table_ends(game):
    columns = load_tables(game).crt_columns
    assert ratio_column((2, 1), columns) == columns.index("2-1")
    assert ratio_column((1, 5), columns) == 0
    assert ratio_column((12, 1), columns) == len(columns) - 1


@pytest.mark.parametrize("game", GAMES)
def test_shifted_column_clamps(game):
    tables = load_tables(game)
    base = tables.crt_columns.index("2-1")
    assert tables.crt_columns[tables.shifted_column(base, -2)] == "1-2"
    assert tables.crt_columns[tables.shifted_column(base, 1)] == "3-1"
    assert tables.shifted_column(base, -10) == 0
    assert tables.shifted_column(base, 10) == len(tables.crt_columns) - 1


def _column_index(columns: tuple[str, ...], attack: int, defence: int) -> int:
    return ratio_column(odds_ratio(attack, defence), columns)


strengths = st.integers(min_value=0, max_value=500)


positive = st.integers(min_value=1, max_value=500)


@given(attack=positive, defence=positive)
def test_odds_ratio_monotonic_in_attack(attack, defence):
    a, b = odds_ratio(attack, defence)
    c, d = odds_ratio(attack + 1, defence)
    assert Fraction(c, d) >= Fraction(a, b)


@given(attack=positive, defence=positive)
def test_odds_ratio_antitone_in_defence(attack, defence):
    a, b = odds_ratio(attack, defence)
    c, d = odds_ratio(attack, defence + 1)
    assert Fraction(c, d) <= Fraction(a, b)


@given(game=st.sampled_from(GAMES), attack=strengths, defence=strengths)
def test_odds_column_monotonic_in_attack_including_zero(game, attack, defence):
    # Zero strengths give the sentinels 1-99 / 99-1 (tables.odds_ratio), which are not ordered
    # against ratios like 1-100, but every such ratio lies beyond the table: the COLUMN is.
    columns = load_tables(game).crt_columns
    assert _column_index(columns, attack + 1, defence) >= _column_index(columns, attack, defence)
    assert _column_index(columns, attack, defence + 1) <= _column_index(columns, attack, defence)


@given(
    game=st.sampled_from(GAMES),
    attack=strengths,
    defence=strengths,
    shift=st.integers(min_value=-50, max_value=50),
)
def test_shifted_column_always_in_range_and_sums_to_one(game, attack, defence, shift):
    tables = load_tables(game)
    base = ratio_column(odds_ratio(attack, defence), tables.crt_columns)
    assert 0 <= base < len(tables.crt_columns)
    column = tables.shifted_column(base, shift)
    assert 0 <= column < len(tables.crt_columns)
    assert sum(tables.crt_distribution(column).values()) == 1


@given(game=st.sampled_from(GAMES), value=st.integers(min_value=1, max_value=10_000))
def test_any_bombardment_value_has_a_column_summing_to_one(game, value):
    tables = load_tables(game)
    column = tables.bombardment_column(value)
    assert column is not None
    assert sum(tables.bombardment_distribution(column).values()) == 1


# Worked examples --------------------------------------------------------------------------
def _vulnerability(game: str, kind: str, *types: str) -> int:
    tables = load_tables(game)
    attr = "air_vulnerability" if kind == "air" else "artillery_vulnerability"
    return sum(getattr(tables.unit_type(t), attr) for t in types)


def _bombardment_label(game: str, value: int, shift: int = 0) -> str:
    tables = load_tables(game)
    column = tables.bombardment_column(value)
    assert column is not None
    column = max(0, min(len(tables.bombardment_columns) - 1, column + shift))
    return tables.bombardment_columns[column].label


def test_cn_6_2_air_attack_example():
    # Two German infantry and one armour; 6 air points x vulnerability 4 (2x1 + 2) = 24.
    vulnerability = _vulnerability("normandy", "air", "infantry", "infantry", "armour")
    assert vulnerability == 4
    assert 6 * vulnerability == 24
    assert _bombardment_label("normandy", 24) == "21-30"
    # In a city the defenders gain two columns to the left: 1-10.
    city = load_tables("normandy").terrain["city"].bombardment_combat
    assert city == 2
    assert _bombardment_label("normandy", 24, -city) == "1-10"


def test_cn_8_0_artillery_example():
    # Two German artillery 2-1-4 (attack 2+2 = 4) against US armour and motorized infantry:
    # vulnerability 3 (1 + 2), value 12 -> column 11-20.
    vulnerability = _vulnerability("normandy", "artillery", "armour", "motorized_infantry")
    assert vulnerability == 3
    assert 2 * 2 * vulnerability == 12
    assert _bombardment_label("normandy", 12) == "11-20"


def test_od_6_2_air_attack_example():
    vulnerability = _vulnerability("dragoon", "air", "infantry", "infantry", "armour")
    assert vulnerability == 4
    assert _bombardment_label("dragoon", 6 * vulnerability) == "13-24"
    # Open terrain with a fortification: one column to the left -> 1-12.
    tables = load_tables("dragoon")
    assert tables.features["fortification"].bombardment_combat == 1
    assert tables.features["fortification"].combat == 3  # OD terrain table, ground combat
    fortification = tables.features["fortification"].bombardment_combat
    shift = max(tables.terrain["open"].bombardment_combat, fortification)  # OD 5.1.2: the most
    assert _bombardment_label("dragoon", 24, -shift) == "1-12"


def test_od_8_0_artillery_example():
    # Two German artillery 1-1-3 (attack 2) against French armour and armoured infantry:
    # vulnerability 3 (1 + 2), value 6 -> column 1-12.
    vulnerability = _vulnerability("dragoon", "artillery", "armour", "armoured_infantry")
    assert vulnerability == 3
    assert _bombardment_label("dragoon", 2 * 1 * vulnerability) == "1-12"


def test_terrain_combat_columns_match_the_terrain_tables():
    # CN table "TABELA DE EFEITOS DO TERRENO": combat columns.
    cn = load_tables("normandy")
    assert {k: v.combat for k, v in cn.terrain.items()} == {
        "open": 0, "city": 2, "rough": 1, "forest": 1, "bocage": 2, "marsh": 1, "hill": 3,
        "sea": 0,
    }
    assert cn.features["village"].combat == 1
    assert cn.features["fortification"].combat == 3
    assert cn.hexsides["river"].combat == 2
    # OD table.
    od = load_tables("dragoon")
    assert {k: v.combat for k, v in od.terrain.items()} == {
        "open": 0, "city": 2, "woods": 1, "mountain": 3, "border": 0, "sea": 0,
    }
    assert od.hexsides["river"].combat == 2
