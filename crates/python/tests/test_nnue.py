"""The NumPy trainer of the Jungle network (``qi_games.nnue``) on a tiny
data file written by the engine's generator (the real training never runs
in CI)."""

import struct

import numpy as np
import pytest

from qi_games import nnue

from conftest import REPO

TINY = REPO / "crates" / "python" / "tests" / "data" / "nnue_tiny.bin"
NET = REPO / "crates" / "engine" / "nets" / "jungle.nnue"


def test_reads_the_generators_file_and_refuses_damage(tmp_path):
    records = nnue.read_data(TINY)
    assert len(records) == 387
    assert set(np.unique(records["result"])) <= {0, 1, 2}
    raw = TINY.read_bytes()
    for name, data in {
        "cut": raw[:-5],
        "flipped": raw[:100] + bytes([raw[100] ^ 1]) + raw[101:],
        "magic": b"X" + raw[1:],
    }.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(nnue.DataError):
            nnue.read_data(path)


def test_features_see_each_side_from_its_own_end():
    records = nnue.read_data(TINY)[:50]
    stm, other = nnue.feature_indices(records)
    assert stm.shape == (50, 16)
    # A Red-to-move position seen by Blue is the colour-flipped position
    # seen by its side to move: the same inputs.
    flipped = records.copy()
    flipped["squares"] = np.where(records["squares"] == 63, 63, 62 - records["squares"])[:, ::-1, :]
    flipped["side"] = 1 - records["side"]
    f_stm, f_other = nnue.feature_indices(flipped)
    assert np.array_equal(np.sort(stm, axis=1), np.sort(f_stm, axis=1))
    assert np.array_equal(np.sort(other, axis=1), np.sort(f_other, axis=1))


def test_training_lowers_the_loss_and_writes_a_network_the_engine_reads(tmp_path):
    records = nnue.read_data(TINY)
    model, info = nnue.train(records, hidden=128, epochs=4, batch=64, lr=2e-3, lam=0.75, seed=3, minutes=5, log=lambda _: None)
    history = info["history"]
    assert history[-1]["train"] < history[0]["train"]
    data = nnue.network_bytes(model)
    # The engine's file length (docs/nnue.md): the first layer a byte a
    # weight and the escaped weights after it; a checksum over the rest.
    (escaped,) = struct.unpack("<I", data[32:36])
    assert len(data) == 36 + 1008 * 128 + 2 * escaped + 2 * (128 + 256) + 4 + 8
    assert struct.unpack("<Q", data[-8:])[0] == nnue.checksum(data[:-8])
    assert np.array_equal(first_layer(data), nnue.quantise(model)[0])
    stm, other = nnue.feature_indices(records)
    gap = np.abs(nnue.quantised_cp(model, stm, other) - model.evaluate_cp(stm, other))
    # Rounding the weights to 1/255 and 1/512 moves the output by a few
    # hundredths of a logit at most.
    assert gap.max() <= 0.05 * info["scale"]
    fixture = tmp_path / "reference.txt"
    nnue.write_fixture(fixture, model, records, 10, seed=1)
    assert len(fixture.read_text().splitlines()) == 11


def first_layer(data: bytes) -> np.ndarray:
    """The first layer of a network file of version 2, as the engine reads
    it: each byte its weight, -128 the next escaped weight."""
    (escaped,) = struct.unpack("<I", data[32:36])
    plane = np.frombuffer(data[36 : 36 + 1008 * 128], dtype=np.int8)
    escapes = np.frombuffer(data[36 + 1008 * 128 : 36 + 1008 * 128 + 2 * escaped], dtype="<i2")
    assert (plane == nnue.ESCAPE).sum() == escaped
    weights = plane.astype(np.int16)
    weights[plane == nnue.ESCAPE] = escapes
    return weights.reshape(1008, 128)


def test_the_network_file_escapes_the_weights_a_byte_cannot_hold():
    rng = np.random.default_rng(7)
    w1 = rng.integers(-40, 40, size=(1008, 128)).astype(np.int16)
    # The byte's edges and beyond, and -128, which marks an escape.
    edges = [-1912, -129, -128, -127, 127, 128, 1912]
    w1[5, : len(edges)] = edges
    w1[1007, 127] = -300
    b1 = np.arange(128, dtype=np.int16)
    w2 = rng.integers(-900, 900, size=256).astype(np.int16)
    data = nnue.encode_network(w1, b1, w2, -1234, 410)
    magic, version, inputs, hidden, scale, qa, qb, escaped = struct.unpack("<8sIIIiiiI", data[:36])
    assert (magic, version, inputs, hidden, scale, qa, qb) == (nnue.NET_MAGIC, 2, 1008, 128, 410, 255, 512)
    # -1912, -129, -128, 128, 1912 and -300.
    assert escaped == 6
    assert np.array_equal(first_layer(data), w1)
    tail = data[36 + 1008 * 128 + 2 * escaped : -8]
    assert tail == b1.astype("<i2").tobytes() + w2.astype("<i2").tobytes() + struct.pack("<i", -1234)
    assert struct.unpack("<Q", data[-8:])[0] == nnue.checksum(data[:-8])


def test_the_committed_network_has_the_format_the_trainer_writes():
    data = NET.read_bytes()
    magic, version, inputs, hidden = struct.unpack("<8sIII", data[:20])
    assert (magic, version, inputs, hidden) == (nnue.NET_MAGIC, nnue.NET_VERSION, 1008, 128)
    assert struct.unpack("<Q", data[-8:])[0] == nnue.checksum(data[:-8])
    # Written again from its weights, it is the same file.
    (scale,) = struct.unpack("<i", data[20:24])
    (escaped,) = struct.unpack("<I", data[32:36])
    tail = 36 + 1008 * 128 + 2 * escaped
    b1 = np.frombuffer(data[tail : tail + 256], dtype="<i2")
    w2 = np.frombuffer(data[tail + 256 : tail + 768], dtype="<i2")
    (b2,) = struct.unpack("<i", data[tail + 768 : tail + 772])
    assert nnue.encode_network(first_layer(data), b1, w2, b2, scale) == data


def test_the_engine_searches_with_the_network():
    import pickle

    import qi_games

    game = qi_games.Game("jungle")
    hand = qi_games.Engine("jungle", eval_profile="hand").search(game, depth=5)
    engine = qi_games.Engine("jungle", eval_profile="nnue")
    assert engine.eval_profile == "nnue"
    learned = engine.search(game, depth=5)
    assert learned.best_move in game.legal_moves()
    assert learned.nodes != hand.nodes
    again = pickle.loads(pickle.dumps(engine))
    assert again.eval_profile == "nnue"
    assert again.search(game, depth=5).nodes == learned.nodes
    with pytest.raises(ValueError, match="five-tigers has no evaluation profile 'nnue'"):
        qi_games.Engine("five-tigers", eval_profile="nnue")
    with pytest.raises(ValueError, match="unknown evaluation profile"):
        qi_games.Engine("jungle", eval_profile="clever")
    # The hybrid profile: the network and the hand-written evaluation
    # mixed, another tree than either's.
    hybrid = qi_games.Engine("jungle", eval_profile="hybrid")
    assert hybrid.eval_profile == "hybrid"
    mixed = hybrid.search(game, depth=5)
    assert mixed.best_move in game.legal_moves()
    assert mixed.nodes not in (hand.nodes, learned.nodes)
    assert pickle.loads(pickle.dumps(hybrid)).eval_profile == "hybrid"
    with pytest.raises(ValueError, match="five-tigers has no evaluation profile 'hybrid'"):
        qi_games.Engine("five-tigers", eval_profile="hybrid")
    # The default profile is Jungle's hybrid (it beat the hand-written
    # evaluation) and Five Tigers' hand-written evaluation.
    assert qi_games.Engine("jungle").search(game, depth=5).nodes == mixed.nodes
    five = qi_games.Game("five-tigers")
    assert (
        qi_games.Engine("five-tigers").search(five, depth=4).nodes
        == qi_games.Engine("five-tigers", eval_profile="hand").search(five, depth=4).nodes
    )


def test_the_tempo_trained_in_makes_either_side_to_move_sum_to_twice_it():
    records = nnue.read_data(TINY)
    kwargs = dict(hidden=128, epochs=2, batch=64, lr=2e-3, lam=1.0, seed=5, minutes=5, log=lambda _: None)
    model, info = nnue.train(records, tempo=25.0, **kwargs)
    assert info["tempo"] == 25.0
    assert info["history"][-1]["train"] < info["history"][0]["train"]
    hid = model.hidden
    assert np.array_equal(model.w2[hid:], -model.w2[:hid])
    # What the engine computes from the file: a board with either side to
    # move sums to 2T, short of the two truncating divisions.
    sums = nnue.side_sums(model, records)
    assert np.abs(sums - 50).max() <= 2, sums
    # The file holds v and -v, and the bias T.
    data = nnue.network_bytes(model)
    w2 = np.frombuffer(data[-12 - 4 * hid : -12], dtype="<i2")
    assert np.array_equal(w2[hid:], -w2[:hid]) and np.abs(w2).max() > 0
    (b2,) = struct.unpack("<i", data[-12:-8])
    assert b2 == round(25.0 / info["scale"] * nnue.QA * nnue.QB)
    # Without it the same training leaves the sum to vary from board to
    # board: the check above can fail.
    free, _ = nnue.train(records, **kwargs)
    assert np.abs(nnue.side_sums(free, records) - 50).max() > 2


def test_follow_mixes_in_the_next_ply_s_negated_score_within_a_game_only():
    records = nnue.read_data(TINY).copy()
    nxt = nnue.follows(records)
    # The tiny file holds several games: most records have a successor,
    # and each game's last one has none.
    assert 0 < (~nxt).sum() < len(records) // 4
    plain = nnue.targets(records, 600.0, 1.0)
    mixed = nnue.targets(records, 600.0, 1.0, follow=1.0)
    i = int(np.flatnonzero(nxt)[0])
    assert mixed[i] == pytest.approx(1.0 - plain[i + 1], abs=1e-6)
    last = int(np.flatnonzero(~nxt)[0])
    assert mixed[last] == pytest.approx(plain[last], abs=1e-6)
    half = nnue.targets(records, 600.0, 1.0, follow=0.5)
    assert np.allclose(half[nxt], 0.5 * plain[nxt] + 0.5 * (1.0 - plain[1:][nxt[:-1]]), atol=1e-6)
    # A record whose next one starts another game keeps its own score.
    records["ply"][i + 1] = 0
    assert nnue.targets(records, 600.0, 1.0, follow=1.0)[i] == pytest.approx(plain[i], abs=1e-6)
    model, info = nnue.train(records, hidden=16, epochs=1, batch=64, lr=2e-3, lam=1.0, seed=3, minutes=5, log=lambda _: None, follow=0.5)
    assert info["follow"] == 0.5
