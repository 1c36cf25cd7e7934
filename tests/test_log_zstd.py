"""Games packed with zstd (bus.log "zstd", the tournament's default packing): every payload comes
back byte for byte, the writer never makes a frame its readers refuse, and a hostile Zstandard
frame (no declared size, a size past one game's limit, a size it lies about, a dictionary, a
window past the readers' limit, bytes after it, a bomb) ends in a typed error within the memory
bound. The fuzz cases are in tests/hostile/test_fuzz_logs.py (7c)."""

from __future__ import annotations

from pathlib import Path

import pytest
import zstandard

from bus.codec import DELTA_FIELDS, pack, unpack
from bus.errors import BadPacking, BadPayload, OverLimit
from bus.log import _ZSTD_WINDOW, MAGIC, MAX_GAME_BYTES, READ_MEMORY, frame, iter_frames, parse_log
from replay.verify import verify_game
from tests.hostile.logs import GOLDEN, golden, payloads_of, peak_memory
from tests.test_log_packed import _packed as packed_log

MiB = 1 << 20


def _pack(payloads: list[bytes], method: str = "zstd") -> bytes:
    return packed_log(payloads, method)


def _data(packed_log: bytes) -> bytes:
    (_, outer), = iter_frames(packed_log, len(MAGIC))[0]
    item = unpack(outer)
    assert item["packed"] == "zstd"
    return item["data"]


def _log(data: bytes) -> bytes:
    return MAGIC + frame(pack({"packed": "zstd", "data": data}))


def _stops_with(data: bytes, kind: type, words: str) -> None:
    log = parse_log(_log(data))
    assert isinstance(log.bad, kind) and words in log.bad.reason, log.bad
    assert log.bad.offset == len(MAGIC) and not log.games


def _zeros(n: int, first: bytes = b"", size: int | None = None) -> bytes:
    """A Zstandard frame of `first` then n zero bytes, made a MiB at a time (declaring `size`, by
    default the true one; None after `size=-1`: no size)."""
    total = len(first) + n
    obj = zstandard.ZstdCompressor(level=1).compressobj(size=total if size is None else size)
    out = [obj.compress(first)]
    zero = b"\0" * MiB
    for _ in range(n // MiB):
        out.append(obj.compress(zero))
    out.append(obj.compress(b"\0" * (n % MiB)))
    out.append(obj.flush())
    return b"".join(out)


def test_every_golden_log_round_trips_and_verifies():
    for path in sorted(GOLDEN.glob("*.log")):
        payloads = payloads_of(path.read_bytes())
        log = parse_log(_pack(payloads), check=True)
        assert log.bad is None and len(log.games) == 1, path.name
        assert [pack(log.games[0].header), *log.games[0].payloads] == payloads, path.name
    game = parse_log(_pack(payloads_of(golden("werewolves-random-8p"))), check=True).games[0]
    assert verify_game(game).ok


def test_zstd_is_smaller_than_zlib_on_a_talky_game():
    payloads = payloads_of(golden("werewolves-random-8p"))
    assert len(_pack(payloads)) < 0.95 * len(_pack(payloads, "zlib"))


def test_the_writer_declares_the_size_and_keeps_the_window_within_the_readers_limit():
    payloads = payloads_of(golden("werewolves-random-8p"))
    header = payloads[0]
    records = [p for p in payloads[1:] if unpack(p)["msg"]["kind"] not in DELTA_FIELDS]  # each one decodes alone
    big = [header] + records * (12 * MiB // sum(map(len, records)) + 1)  # a 12 MiB game of frames
    packed_log = _pack(big)
    params = zstandard.get_frame_parameters(_data(packed_log))
    assert params.content_size == sum(len(frame(p)) for p in big)
    assert params.window_size <= MiB // 2 < _ZSTD_WINDOW and params.dict_id == 0
    log = parse_log(packed_log)  # unchecked: the repeated seqs are not refused
    assert log.bad is None and len(log.games[0].payloads) == len(big) - 1


def test_a_frame_without_its_size_is_refused():
    framed = b"".join(frame(p) for p in payloads_of(golden("hanabi-random-2")))
    _stops_with(zstandard.ZstdCompressor(write_content_size=False).compress(framed), BadPacking, "does not declare its size")


def test_a_declared_size_past_one_game_is_refused_before_inflating():
    """1 GiB of zeros, 33 KB on disk: refused by its header alone."""
    data = _zeros(1 << 30)
    assert len(data) < 64 * 1024
    log, peak = peak_memory(lambda: parse_log(_log(data)))
    assert isinstance(log.bad, OverLimit) and f"past {MAX_GAME_BYTES >> 20} MiB" in log.bad.reason
    assert peak < 2 * MiB


def test_a_zstd_bomb_within_the_declared_size_stops_at_the_first_frame_that_is_not_one():
    header = payloads_of(golden("hanabi-random-2"))[0]
    data = _zeros(60 * MiB, frame(header))
    log, peak = peak_memory(lambda: parse_log(_log(data)))
    assert isinstance(log.bad, (BadPacking, BadPayload)) and log.bad.offset == len(MAGIC), log.bad
    assert peak < 16 * MiB  # fed a few bytes at a time: it stops at the first empty frame


def test_a_frame_that_inflates_past_its_declared_size_stops_there():
    """The size field of a real frame of 20 MiB (of zeros, past its 2 MiB window, so not a single
    segment) changed to say 1 MiB: the reader stops once it has more than it was told."""
    data = bytearray(_zeros(20 * MiB))
    fhd = data[4]
    assert fhd >> 6 == 2 and not fhd >> 5 & 1 and fhd & 3 == 0  # a 4-byte size after the window byte
    data[6:10] = MiB.to_bytes(4, "little")
    log, peak = peak_memory(lambda: parse_log(_log(bytes(data))))
    assert isinstance(log.bad, (BadPacking, BadPayload)), log.bad
    assert peak < 24 * MiB < READ_MEMORY


def test_a_window_past_the_readers_limit_is_refused():
    params = zstandard.ZstdCompressionParameters.from_level(1, window_log=24)
    obj = zstandard.ZstdCompressor(compression_params=params).compressobj(size=20 * MiB)
    data = b"".join([obj.compress(b"\0" * MiB) for _ in range(20)] + [obj.flush()])
    assert zstandard.get_frame_parameters(data).window_size == 16 * MiB
    _stops_with(data, OverLimit, "window")


def test_a_frame_that_needs_a_dictionary_is_refused():
    samples = [p for path in sorted(GOLDEN.glob("werewolves-*.log")) for p in payloads_of(path.read_bytes())]
    dictionary = zstandard.train_dictionary(4096, samples)
    framed = b"".join(frame(p) for p in payloads_of(golden("werewolves-random-8p")))
    data = zstandard.ZstdCompressor(dict_data=dictionary).compress(framed)
    _stops_with(data, BadPacking, "dictionary")


@pytest.mark.parametrize("extra", [b"x", b"\0" * 9, None])
def test_bytes_after_the_frame_are_refused(extra):
    framed = b"".join(frame(p) for p in payloads_of(golden("hanabi-random-2")))
    one = zstandard.ZstdCompressor().compress(framed)
    log = parse_log(_log(one + (extra if extra is not None else one)))
    assert isinstance(log.bad, BadPacking) and "bytes after its compressed stream" in log.bad.reason, log.bad
    assert log.bad.offset == len(MAGIC)  # found once the game is read (as with zlib): the game does not verify
    assert len(log.games) == 1 and not verify_game(log.games[0], log.bad).ok


def test_a_cut_frame_is_refused():
    framed = b"".join(frame(p) for p in payloads_of(golden("hanabi-random-2")))
    one = zstandard.ZstdCompressor().compress(framed)
    for cut in (len(one) - 1, len(one) // 2, 7):
        log = parse_log(_log(one[:cut]))
        assert isinstance(log.bad, BadPacking) and not log.games, (cut, log.bad)


def test_a_tournament_spec_packs_with_zstd_by_default():
    from ops.tournament.spec import parse_spec

    spec = parse_spec({"game": "werewolves", "games": 2, "seed": 4, "lineup": [{"agent": "random", "count": 10}]})
    assert spec.packing() == "zstd"


def test_a_folder_packed_by_zlib_then_zstd_reads_and_verifies(tmp_path: Path, capsys):
    """A run resumed after the default changed: its older segments zlib, its newer zstd; every game
    loads by id, is the game a plain log holds, and the folder verifies."""
    from ops.cli import main
    from ops.tournament.runner import BatchPlayer
    from ops.tournament.spec import parse_spec
    from ops.tournament.store import Store, load_game

    base = {"game": "werewolves", "games": 4, "seed": 5, "lineup": [{"agent": "random", "count": 10}]}
    plain_rows = {}
    for runner, (compress, games) in enumerate([("zlib", [0, 1]), (True, [2, 3]), (False, [0, 1, 2, 3])]):
        out = tmp_path / ("plain" if compress is False else "run")
        player = BatchPlayer(str(out), parse_spec({**base, "compress": compress}).model_dump(mode="json"), f"t-r00{runner}")
        try:
            rows = player.play(games)
        finally:
            player.close()
        if compress is False:
            plain_rows = {r["game_id"]: read_game_at_row(out, r) for r in rows}
            continue
        with Store(out) as store:
            store.add(rows)
        methods = {_data_method(out, r) for r in rows}
        assert methods == {"zlib" if compress == "zlib" else "zstd"}
    for game_id, plain in plain_rows.items():
        game, bad = load_game(tmp_path / "run", game_id)
        assert bad is None and game.payloads == plain.payloads
    assert main(["replay", "verify", str(tmp_path / "run")]) == 0
    assert "ok: 4 games reproduced" in capsys.readouterr().out


def read_game_at_row(out: Path, row: dict):
    from bus.log import read_game_at

    game, bad = read_game_at(out / "logs" / row["segment"], row["offset"], game_id=row["game_id"])
    assert bad is None
    return game


def _data_method(out: Path, row: dict) -> str:
    data = (out / "logs" / row["segment"]).read_bytes()
    (_, outer), = iter_frames(MAGIC + data[row["offset"]:row["offset"] + row["nbytes"]], len(MAGIC))[0]
    return unpack(outer)["packed"]
