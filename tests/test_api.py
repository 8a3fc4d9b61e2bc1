"""The Python API: simcore.open, and the Python values of simulate's and solve_deals'
options (policy, rules, predeal, conditions) beside their command-line strings."""

import polars as pl
import pytest

import simcore
from simcore import arguments, batch
from simcore.errors import SimcoreError


def _identity(game, **kw):
    """The manifest identity simulate would record for these options (nothing is run)."""
    policy, rules, predeal, conditions = arguments.normalize(
        kw.get("policy"), kw.get("rules"), kw.get("predeal"), kw.get("conditions"))
    return batch._plan(game, 10, 1, "hands", policy, rules, False, None, None, predeal, conditions).identity


def _solve_identity(game, **kw):
    policy, rules, predeal, conditions = arguments.normalize(
        kw.get("policy"), kw.get("rules"), kw.get("predeal"), kw.get("conditions"))
    return batch._plan_solve(game, 10, 1, policy, rules, None, predeal, conditions).identity


# ---------------------------------------------------------------- simcore.open


def test_open_gives_the_manifest_and_both_tables_of_a_games_run(tmp_path):
    out = tmp_path / "eu"
    made = simcore.simulate("euchre", 12, seed=3, mode="games", out=out, rules={"target": 5})
    run = simcore.open(out)
    assert run.manifest == made.manifest
    assert run.manifest["game"] == "euchre" and run.manifest["rules"]["target"] == 5
    assert run.games().collect().height == 12
    assert run.hands().collect().equals(simcore.load(out).collect())
    assert run.games().collect().equals(simcore.load(out, "games").collect())
    text = repr(run)
    assert "euchre" in text and "games mode" in text and "12 games" in text and "finished" in text


def test_open_refuses_a_folder_without_a_run_and_a_hands_run_has_no_games(tmp_path):
    with pytest.raises(SimcoreError, match="not a simcore run folder"):
        simcore.open(tmp_path)
    out = tmp_path / "sp"
    simcore.simulate("spades", 5, seed=1, out=out)
    run = simcore.open(out)
    assert run.hands().collect().height == 5
    with pytest.raises(SimcoreError, match="hands mode"):
        run.games()


# ---------------------------------------------------------------- Python values = CLI strings


SAME = [
    ("spades", {"policy": {"0": "pimc", "bid": "heuristic"}}, {"policy": ["0=pimc", "bid=heuristic"]}),
    ("spades", {"policy": {0: "pimc", 2: "pimc:8"}}, {"policy": ["0=pimc", "2=pimc:8"]}),
    ("spades", {"policy": {"all": "random", 1: "heuristic"}}, {"policy": ["random", "1=heuristic"]}),
    ("spades", {"policy": "random"}, {"policy": ["random"]}),
    ("spades", {"policy": ("random", "0=heuristic")}, {"policy": ["random", "0=heuristic"]}),
    ("spades", {"rules": {"target": 300, "must_break_spades": False, "first_dealer": 2}},
     {"rules": ["target=300", "must_break_spades=false", "first_dealer=2"]}),
    ("spades", {"rules": "target=300"}, {"rules": {"target": "300"}}),
    ("dummy", {"rules": {"layoff_limit": None, "players": 3}}, {"rules": ["layoff_limit=none", "players=3"]}),
    ("euchre", {"predeal": {0: "AS KS QS", "upcard": "JH"}}, {"predeal": ["0=AS,KS,QS", "upcard=JH"]}),
    ("euchre", {"predeal": {0: ["AS", "KS", "QS"], "upcard": ["JH"]}}, {"predeal": ["0=AS,KS,QS", "upcard=JH"]}),
    ("euchre", {"predeal": {"1": [51, 50], "upcard": 35}}, {"predeal": ["1=AS,KS", "upcard=JH"]}),
    ("euchre", {"predeal": "0=AS"}, {"predeal": ["0=AS"]}),
    ("spades", {"conditions": [("dealer", "hcp", ">=", 12), (0, "suit:H", "<=", 2)]},
     {"conditions": ["dealer:hcp>=12", "0:suit:H<=2"]}),
    ("spades", {"conditions": "0:longest>=5"}, {"conditions": ["0:longest>=5"]}),
    ("trump-friend", {"conditions": [("declarer", "points", ">=", 6)], "predeal": {"kitty": ["3S"]}},
     {"conditions": ["declarer:points>=6"], "predeal": ["kitty=3S"]}),
]


@pytest.mark.parametrize("game, python, cli", SAME, ids=[str(i) for i in range(len(SAME))])
def test_python_values_make_the_same_run_as_command_line_strings(game, python, cli):
    assert _identity(game, **python) == _identity(game, **cli)


def test_solve_deals_reads_the_same_python_values():
    python = _solve_identity("trump-friend", policy={"friend": "none"}, rules={"losing_line": 50},
                             predeal={0: ["3S", "2S"]}, conditions=[(0, "longest", ">=", 4)])
    cli = _solve_identity("trump-friend", policy=["friend=none"], rules=["losing_line=50"],
                          predeal=["0=3S,2S"], conditions=["0:longest>=4"])
    assert python == cli


def test_python_values_give_the_rows_of_the_command_line_strings():
    python = simcore.simulate("euchre", 60, seed=7, predeal={1: ["JH", "JD"], "upcard": "9H"},
                              conditions=[(1, "trumps", ">=", 3)], rules={"first_dealer": 0})
    cli = simcore.simulate("euchre", 60, seed=7, predeal=["1=JH,JD", "upcard=9H"],
                           conditions=["1:trumps>=3"], rules=["first_dealer=0"])
    assert python.manifest == cli.manifest
    rows = python.hands().collect()
    assert rows.equals(cli.hands().collect())
    jh, jd, nine_h = 13 * 2 + 9, 13 * 1 + 9, 13 * 2 + 7
    assert rows.select((pl.col("upcard") == nine_h).all(),
                       (pl.col("hand1") & (1 << jh | 1 << jd) == (1 << jh | 1 << jd)).all(),
                       (pl.col("dealer") == 0).all()).row(0) == (True, True, True)


# ---------------------------------------------------------------- bad values: one line


BAD = [
    ({"policy": 5}, "policy must be"),
    ({"policy": [5]}, "expected NAME, SEAT=NAME"),
    ({"policy": {0: 5}}, "expected a policy name"),
    ({"policy": {0: "pimc", "0": "random"}}, "given twice"),
    ({"policy": {(0,): "pimc"}}, "policy key"),
    ({"rules": 5}, "rules must be"),
    ({"rules": ["target"]}, "must look like KEY=VALUE"),
    ({"rules": {"target": 3.5}}, "must be a whole number"),
    ({"rules": {"target": True}}, "must be a whole number"),
    ({"rules": {"must_break_spades": 2}}, "must be true or false"),
    ({"rules": {"target": [300]}}, "expected a number"),
    ({"rules": {"first_dealer": 7}}, "must be one of"),
    ({"rules": {"no_such_option": 1}}, "unknown rules option"),
    ({"predeal": 5}, "predeal must be"),
    ({"predeal": [5]}, "expected SLOT=CARDS"),
    ({"predeal": {0: 3.5}}, "expected cards"),
    ({"predeal": {0: ["AS", None]}}, "is not a card"),
    ({"predeal": {0: ["AS", "AS"]}}, "given twice"),
    ({"predeal": {0: "AS", "0": "KS"}}, "given twice"),
    ({"predeal": {0: ["XX"]}}, "malformed card"),
    ({"predeal": {0: [99]}}, "not in the spades deck"),
    ({"predeal": {"upcard": "AS"}}, "not a slot of spades"),
    ({"conditions": 5}, "conditions must be"),
    ({"conditions": [5]}, "expected a text such as"),
    ({"conditions": [(0, "longest", ">=")]}, "tuple (SEAT, FEATURE, OP, N)"),
    ({"conditions": [(0, "longest", ">=", "5")]}, "tuple (SEAT, FEATURE, OP, N)"),
    ({"conditions": [(0, "longest", "=>", 5)]}, "malformed condition"),
    ({"conditions": [(0, "nonsense", ">=", 5)]}, "unknown feature"),
]


@pytest.mark.parametrize("kw, message", BAD, ids=[m for _, m in BAD])
def test_bad_python_values_are_one_line_errors(kw, message):
    for call in (simcore.simulate, simcore.solve_deals):
        with pytest.raises(SimcoreError) as info:
            call("spades", 10, **kw)
        assert message in str(info.value)
        assert "\n" not in str(info.value)


def test_a_policy_the_game_lacks_is_one_line_in_simulate_and_in_solve():
    with pytest.raises(SimcoreError, match="unknown play policy 'nonsense'"):
        simcore.simulate("spades", 10, policy={0: "nonsense"})
    with pytest.raises(SimcoreError, match="takes only friend=NAME"):
        simcore.solve_deals("trump-friend", 10, policy={"trump": "longest"})
