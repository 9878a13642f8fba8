"""The engine through Python: legal best moves, limits, errors."""

import threading

import pytest

import qi_games


def test_search_by_depth_returns_a_legal_move_and_its_pv():
    game = qi_games.Game("jungle")
    result = qi_games.Engine("jungle").search(game, depth=5)
    assert result.best_move in game.legal_moves()
    assert result.depth == 5
    assert result.pv[0] == result.best_move
    assert result.nodes > 0
    assert result.score_text.startswith("cp ")


def test_search_by_nodes_and_time():
    game = qi_games.Game("five-tigers")
    engine = qi_games.Engine("five-tigers")
    assert engine.search(game, nodes=2000).best_move in game.legal_moves()
    assert engine.search(game, movetime_ms=50).best_move in game.legal_moves()


def test_the_engine_finds_the_den():
    game = qi_games.Game("jungle", "7/7/3L3/7/7/7/7/7/6l w 0 1")
    result = qi_games.Engine().search(game, depth=4)
    assert result.best_move == "d7d8"
    assert result.score_text == "mate 2"


def test_a_finished_game_has_no_best_move():
    game = qi_games.Game("jungle", "7/3L3/7/7/7/7/7/7/6l w 0 1")
    game.play("d8d9")
    assert qi_games.Engine().search(game, depth=3).best_move is None


def test_engine_errors():
    with pytest.raises(ValueError, match="depth, nodes or movetime_ms"):
        qi_games.Engine().search(qi_games.Game())
    with pytest.raises(ValueError, match="not the game"):
        qi_games.Engine("jungle").search(qi_games.Game("five-tigers"), depth=2)
    with pytest.raises(ValueError):
        qi_games.Engine("go")
    with pytest.raises(ValueError):
        qi_games.Engine("jungle", hash_mib=0)


def test_the_search_releases_the_gil():
    # A Python thread keeps counting while the engine searches.
    engine = qi_games.Engine()
    game = qi_games.Game()
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    thread = threading.Thread(target=count)
    thread.start()
    try:
        engine.search(game, movetime_ms=300)
    finally:
        done.set()
        thread.join()
    assert ticks > 1000


def test_forced_scores_are_thirty_thousand_less_the_plies():
    # Red's Lion enters the den in one ply: the score the docs promise.
    game = qi_games.Game("jungle", "7/3L3/7/7/7/7/7/7/6l w 0 1")
    found = qi_games.Engine("jungle").search(game, depth=3)
    assert found.best_move == "d8d9" and found.score == 30_000 - 1 and found.score_text == "mate 1"


def test_levels_weaken_the_search_and_replay_from_their_seed():
    game = qi_games.Game("jungle")
    full = qi_games.Engine("jungle").search(game, depth=8)
    weak = qi_games.Engine("jungle").search(game, depth=8, level=1)
    assert weak.best_move in game.legal_moves() and weak.nodes < full.nodes

    def moves(seed):
        engine, g = qi_games.Engine("jungle", seed=seed), qi_games.Game("jungle")
        for _ in range(12):
            g.play(engine.search(g, depth=6, level=1).best_move)
        return g.moves

    assert moves(5) == moves(5)
    assert len({tuple(moves(s)) for s in range(4)}) > 1  # the seed matters
    with pytest.raises(ValueError, match="level must be 1 to 10, not 11"):
        qi_games.Engine().search(game, depth=2, level=11)


def test_batch_engine_levels_replay():
    def run(seed):
        vec = qi_games.VecGame("five-tigers", 6, seed=1, random_plies=3)
        engine = qi_games.BatchEngine("five-tigers", threads=2, seed=seed)
        out = []
        for _ in range(5):
            actions, _ = engine.search(vec, depth=4, level=1)
            out.append(actions.tolist())
            vec.step(actions)
        return out

    assert run(3) == run(3)
    with pytest.raises(ValueError, match="1 to 10"):
        qi_games.BatchEngine("jungle").search(qi_games.VecGame("jungle", 1), depth=1, level=0)


def test_multipv_lines_are_distinct_legal_and_best_first():
    import pickle

    game = qi_games.Game("five-tigers")
    engine = qi_games.Engine("five-tigers")
    single = engine.search(game, depth=4)
    assert len(single.lines) == 1
    assert single.lines[0].pv == single.pv
    engine.clear()
    result = engine.search(game, depth=4, multipv=3)
    assert len(result.lines) == 3
    firsts = [line.pv[0] for line in result.lines]
    assert len(set(firsts)) == 3
    assert all(m in game.legal_moves() for m in firsts)
    assert [l.score for l in result.lines] == sorted((l.score for l in result.lines), reverse=True)
    assert result.best_move == firsts[0]
    assert result.lines[0].score == result.score
    assert all(l.depth == 4 for l in result.lines)
    assert pickle.loads(pickle.dumps(result)) == result
    # More lines than moves: one per move.
    endgame = qi_games.Game("jungle", position="7/3L3/7/7/7/7/7/7/6l w 0 1")
    lines = qi_games.Engine("jungle").search(endgame, depth=2, multipv=100).lines
    assert len(lines) == len(endgame.legal_moves())
    for bad in (0, -1, 1000):
        with pytest.raises(ValueError, match="multipv"):
            engine.search(game, depth=2, multipv=bad)
