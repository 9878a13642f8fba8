"""The rules through Python agree with the Rust crates: perft counts of
the crates' own perft suites (start and mid-game positions of every
preset), legal moves, results and errors."""

import pytest

import qi_games
from conftest import ALL_SPECS, REPO

# The crates' perft suites: (game, file). Finished and empty-board suites
# test position reading rather than move generation and are left out.
SUITES = [
    ("jungle", "crates/jungle/tests/data/start.perft"),
    ("jungle", "crates/jungle/tests/data/hand-built.perft"),
    ("five-tigers", "crates/five-tigers/tests/data/mid-game.perft"),
    ("five-tigers", "crates/five-tigers/tests/data/hand-written.perft"),
]

# Keep the suite quick: counts above this are left to the Rust tests.
MAX_NODES = 3_000_000


def read_suite(game: str, path: str):
    cases, case = [], None
    for line in (REPO / path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        if key == "id":
            case = {"id": rest, "perft": []}
            cases.append(case)
        elif key == "rules":
            case["spec"] = f"{game}:{rest}"
        elif key == "position":
            case["position"] = None if rest == "start" else rest
        elif key == "perft":
            depth, count = rest.split()
            if int(count) <= MAX_NODES:
                case["perft"].append((int(depth), int(count)))
    return [c for c in cases if c["perft"]]


CASES = [case for game, path in SUITES for case in read_suite(game, path)]


def test_the_suites_are_read():
    assert len(CASES) >= 30
    assert {c["spec"] for c in CASES} == set(ALL_SPECS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f'{c["spec"]}/{c["id"]}')
def test_perft_agrees_with_the_rust_suites(case):
    game = qi_games.Game(case["spec"], case["position"])
    for depth, count in case["perft"]:
        assert game.perft(depth) == count, (case["id"], depth)
        assert qi_games.perft(case["spec"], depth, case["position"]) == count


def test_start_positions():
    assert qi_games.perft("jungle", 2) == 576
    assert len(qi_games.Game("five-tigers:ten").legal_moves()) == 25


def test_play_and_undo():
    game = qi_games.Game("jungle")
    start = game.position
    game.play("a3a4")
    assert game.side_to_move == "second"
    assert game.moves == ["a3a4"]
    assert game.undo() == "a3a4"
    assert game.position == start
    assert game.undo() is None


def test_den_entry_ends_the_game():
    game = qi_games.Game("jungle", "7/3L3/7/7/7/7/7/7/6l w 0 1")
    assert game.outcome() is None
    game.play("d8d9")
    outcome = game.outcome()
    assert outcome.result == "1-0"
    assert outcome.winner == "first"
    assert "den" in outcome.reason
    assert game.legal_moves() == []
    with pytest.raises(ValueError):
        game.play("g1g2")


def test_no_legal_move_loses_in_five_tigers():
    game = qi_games.Game("five-tigers", "5/5/5/X4/OX3 o move X:0,O:0 - o -,- 0")
    outcome = game.outcome()
    assert (outcome.result, outcome.winner) == ("1-0", "first")
    assert outcome.reason == "no legal move"


def test_history_rules_apply():
    # Traditional Jungle: the side that began a repetition cycle loses if
    # it plays it again (the initiator-loses rule).
    game = qi_games.Game("jungle:traditional", "1L5/c6/7/7/7/7/7/7/6E w 0 1")
    for mv in "b9b8 a8a9 b8b9 a9a8 b9b8 a8a9 b8b9 a9a8".split():
        game.play(mv)
    assert game.outcome() is None
    game.play("b9b8")
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == "second"


@pytest.mark.parametrize(
    "spec, position, move, words",
    [
        ("jungle", None, "zz", "bad move 'zz'"),
        ("jungle", None, "a3a5", "illegal move a3a5"),
        ("five-tigers", None, "c3-c4", "illegal move"),
        ("five-tigers", None, "q9", "file 'q'"),
    ],
)
def test_bad_moves_raise_and_change_nothing(spec, position, move, words):
    game = qi_games.Game(spec, position)
    before = game.position
    with pytest.raises(ValueError, match=words):
        game.play(move)
    assert game.position == before
    assert game.ply == 0


@pytest.mark.parametrize(
    "spec, position, words",
    [
        ("chess", None, "unknown game 'chess'"),
        ("jungle:blitz", None, "preset 'jungle:blitz'"),
        ("five-tigers:nope", None, "nope"),
        ("jungle", "7/7/7", "ranks"),
        ("jungle", "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x 0 1", "x"),
        ("five-tigers", "55/5/5/5/5 x place X:12,O:12 - x -,- 0", "board"),
        ("five-tigers", "5/5/5/5/5 x", "8 space-separated fields"),
    ],
)
def test_bad_specs_and_texts_raise(spec, position, words):
    with pytest.raises(ValueError, match=words):
        qi_games.Game(spec, position)


def test_errors_escape_control_characters():
    with pytest.raises(ValueError) as err:
        qi_games.Game("jungle").play("a3\x1b[2J")
    assert "\x1b" not in str(err.value)
    assert "\\u{1b}" in str(err.value)


def test_perft_depth_is_bounded():
    with pytest.raises(ValueError, match="depth"):
        qi_games.Game("jungle").perft(1000)


def test_the_package_docstring_examples_run():
    import doctest

    failures, tried = doctest.testmod(qi_games)
    assert tried > 0 and failures == 0
