"""kafka.cli.progress.Progress, driven by a hand-moved clock."""

from __future__ import annotations

import io
import threading

from kafka.cli.progress import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class ClosedStream(io.StringIO):
    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


def test_terminal_bar_redraws_in_place_and_ends_the_line() -> None:
    clock, out = Clock(), io.StringIO()
    progress = Progress(1000, "produce", out, tty=True, width=60, clock=clock)
    progress.update(100)
    assert out.getvalue() == ""  # less than the interval since the start
    clock.now += 1.0
    progress.update(150)
    first = out.getvalue()
    assert first.startswith("\rproduce [") and first.endswith("\x1b[K")
    assert "250/1,000  25% 250/s" in first
    clock.now += 1.0
    progress.update(750)
    progress.close()
    frames = out.getvalue().split("\r")[1:]
    assert len(frames) == 3  # two timed redraws and the final one
    assert frames[-1].endswith("\x1b[K\n")
    assert "1,000/1,000 100% 500/s" in frames[-1]
    assert "[" + "#" * frames[-1].count("#") + "]" in frames[-1] and "." not in frames[-1].split("]")[0]
    assert all(len(frame.replace("\x1b[K", "").rstrip("\n")) <= 60 for frame in frames)
    progress.close()  # a second close draws nothing
    assert out.getvalue().count("\n") == 1


def test_bar_fill_follows_the_fraction() -> None:
    clock = Clock()
    progress = Progress(200, "x", io.StringIO(), tty=True, width=80, clock=clock)
    progress.done = 50
    line = progress.render(clock.now + 1, width=80)
    bar = line[line.index("[") + 1:line.index("]")]
    assert len(bar) == 40 and bar.count("#") == 10 and set(bar) == {"#", "."}


def test_plain_lines_on_a_pipe_every_interval() -> None:
    clock, out = Clock(), io.StringIO()
    progress = Progress(10, "consume", out, tty=False, clock=clock)
    assert progress.interval == 2.0
    for _ in range(10):
        clock.now += 0.5
        progress.update(1)
    progress.close()
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue()
    # Updates at 2.0 s and 4.0 s drew; close drew the final state.
    assert lines == ["consume: 4/10  40% 2/s", "consume: 8/10  80% 2/s", "consume: 10/10 100% 2/s"]


def test_unknown_total_shows_count_and_rate() -> None:
    clock, out = Clock(), io.StringIO()
    with Progress(None, "records", out, tty=False, clock=clock) as progress:
        clock.now += 4
        progress.update(12000)
    assert out.getvalue() == "records 12,000 3,000/s\n" * 2


def test_disabled_and_stream_detection() -> None:
    out = io.StringIO()
    with Progress(5, "quiet", out, enabled=False) as progress:
        progress.update(5)
    assert out.getvalue() == "" and progress.done == 5
    assert Progress(5, "p", io.StringIO()).tty is False  # StringIO is not a terminal


def test_a_closed_stream_stops_drawing_without_raising() -> None:
    clock = Clock()
    progress = Progress(10, "p", ClosedStream(), tty=False, interval=0.1, clock=clock)
    clock.now += 1
    progress.update(1)
    assert progress.enabled is False
    progress.close()


def test_updates_from_many_threads_are_all_counted() -> None:
    progress = Progress(80000, "p", io.StringIO(), tty=True, interval=0.0)

    def work() -> None:
        for _ in range(10000):
            progress.update(1)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    progress.close()
    assert progress.done == 80000
