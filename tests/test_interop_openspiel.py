"""simcore policies as OpenSpiel bots (simcore.interop.openspiel, docs/interop.md).

Legal play in every state, agreement with simcore's own engine where the rules coincide (and
the documented differences where they do not), hidden information respected (same seed +
same information state -> same action), and bad settings refused in one line.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from simcore.errors import SimcoreError  # noqa: E402
from simcore.interop import os_euchre, os_gin_rummy, os_spades  # noqa: E402
from simcore.interop.openspiel import make_bot  # noqa: E402


def play_out(state, bots, rng, on_step=None):
    """Play ``state`` to the end: chance uniformly from ``rng``, every player a bot whose
    action must be one of OpenSpiel's legal actions."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        p = state.current_player()
        a = bots[p].step(state)
        assert a in state.legal_actions(p)
        if on_step:
            on_step(state, p, a)
        state.apply_action(a)
    return state


# ---------------------------------------------------------------- legal in every state

MIXES = {
    "euchre": [("heuristic", "random", "heuristic", "random"), ("random",) * 4,
               ("heuristic",) * 4],
    "spades": [("heuristic", "random", "random", "heuristic"), ("random",) * 4],
    "gin_rummy": [("expert", "random"), ("heuristic", "expert"), ("random", "heuristic")],
}
GAMES = {  # game string -> games per policy mix
    "euchre": 150,
    "euchre(allow_lone_defender=true,stick_the_dealer=false)": 150,
    "spades": 15,
    "gin_rummy": 25,
    "gin_rummy(knock_card=5)": 15,
}


@pytest.mark.parametrize("spec", list(GAMES))
def test_bots_play_a_legal_action_in_every_state(spec):
    game = pyspiel.load_game(spec)
    name = game.get_type().short_name
    rng = random.Random(spec)
    for k, mix in enumerate(MIXES[name]):
        bots = [make_bot(game, p, mix[p], seed=k) for p in range(game.num_players())]
        for _ in range(GAMES[spec]):
            assert play_out(game.new_initial_state(), bots, rng).is_terminal()


# the search policies (pimc:W, dd) in a few games each: their kernels compile once per file
SEARCH_MIXES = {
    "euchre": [("pimc:4", "heuristic", "dd", "random"), ("pimc:2", "pimc:3", "pimc", "dd")],
    "euchre(allow_lone_defender=true,stick_the_dealer=false)": [("dd", "pimc:4", "random",
                                                                  "pimc:2")],
    "spades": [("pimc:2", "heuristic", "dd", "random")],
}


@pytest.mark.parametrize("spec", list(SEARCH_MIXES))
def test_search_bots_play_a_legal_action_in_every_state(spec):
    game = pyspiel.load_game(spec)
    rng = random.Random(spec)
    games = 2 if spec == "spades" else 25
    for k, mix in enumerate(SEARCH_MIXES[spec]):
        bots = [make_bot(game, p, mix[p], seed=k) for p in range(4)]
        assert [b.omniscient for b in bots] == [m == "dd" for m in mix]
        for _ in range(games):
            assert play_out(game.new_initial_state(), bots, rng).is_terminal()


# ---------------------------------------------------------------- against simcore's engine
# The replays live in scripts/match_openspiel.py (its ``agree`` command prints the counts
# that docs/interop.md records); each labels a deal "same" or by the documented rule
# difference that made it part, and "MISMATCH: ..." for anything else.


def _match_script():
    spec = importlib.util.spec_from_file_location(
        "match_openspiel", Path(__file__).resolve().parent.parent / "scripts" / "match_openspiel.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _check_labels(labels, allowed):
    assert all(label in allowed for label in labels), [x for x in labels if x not in allowed]
    assert labels.count("same") > len(labels) // 2


def test_euchre_bots_choose_what_simcore_chooses_where_the_rules_coincide():
    """Every heuristic bid, discard, lone decision and card is simcore's under OpenSpiel's
    rules (stick the dealer, compulsory pick-up, no lone defender), except where OpenSpiel
    asks only the declarer about going alone (EU-12 also asks the maker's partner) or leads
    from the dealer's left where EU-13 has the seat left of a lone player lead."""
    labels = _match_script().euchre_agreement(1500, 11)
    _check_labels(labels, {"same", "partner alone", "lone player's leader"})


EUCHRE_DIFFERENCES = {"same", "partner alone", "lone player's leader", "lone defender"}


@pytest.mark.parametrize("policy", ["pimc:4", "pimc-uniform:4", "dd"])
def test_euchre_search_bots_decide_as_simcore_given_the_engines_stream(policy):
    """pimc and dd in every seat, the bots drawing the deal's stream as simcore's engine
    does: every bid, discard, lone decision and card is the engine's but for the documented
    differences (a searching defender may go alone in simcore, never in OpenSpiel's default)."""
    _check_labels(_match_script().euchre_agreement(40, 13, policy), EUCHRE_DIFFERENCES)


def test_euchre_replay_needs_the_engines_stream():
    """The replay above is no formality: with the bots' own streams pimc's worlds differ."""
    script = _match_script()
    script.use_engine_stream = lambda bots, st: None
    labels = script.euchre_agreement(40, 13, "pimc:2")
    assert any(label.startswith("MISMATCH") for label in labels)


@pytest.mark.parametrize("policy", ["pimc:2", "dd"])
def test_spades_search_bots_bid_and_play_as_simcore_given_the_engines_stream(policy):
    """The deals dealt by seat 3 (OpenSpiel's seating), pimc or dd in every seat drawing the
    engine's stream: bids and cards are simcore's until a rule difference (a spade lead
    OpenSpiel forbids, a bid above its cap, or the fact OpenSpiel's rule gives that a spade
    leader holds only spades)."""
    labels = _match_script().spades_agreement(16, 5, policy)
    allowed = {"same", "spade lead OpenSpiel forbids", "spade-only fact",
               "bid above OpenSpiel's cap"}
    assert labels and all(x in allowed for x in labels), labels


def test_spades_bots_bid_and_play_as_simcore_until_a_spade_lead_openspiel_forbids():
    """Bids are simcore's in every deal (no blind nil; OpenSpiel's seat 0 is left of the
    dealer); cards are simcore's until its heuristic leads a spade after spades broke (SP-7):
    OpenSpiel never marks spades broken, so the bot picks among OpenSpiel's legal leads."""
    labels = _match_script().spades_agreement(150, 12)
    assert all(x in {"same", "spade lead OpenSpiel forbids"} for x in labels), labels
    assert "same" in labels


@pytest.mark.parametrize("policy", ["heuristic", "expert"])
def test_gin_bots_play_the_hand_simcore_plays(policy):
    """Same deck, same policy: the upcard decision, every turn, the knock and the hands at
    the knock are simcore's; the knocker's deadwood too.  Where they part: a knock at
    OpenSpiel's wall where simcore voids (GR-12), a tie that is no undercut in OpenSpiel
    (GR-14), and a defender laying off more because the knocker could not see its hand
    (GR-11)."""
    labels = _match_script().gin_agreement(120, 21, policy)
    _check_labels(labels, {"same", "same (void)", "wall knock", "tie (no undercut)", "lay-off"})


# ---------------------------------------------------------------- hidden information


def _decision_points(game, policies, n, rng):
    """``n`` (state, player) pairs of random positions in games played by ``policies``."""
    out = []
    bots = [make_bot(game, p, policies[p], seed=99) for p in range(game.num_players())]
    while len(out) < n:
        state = game.new_initial_state()
        stop = rng.randrange(4, 60)
        moves = 0
        while not state.is_terminal() and moves < stop:
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(bots[state.current_player()].step(state))
                moves += 1
        if not state.is_terminal() and not state.is_chance_node():
            out.append(state)
    return out


def _spades_twin(game, state, player, rng):
    """Two unplayed cards of two other players swapped (None if the replay is illegal)."""
    hist = state.history()
    slots = [i for i in range(52) if i % 4 != player and hist[i] not in hist[52:]]
    if len(slots) < 2:
        return None
    i, j = rng.sample(slots, 2)
    hist[i], hist[j] = hist[j], hist[i]
    return _replay(game, hist)


def _gin_twin(game, state, player, rng):
    """A card the opponent holds unseen (dealt or drawn, never shown) swapped for one still
    in the stock."""
    full = state.full_history()
    hist = [s.action for s in full]
    chance = [s.player < 0 for s in full]
    opp = 1 - player
    unseen = set(range(10 * opp, 10 * opp + 10))  # its dealt cards, and its stock draws:
    unseen |= {i for i in range(21, len(full)) if chance[i]
               and full[i - 1].action == os_gin_rummy.DRAW_STOCK and full[i - 1].player == opp}
    shown = {a for k, a in enumerate(hist) if not chance[k]}
    slots = [i for i in sorted(unseen) if hist[i] not in shown]
    stock = sorted(set(range(52)) - set(a for k, a in enumerate(hist) if chance[k]))
    if not slots or not stock:
        return None
    hist[rng.choice(slots)] = rng.choice(stock)
    return _replay(game, hist)


def _replay(game, actions):
    state = game.new_initial_state()
    for a in actions:
        if a not in state.legal_actions():
            return None
        state.apply_action(a)
    return state


def _twin(name, game, state, player, rng):
    if name == "euchre":  # OpenSpiel's own resampling, which keeps every void shown
        return state.resample_from_infostate(player, rng.random)
    return (_spades_twin if name == "spades" else _gin_twin)(game, state, player, rng)


@pytest.mark.parametrize("name", ["euchre", "spades", "gin_rummy"])
def test_same_seed_and_information_state_give_the_same_action(name):
    game = pyspiel.load_game(name)
    glue = {"euchre": os_euchre, "spades": os_spades, "gin_rummy": os_gin_rummy}[name]
    rng = random.Random(name)
    n_players = game.num_players()
    policies = ["random"] * n_players
    compared = differed = 0
    for state in _decision_points(game, policies, 40, rng):
        p = state.current_player()
        for _ in range(20):
            twin = _twin(name, game, state, p, rng)
            if twin is not None and str(twin) != str(state):
                break
        else:
            continue
        table = glue.setup(game.get_parameters())
        assert glue.observe(twin, p, table).visible == glue.observe(state, p, table).visible
        if name == "euchre":
            assert twin.information_state_string(p) == state.information_state_string(p)
        extra = {"gin_rummy": ["expert"], "euchre": ["pimc:4"], "spades": ["pimc:2"]}[name]
        for policy in ["random", "heuristic"] + extra:
            a = make_bot(game, p, policy, seed=5).step(state)
            b = make_bot(game, p, policy, seed=5).step(twin)
            assert a == b, (policy, str(state))
        compared += 1
        other = make_bot(game, p, "random", seed=6).step(state)
        differed += other != make_bot(game, p, "random", seed=5).step(state)
    assert compared >= 20
    assert differed > 0  # the seed does matter


# ---------------------------------------------------------------- settings and names


@pytest.mark.parametrize("spec, policy, player, message", [
    ("gin_rummy(oklahoma=true)", "expert", 0, "oklahoma=True is not playable"),
    ("gin_rummy(num_ranks=12)", "expert", 0, "num_ranks=12 is not playable"),
    ("gin_rummy(hand_size=9)", "heuristic", 0, "hand_size=9 is not playable"),
    ("gin_rummy(gin_bonus=5000)", "heuristic", 0, "gin_bonus"),
    ("spades(win_threshold=0)", "heuristic", 0, "target"),
    ("euchre", "pimc:0", 0, "pimc:0: W must be a whole number of worlds 1 ... 10000"),
    ("spades", "pimc:x", 0, "pimc:x: W must be a whole number of worlds"),
    ("euchre", "dd:3", 0, "takes no ':3' argument"),
    ("euchre", "mcts", 0, "unknown policy 'mcts' for OpenSpiel euchre"),
    ("euchre", "expert", 0, "unknown policy 'expert'"),
    ("spades", "heuristic:3", 0, "takes no ':3' argument"),
    ("spades", "heuristic", 4, "player_id must be 0 ... 3"),
    ("tic_tac_toe", "heuristic", 0, "no simcore bot for OpenSpiel game 'tic_tac_toe'"),
])
def test_settings_simcore_cannot_play_are_refused_in_one_line(spec, policy, player, message):
    with pytest.raises(SimcoreError) as err:
        make_bot(pyspiel.load_game(spec), player, policy)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_openspiel_parameters_become_simcore_rules():
    eu = make_bot(pyspiel.load_game("euchre(stick_the_dealer=false)"), 0)
    assert (eu.rules.stick_the_dealer, eu.rules.dealer_pickup_optional,
            eu.rules.allow_turned_down_suit) == (False, False, False)
    sp = make_bot(pyspiel.load_game("spades(win_threshold=300)"), 1)
    assert (sp.rules.target, sp.rules.blind_nil) == (300, False)
    gin = make_bot(pyspiel.load_game("gin_rummy(knock_card=7,gin_bonus=20)"), 1, "expert")
    assert (gin.rules.knock_limit, gin.rules.gin_bonus, gin.rules.undercut_bonus) == (7, 20, 25)
