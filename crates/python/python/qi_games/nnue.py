"""Trainer of qi's Jungle network (NNUE), in NumPy alone.

Reads the data files of ``cargo run --release -p qi-engine --example
nnue_data`` and writes the network file that ``qi_engine::jungle::nnue``
embeds (both formats in ``docs/nnue.md``). It needs nothing but NumPy, so
it runs wherever the package does (no GPU, no PyTorch)::

    python -m qi_games.nnue train DATA.bin [DATA2.bin ...] --out jungle.nnue \\
        --fixture reference.txt [--hidden 128] [--epochs 10] [--minutes 30] \\
        [--tempo T] [--follow W]

or, from a checkout without the package built, ``python
crates/python/python/qi_games/nnue.py train ...`` (the module imports only
NumPy).

The model: 1008 inputs per perspective (8 animals x own/enemy x 63
squares, the board turned 180 degrees for Blue, so that each side sees
itself at the bottom), one hidden layer of ``hidden`` units shared by both
perspectives, clipped ReLU, and one output over the two halves, the side to
move's first. Its output ``y`` is a logit: the evaluation in centi-units is
``y * scale`` and the win probability ``sigmoid(y)``, with ``scale`` fitted
to the data (the ``K`` of ``sigmoid(score / K)`` that best predicts the
results). The loss is the mean squared error between ``sigmoid(y)`` and
``lam * sigmoid(score / scale) + (1 - lam) * result``.

With ``--tempo T`` the output is trained as ``v . (h_us - h_them) + T /
scale``: antisymmetric in the two halves plus a constant, so that a board's
value with either side to move sums to exactly ``2 T`` centi-units, the form
the engine's ``nnue`` profile imposes at load (``Network::with_tempo``). The
file is an ordinary network file (output weights ``v`` and ``-v``, bias
``T``), which that correction leaves as it is when ``T`` is the profile's
tempo.
"""

from __future__ import annotations

import argparse
import struct
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

DATA_MAGIC = b"QINNUEDT"
DATA_VERSION = 1
RECORD_LEN = 24
NET_MAGIC = b"QINNUENT"
NET_VERSION = 2
#: The first layer's byte for a weight outside -127..=127, which follows
#: in the list of escaped weights (docs/nnue.md, "Network file").
ESCAPE = -128
CAPTURED = 63
SQUARES = 63
INPUTS = 2 * 8 * SQUARES
#: The zero row every captured animal's feature points at.
PAD = INPUTS
QA = 255
QB = 512
FLAG_TABLE = 1
FLAG_MATE = 2
FLAG_TACTICAL = 4
MATE_SCORE = 20000

RECORD = np.dtype(
    [
        ("squares", "u1", (2, 8)),
        ("side", "u1"),
        ("result", "u1"),
        ("flags", "u1"),
        ("reserved", "u1"),
        ("score", "<i2"),
        ("ply", "<u2"),
    ]
)
assert RECORD.itemsize == RECORD_LEN


class DataError(ValueError):
    """A data or network file that cannot be used, and why."""


def checksum(data: bytes) -> int:
    """The files' checksum: little-endian u64 words (the last padded with
    zeros), word k times 2k+1, summed modulo 2**64."""
    padded = data + b"\0" * (-len(data) % 8)
    words = np.frombuffer(padded, dtype="<u8")
    factors = np.arange(len(words), dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    with np.errstate(over="ignore"):
        return int(np.sum(words * factors, dtype=np.uint64))


def read_data(path: Path) -> np.ndarray:
    """The records of a data file, refused with :class:`DataError` when the
    header, the length, the checksum or a field is wrong."""
    raw = Path(path).read_bytes()
    if len(raw) < 32:
        raise DataError(f"{path}: {len(raw)} bytes, shorter than the header")
    magic, version, size, count, check = struct.unpack("<8sIIQQ", raw[:32])
    if magic != DATA_MAGIC:
        raise DataError(f"{path}: not a qi NNUE data file (magic {magic!r})")
    if version != DATA_VERSION:
        raise DataError(f"{path}: version {version}, this trainer reads {DATA_VERSION}")
    if size != RECORD_LEN:
        raise DataError(f"{path}: records of {size} bytes, expected {RECORD_LEN}")
    body = raw[32:]
    if len(body) != count * RECORD_LEN:
        raise DataError(f"{path}: {len(body)} bytes of records, the header announces {count * RECORD_LEN}")
    if checksum(body) != check:
        raise DataError(f"{path}: checksum mismatch (damaged)")
    records = np.frombuffer(body, dtype=RECORD)
    squares = records["squares"].reshape(len(records), 16)
    if (squares > CAPTURED).any() or (records["side"] > 1).any() or (records["result"] > 2).any():
        raise DataError(f"{path}: a record holds an impossible value")
    return records


def feature_indices(records: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """The active inputs of each record for the side to move's perspective
    and the other's: two (n, 16) arrays, captured animals pointing at
    :data:`PAD`."""
    squares = records["squares"].astype(np.int64)  # (n, 2, 8): side, animal
    side = records["side"].astype(np.int64)
    n = len(records)
    animal = np.arange(8, dtype=np.int64)
    out = []
    for persp in (side, 1 - side):
        idx = np.empty((n, 2, 8), dtype=np.int64)
        for owner in (0, 1):
            sq = squares[:, owner, :]
            # Blue's perspective sees the board turned 180 degrees.
            seen = np.where(persp[:, None] == 1, SQUARES - 1 - sq, sq)
            rel = (owner != persp).astype(np.int64)[:, None]
            f = (rel * 8 + animal[None, :]) * SQUARES + seen
            idx[:, owner, :] = np.where(sq == CAPTURED, PAD, f)
        out.append(idx.reshape(n, 16))
    return out[0], out[1]


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(x, -60.0, 60.0)))


def fit_scale(records: np.ndarray) -> float:
    """The K for which sigmoid(score / K) best predicts the games' results
    (mean squared error, over the positions with a searched score)."""
    usable = (records["flags"] & (FLAG_MATE | FLAG_TABLE)) == 0
    score = records["score"][usable].astype(np.float64)
    result = records["result"][usable].astype(np.float64) / 2.0
    best_k, best = 400.0, np.inf
    for k in np.arange(50.0, 2000.0, 10.0):
        loss = float(np.mean((sigmoid(score / k) - result) ** 2))
        if loss < best:
            best_k, best = float(k), loss
    return best_k


@dataclass
class Model:
    """The float network: ``w1`` has one extra zero row, :data:`PAD`."""

    w1: np.ndarray  # (INPUTS + 1, hidden)
    b1: np.ndarray  # (hidden,)
    w2: np.ndarray  # (2 * hidden,)
    b2: float
    scale: float

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])

    @staticmethod
    def new(hidden: int, scale: float, rng: np.random.Generator) -> "Model":
        w1 = rng.normal(0.0, 0.1, size=(INPUTS + 1, hidden)).astype(np.float32)
        w1[PAD] = 0.0
        return Model(
            w1=w1,
            b1=np.full(hidden, 0.1, dtype=np.float32),
            w2=rng.normal(0.0, 1.0 / np.sqrt(2 * hidden), size=2 * hidden).astype(np.float32),
            b2=0.0,
            scale=scale,
        )

    def forward(self, stm: np.ndarray, other: np.ndarray) -> Tuple[np.ndarray, Any]:
        """Logits for feature-index arrays, and what backward needs."""
        a_s, a_o = incidence(stm), incidence(other)
        acc_s = a_s @ self.w1 + self.b1
        acc_o = a_o @ self.w1 + self.b1
        h_s = np.clip(acc_s, 0.0, 1.0)
        h_o = np.clip(acc_o, 0.0, 1.0)
        hid = self.hidden
        y = h_s @ self.w2[:hid] + h_o @ self.w2[hid:] + self.b2
        return y, (a_s, a_o, acc_s, acc_o, h_s, h_o)

    def evaluate_cp(self, stm: np.ndarray, other: np.ndarray, batch: int = 8192) -> np.ndarray:
        parts = [self.forward(stm[i : i + batch], other[i : i + batch])[0] for i in range(0, len(stm), batch)]
        return np.concatenate(parts) * self.scale


def incidence(idx: np.ndarray) -> np.ndarray:
    """The (n, INPUTS + 1) 0/1 matrix of the active inputs: a batch of
    sparse inputs as a dense matrix, so that both the first layer and its
    gradient are one BLAS product (faster in NumPy than a gather and a
    scatter of the rows, for batches of thousands)."""
    a = np.zeros((idx.shape[0], INPUTS + 1), dtype=np.float32)
    a[np.arange(idx.shape[0])[:, None], idx] = 1.0
    return a


@dataclass
class Adam:
    lr: float
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8
    t: int = 0

    def __post_init__(self) -> None:
        self.m: List[np.ndarray] = []
        self.v: List[np.ndarray] = []

    def step(self, params: List[np.ndarray], grads: List[np.ndarray]) -> None:
        if not self.m:
            self.m = [np.zeros_like(p) for p in params]
            self.v = [np.zeros_like(p) for p in params]
        self.t += 1
        c1 = 1 - self.beta1**self.t
        c2 = 1 - self.beta2**self.t
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            p -= (self.lr * (m / c1) / (np.sqrt(v / c2) + self.eps)).astype(p.dtype)


#: Weight bounds that keep the quantised sums inside i16 (accumulator: at
#: most 16 animals plus the bias, 255 * 7.5 * 17 < 32767) and i32 (output).
W1_LIMIT = 7.5
W2_LIMIT = 8.0


def follows(records: np.ndarray) -> np.ndarray:
    """Which records have their game's next position as the following
    record: the generator writes a game's positions in order, so the next
    record is the next ply when its ply is one more and the other side is to
    move (a new game starts again at a ply of 0 to ``--random-plies``)."""
    ply = records["ply"].astype(np.int64)
    side = records["side"]
    out = np.zeros(len(records), dtype=bool)
    out[:-1] = (ply[1:] == ply[:-1] + 1) & (side[1:] != side[:-1])
    return out


def targets(records: np.ndarray, scale: float, lam: float, follow: float = 0.0) -> np.ndarray:
    """The training target of every record (before the quiet ones are
    chosen, so that a successor that is not quiet still lends its score).

    ``follow`` mixes in the next position's score, negated (the same game's
    next ply, seen from this side), where there is one: ``(1 - follow) *
    sigmoid(s_t / scale) + follow * (1 - sigmoid(s_t+1 / scale))``. Two
    shallow searches of successive plies disagree by the swing the network
    then learns; their mean is the label of the position and its best
    reply together (docs/nnue.md, try 5)."""
    score = records["score"].astype(np.float64)
    p = sigmoid(score / scale)
    if follow:
        later = np.empty_like(p)
        later[:-1] = 1.0 - p[1:]
        later[-1] = p[-1]
        p = np.where(follows(records), (1.0 - follow) * p + follow * later, p)
    result = records["result"].astype(np.float64) / 2.0
    return (lam * p + (1 - lam) * result).astype(np.float32)


def tie_output(model: Model, tempo: float) -> None:
    """Makes ``model``'s output antisymmetric plus the constant ``tempo``
    (centi-units): the other side's half the negation of the side to
    move's, the bias ``tempo / scale``."""
    hid = model.hidden
    model.w2[hid:] = -model.w2[:hid]
    model.b2 = float(tempo) / model.scale


def loss_of(model: Model, stm: np.ndarray, other: np.ndarray, target: np.ndarray, batch: int = 8192) -> float:
    total = 0.0
    for i in range(0, len(target), batch):
        y, _ = model.forward(stm[i : i + batch], other[i : i + batch])
        total += float(np.sum((sigmoid(y) - target[i : i + batch]) ** 2))
    return total / max(1, len(target))


def train(
    records: np.ndarray,
    hidden: int,
    epochs: int,
    batch: int,
    lr: float,
    lam: float,
    seed: int,
    minutes: float,
    log=print,
    tempo: Optional[float] = None,
    follow: float = 0.0,
) -> Tuple[Model, dict]:
    """Trains a model on the quiet records (not tactical), 2% held out.

    ``tempo`` (centi-units) trains the output as antisymmetric plus that
    constant (:func:`tie_output`): the gradient of the shared weights
    ``v`` is the side to move's half's minus the other's, the bias is not
    trained. A parametrisation rather than a loss term on the two sides'
    sum: it holds exactly on every board, not only on average over those
    the data has, and costs no second forward pass.

    ``follow`` mixes the next ply's score into each target
    (:func:`targets`)."""
    rng = np.random.default_rng(seed)
    is_quiet = (records["flags"] & FLAG_TACTICAL) == 0
    quiet = records[is_quiet]
    scale = fit_scale(quiet)
    quiet_targets = targets(records, scale, lam, follow)[is_quiet]
    order = rng.permutation(len(quiet))
    held = max(1, len(quiet) // 50)
    valid, trainset = quiet[order[:held]], quiet[order[held:]]
    vs, vo = feature_indices(valid)
    vt = quiet_targets[order[:held]]
    ts, to = feature_indices(trainset)
    tt = quiet_targets[order[held:]]
    model = Model.new(hidden, scale, rng)
    if tempo is not None:
        tie_output(model, tempo)
    opt = Adam(lr)
    began = time.monotonic()
    history = []
    for epoch in range(epochs):
        perm = rng.permutation(len(tt))
        for start in range(0, len(perm), batch):
            b = perm[start : start + batch]
            s, o, t = ts[b], to[b], tt[b]
            y, (a_s, a_o, acc_s, acc_o, h_s, h_o) = model.forward(s, o)
            p = sigmoid(y)
            dy = (2.0 * (p - t) * p * (1.0 - p) / len(b)).astype(np.float32)
            if tempo is None:
                g_w2 = np.concatenate([h_s.T @ dy, h_o.T @ dy])
                g_b2 = np.array([dy.sum()], dtype=np.float32)
            else:
                g_v = (h_s - h_o).T @ dy
                g_w2 = np.concatenate([g_v, -g_v])
                g_b2 = np.zeros(1, dtype=np.float32)
            d_s = (dy[:, None] * model.w2[None, :hidden]) * ((acc_s > 0) & (acc_s < 1))
            d_o = (dy[:, None] * model.w2[None, hidden:]) * ((acc_o > 0) & (acc_o < 1))
            g_b1 = d_s.sum(axis=0) + d_o.sum(axis=0)
            g_w1 = a_s.T @ d_s + a_o.T @ d_o
            g_w1[PAD] = 0.0
            b2 = np.array([model.b2], dtype=np.float32)
            opt.step([model.w1, model.b1, model.w2, b2], [g_w1.astype(np.float32), g_b1, g_w2, g_b2])
            model.b2 = float(b2[0])
            np.clip(model.w1, -W1_LIMIT, W1_LIMIT, out=model.w1)
            np.clip(model.w2, -W2_LIMIT, W2_LIMIT, out=model.w2)
            model.w1[PAD] = 0.0
            if tempo is not None:
                # Adam keeps the halves opposite (opposite gradients, the
                # same second moments); this only removes rounding drift.
                tie_output(model, tempo)
        opt.lr *= 0.7
        train_loss = loss_of(model, ts[:200000], to[:200000], tt[:200000])
        valid_loss = loss_of(model, vs, vo, vt)
        elapsed = time.monotonic() - began
        history.append({"epoch": epoch + 1, "train": train_loss, "valid": valid_loss, "seconds": elapsed})
        log(f"epoch {epoch + 1}: train loss {train_loss:.5f}, valid loss {valid_loss:.5f}, {elapsed:.0f} s")
        if elapsed > minutes * 60:
            log(f"time limit of {minutes} min reached")
            break
    info = {
        "positions": len(records),
        "quiet": len(quiet),
        "scale": scale,
        "tempo": tempo,
        "follow": follow,
        "history": history,
    }
    return model, info


def quantise(model: Model) -> Tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    w1 = np.round(model.w1[:INPUTS] * QA).astype(np.int16)
    b1 = np.round(model.b1 * QA).astype(np.int16)
    w2 = np.round(model.w2 * QB).astype(np.int16)
    b2 = int(round(model.b2 * QA * QB))
    return w1, b1, w2, b2, int(round(model.scale))


def network_bytes(model: Model) -> bytes:
    """The network file of ``model`` (docs/nnue.md, "Network file")."""
    w1, b1, w2, b2, scale = quantise(model)
    return encode_network(w1, b1, w2, b2, scale)


def encode_network(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: int, scale: int) -> bytes:
    """A network file of the current version from quantised weights: the
    first layer one byte a weight, :data:`ESCAPE` standing for each
    weight outside -127..=127, whose 16 bits follow in the order of their
    markers. Nearly every weight fits in a byte, so the file is half as
    long and compresses better than the weights as 16 bits (the engine
    embeds it in the web page's module)."""
    flat = np.asarray(w1, dtype=np.int16).reshape(-1)
    escaped = (flat < -127) | (flat > 127)
    plane = np.where(escaped, ESCAPE, flat).astype(np.int8)
    hidden = len(b1)
    head = struct.pack("<8sIIIiiiI", NET_MAGIC, NET_VERSION, INPUTS, hidden, scale, QA, QB, int(escaped.sum()))
    body = head + plane.tobytes() + flat[escaped].astype("<i2").tobytes()
    body += np.asarray(b1).astype("<i2").tobytes() + np.asarray(w2).astype("<i2").tobytes()
    body += struct.pack("<i", b2)
    return body + struct.pack("<Q", checksum(body))


def quantised_cp(model: Model, stm: np.ndarray, other: np.ndarray) -> np.ndarray:
    """What the engine computes from the network file, in integers."""
    w1, b1, w2, b2, scale = quantise(model)
    w1p = np.vstack([w1.astype(np.int64), np.zeros((1, model.hidden), dtype=np.int64)])
    acc_s = w1p[stm].sum(axis=1) + b1
    acc_o = w1p[other].sum(axis=1) + b1
    hid = model.hidden
    out = np.clip(acc_s, 0, QA) @ w2[:hid].astype(np.int64) + np.clip(acc_o, 0, QA) @ w2[hid:].astype(np.int64) + b2
    # Rust's integer division truncates toward zero.
    num = out * scale
    return np.sign(num) * (np.abs(num) // (QA * QB))


def side_sums(model: Model, records: np.ndarray) -> np.ndarray:
    """The quantised value of each record's board plus that of the same
    board with the other side to move (``2 T`` for a network trained with
    ``tempo`` T, within rounding)."""
    other_side = records.copy()
    other_side["side"] = 1 - records["side"]
    return quantised_cp(model, *feature_indices(records)) + quantised_cp(model, *feature_indices(other_side))


def write_fixture(path: Path, model: Model, records: np.ndarray, count: int, seed: int) -> None:
    """Reference evaluations of the float model on ``count`` positions, for
    the engine's test that the quantised network stays close to it: one
    line per position, its 16 squares (Red's animals Rat first, then
    Blue's), the side to move (0 Red, 1 Blue) and the float evaluation in
    centi-units."""
    rng = np.random.default_rng(seed)
    pick = records[rng.choice(len(records), size=min(count, len(records)), replace=False)]
    stm, other = feature_indices(pick)
    cp = model.evaluate_cp(stm, other)
    lines = [
        "# squares (Red Rat..Elephant, Blue Rat..Elephant; 63 captured), side to move, float cp",
    ]
    for rec, value in zip(pick, cp):
        sq = ",".join(str(int(s)) for s in rec["squares"].reshape(16))
        lines.append(f"{sq} {int(rec['side'])} {float(value):.3f}")
    Path(path).write_text("\n".join(lines) + "\n")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="qi_games.nnue", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="train a network on data files")
    t.add_argument("data", nargs="+", type=Path)
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--fixture", type=Path)
    t.add_argument("--fixture-count", type=int, default=64)
    t.add_argument("--hidden", type=int, default=128)
    t.add_argument("--epochs", type=int, default=10)
    t.add_argument("--batch", type=int, default=4096)
    t.add_argument("--lr", type=float, default=2e-3)
    # 1: the score alone. The result is the whole game's label, and mixed in
    # (try 1: 0.75) it made the network answer hundreds of centi-units in
    # positions the search scores even (docs/nnue.md, "Try 2").
    t.add_argument("--lam", type=float, default=1.0, help="weight of the score against the result")
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--minutes", type=float, default=60.0, help="stop after the epoch that passes this")
    # The engine's `nnue` profile imposes this form at load (PROFILE_TEMPO,
    # 25): trained in, the hidden layer learns with it (docs/nnue.md, try 4).
    t.add_argument(
        "--tempo",
        type=float,
        help="train the output antisymmetric plus this side-to-move term (centi-units)",
    )
    # Try 5: the mean of a ply's score and its successor's (docs/nnue.md).
    t.add_argument(
        "--follow",
        type=float,
        default=0.0,
        help="weight of the next ply's negated score in each target (0: none)",
    )
    args = parser.parse_args(argv)
    if not 0.0 <= args.follow <= 1.0:
        parser.error(f"--follow {args.follow}: a weight from 0 to 1")
    try:
        records = np.concatenate([read_data(p) for p in args.data])
    except (DataError, OSError) as e:
        print(f"nnue: {e}", file=sys.stderr)
        return 1
    began = time.monotonic()
    model, info = train(
        records,
        args.hidden,
        args.epochs,
        args.batch,
        args.lr,
        args.lam,
        args.seed,
        args.minutes,
        tempo=args.tempo,
        follow=args.follow,
    )
    args.out.write_bytes(network_bytes(model))
    print(
        f"trained on {info['quiet']} quiet positions of {info['positions']}, scale {info['scale']:.0f}, "
        f"{time.monotonic() - began:.0f} s; wrote {args.out} ({args.out.stat().st_size} bytes)"
    )
    if args.fixture:
        write_fixture(args.fixture, model, records, args.fixture_count, args.seed)
        stm, other = feature_indices(records[:10000])
        diff = np.abs(quantised_cp(model, stm, other) - model.evaluate_cp(stm, other))
        print(f"quantised - float on 10000 positions: max {diff.max():.1f} cp, mean {diff.mean():.2f} cp")
        sums = side_sums(model, records[:10000])
        print(f"value with either side to move, summed: mean {sums.mean():.2f} cp, sd {sums.std():.2f} cp")
    return 0


if __name__ == "__main__":
    sys.exit(main())
