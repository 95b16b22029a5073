"""Bad input: ParseError (a ValueError) with offset, line, column and kind; never a crash; no
growth of memory across 10^5 calls."""

import os
import random
from pathlib import Path

import pytest

import kifu


def test_parse_error_is_a_value_error_with_its_position() -> None:
    with pytest.raises(kifu.ParseError) as info:
        list(kifu.read(b"(;GM[1]\n;B[aa]\n;W[bb"))
    e = info.value
    assert isinstance(e, ValueError)
    assert (e.kind, e.offset, e.line, e.column) == ("unexpected_eof", 17, 3, 3)
    assert e.source == "<bytes>" and e.detail is None
    assert "3:3" in str(e) and "unexpected_eof" in str(e)


def test_not_a_record() -> None:
    with pytest.raises(kifu.ParseError) as info:
        list(kifu.read(b"hello, world"))
    assert (info.value.kind, info.value.offset, info.value.line, info.value.column) == ("not_a_game_record", 0, 1, 1)


def test_not_a_record_file_names_it(tmp_path: Path) -> None:
    p = tmp_path / "x.txt"
    p.write_bytes(b"plain text")
    with pytest.raises(kifu.ParseError) as info:
        list(kifu.read(p))
    assert info.value.source == str(p)


def test_iteration_goes_on_after_an_error_and_skip_passes_over_it() -> None:
    data = b"(;B[aa])(;B[bb])" + b"(;B[cc" + b"x" * 10
    games = kifu.read(data)
    assert next(games).move_text == "B[aa]"
    assert next(games).move_text == "B[bb]"
    with pytest.raises(kifu.ParseError):
        next(games)
    assert list(games) == []
    assert [g.move_text for g in kifu.read(data, errors="skip")] == ["B[aa]", "B[bb]"]


def test_strict_turns_warnings_into_errors() -> None:
    with pytest.raises(kifu.ParseError) as info:
        list(kifu.read(b"junk\n(;B[aa])", strict=True))
    assert (info.value.kind, info.value.detail) == ("strict", "junk_before_game")
    assert (info.value.line, info.value.column) == (1, 1)


def test_limit_exceeded_names_the_limit() -> None:
    deep = b"(;B[aa]" + b"(;W[bb]" * 100_000 + b")" * 100_001
    with pytest.raises(kifu.ParseError) as info:
        list(kifu.read(deep))
    assert (info.value.kind, info.value.detail) == ("limit_exceeded", "depth")


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        kifu.read(42)  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        kifu.read("/nonexistent/kifu/file.sgf")
    with pytest.raises(ValueError, match="errors must be"):
        kifu.read(b"(;)", errors="ignore")  # type: ignore[arg-type]


def test_mutated_records_never_crash(samples: Path) -> None:
    rng = random.Random(26)
    seeds = [p.read_bytes() for p in sorted(samples.iterdir()) if p.is_file()]
    outcomes = {"games": 0, "errors": 0}
    for i in range(3000):
        data = bytearray(rng.choice(seeds))
        for _ in range(rng.randint(1, 8)):
            at = rng.randrange(len(data))
            op = rng.random()
            if op < 0.4:
                data[at] = rng.randrange(256)
            elif op < 0.7:
                del data[at : at + rng.randint(1, 16)]
            else:
                data[at:at] = bytes([rng.choice(b"()[];\\\n%+-PNBW:")])
        games = kifu.read(bytes(data))
        while True:
            try:
                game = next(games)
            except StopIteration:
                break
            except kifu.ParseError as e:
                assert e.offset <= len(data) and e.line >= 0 and e.column >= 0 and e.kind
                outcomes["errors"] += 1
                continue
            game.events()
            game.tree()
            outcomes["games"] += 1
    assert outcomes["games"] > 0 and outcomes["errors"] > 0


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="no /proc (not Linux)")
def test_no_leak_across_100000_calls() -> None:
    good = b"(;GM[1]PB[Lee]PW[Cho];B[pd];W[dp];B[pp])"
    bad = b"(;GM[1]PB[Lee];B[pd];W[dp"

    def call(i: int) -> None:
        if i % 2:
            (g,) = kifu.read(good)
            assert len(g.moves) == 3 and g.info["black_name"] == "Lee"
        else:
            try:
                list(kifu.read(bad))
            except kifu.ParseError as e:
                assert (e.offset, e.line, e.column) == (22, 1, 23)  # the unterminated value's '['

    for i in range(10_000):  # warm-up: the allocator's pools settle
        call(i)
    before = _rss()
    for i in range(100_000):
        call(i)
    grown = _rss() - before
    # A leak of one game or one exception per call would be several megabytes at the least.
    assert grown < 4 << 20, f"resident memory grew by {grown} bytes over 10^5 calls"
