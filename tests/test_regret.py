"""scripts/regret.py on a few hundred heuristic Spades deals: the table's structure, the replay
of each chosen option, and its paired arithmetic against a computation by hand from the rows of
the ordinary and the what-if run; bad input is one line and exit status 2."""

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import simcore

ROOT = Path(__file__).resolve().parents[1]
DEALS, SEED = 400, 5


def _load():
    spec = importlib.util.spec_from_file_location("regret", ROOT / "scripts" / "regret.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["regret"] = module
    spec.loader.exec_module(module)
    return module


regret = _load()


@pytest.fixture(scope="module")
def table():
    return regret.level_tables("spades", "heuristic", DEALS, SEED)


def test_the_table_has_every_chosen_option_against_every_option(table):
    assert tuple(table.columns) == regret.COLUMNS
    assert set(table["decision"]) == {"nil"} and set(table["alternative"]) == {"nil", "bid"}
    chosen = table.unique("chosen", maintain_order=True)
    assert set(chosen["chosen"]) <= {"nil", "bid", "blind nil"} and "bid" in set(chosen["chosen"])
    assert chosen["deals"].sum() == DEALS  # a nil what-if decides on every deal
    assert chosen["share"].sum() == pytest.approx(1.0)
    for a, part in table.group_by("chosen"):
        assert sorted(part["alternative"]) == ["bid", "nil"]
        assert (part["n"] == part["deals"]).all()


def test_the_regret_of_an_option_against_itself_is_zero(table):
    own = table.filter(table["alternative"] == table["chosen"])
    assert own.height >= 1
    assert (own["gain"] == 0).all() and (own["verdict"] == "replay").all()


def _by_hand():
    """Per deal: (chosen, the ordinary row's net, the nil row's net, the bid row's net) for the
    first bidder's side, from the rows themselves."""
    plain = simcore.simulate("spades", DEALS, seed=SEED, policy="heuristic").hands().collect()
    forced = simcore.simulate("spades", DEALS, seed=SEED, policy="heuristic", what_if="nil").hands().collect()

    def net(row):
        side = (row["dealer"] + 1) % 2
        return row[f"score{side}"] - row[f"score{1 - side}"]

    rows = {}
    for row in plain.iter_rows(named=True):
        first = (row["dealer"] + 1) % 4
        chosen = "blind nil" if row[f"blind{first}"] else "nil" if row[f"bid{first}"] == 0 else "bid"
        rows[row["deal"]] = [chosen, net(row), None, None]
    for row in forced.iter_rows(named=True):
        rows[row["deal"]][2 if row["option"] == "nil" else 3] = net(row)
    return list(rows.values())


def test_the_gains_are_the_paired_means_of_the_rows(table):
    deals = _by_hand()
    for row in table.iter_rows(named=True):
        column = 2 if row["alternative"] == "nil" else 3
        diffs = np.array([d[column] - d[1] for d in deals if d[0] == row["chosen"]], float)
        assert row["n"] == diffs.size
        assert row["gain"] == pytest.approx(diffs.mean())
        if diffs.size > 1 and diffs.std() > 0:
            half = stats.t.ppf(0.975, diffs.size - 1) * diffs.std(ddof=1) / np.sqrt(diffs.size)
            assert (row["low"], row["high"]) == pytest.approx((diffs.mean() - half, diffs.mean() + half))
            expected = "better" if diffs.mean() - half > 0 else "worse" if diffs.mean() + half < 0 else None
            if expected:
                assert row["verdict"] == expected


def test_the_markdown_has_one_table_per_game_and_level(table):
    text = regret.markdown(table, {"heuristic": DEALS}, SEED)
    assert text.count("### Spades, heuristic (400 deals, seed 5)") == 1
    lines = [line for line in text.splitlines() if line.startswith("| `nil` |")]
    assert len(lines) == (table["alternative"] != table["chosen"]).sum()


@pytest.mark.parametrize("args, message", [
    (["--games", "dummy"], "dummy has no what-if decisions"),
    (["--games", "poker"], "unknown game"),
    (["--policies", "wizard"], "unknown policy level wizard"),
    (["--policies", "pimc:0"], "unknown policy level pimc:0"),
    (["--policies", "heuristic:4"], "unknown policy level heuristic:4"),
    (["--games", "spades", "--policies", "expert"], "no game of --games plays the level expert"),
    (["--deals", "0"], "positive whole number"),
    (["--deals", "oracle=5"], "unknown level 'oracle'"),
    (["--seed", "x"], "invalid int value"),
    (["--out", "/no/such/folder/regret.csv"], "does not exist"),
])
def test_bad_input_is_one_line_and_status_2(args, message, capsys):
    try:
        status = regret.main(args)
    except SystemExit as exit:
        status = exit.code
    err = capsys.readouterr().err
    assert status == 2 and message in err and err.count("\n") == 1


def test_a_pimc_level_with_its_worlds():
    assert regret.valid_level("pimc:8") and regret.valid_level("pimc")
    assert regret.level_specs("euchre", "pimc:8") == ["pimc:8"]
    assert regret.level_specs("trump-friend", "pimc:8") == ["pimc:8", "trump=pimc:8", "friend=pimc:8"]
    assert regret.level_specs("spades", "pimc") == ["pimc"]
    assert regret.deals_per_level(["pimc=300"], ["heuristic", "pimc:8"]) == {"heuristic": 20_000, "pimc:8": 300}
