"""Where a sampled run's time goes: inclusive and self shares per function from py-spy's raw output.

    .venv/bin/pip install py-spy
    .venv/bin/py-spy record -r 250 -f raw -o /tmp/gr.raw -- \\
        .venv/bin/python -m tools.count_instructions graenaland random 400 bare warm=100
    .venv/bin/python -m tools.spy_shares /tmp/gr.raw --below simulate_chunk --top 40 [--us 39.3]

Only the samples whose stack passes through a frame named ``--below`` count (by default
``simulate_chunk``: the games, not the start-up); shares are of those samples.  A function's inclusive
share counts each sample once however often the function recurses in it; its self share is the samples
whose innermost frame it is, by function and, with ``--lines``, by line.  With ``--us`` (the
measured microseconds a decision, from ``skald bench``) every share is also given in microseconds a
decision, so a note can say where each one goes.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

_LINE = re.compile(r":\d+\)$")


def shares(raw: str, below: str) -> tuple[int, Counter[str], Counter[str], Counter[str]]:
    """(samples counted, inclusive samples by function, self samples by function, self samples by line)
    of py-spy's raw (collapsed-stack) text, counting only stacks through a frame starting ``below``."""
    total = 0
    inclusive: Counter[str] = Counter()
    by_function: Counter[str] = Counter()
    by_line: Counter[str] = Counter()
    for row in raw.splitlines():
        if not row.strip():
            continue
        stack, count_text = row.rsplit(" ", 1)
        frames = stack.split(";")
        starts = [i for i, frame in enumerate(frames) if frame.startswith(below)]
        if not starts:
            continue
        frames = frames[starts[-1]:]
        count = int(count_text)
        total += count
        for name in {_LINE.sub(")", frame) for frame in frames}:
            inclusive[name] += count
        by_function[_LINE.sub(")", frames[-1])] += count
        by_line[frames[-1]] += count
    return total, inclusive, by_function, by_line


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("raw", type=Path, help="py-spy record -f raw output")
    parser.add_argument("--below", default="simulate_chunk", help="count only stacks through this frame")
    parser.add_argument("--top", type=int, default=40, help="rows in each list")
    parser.add_argument("--lines", action="store_true", help="also list self time by line")
    parser.add_argument("--us", type=float, default=None, help="measured µs a decision: shares in µs too")
    args = parser.parse_args(argv)
    total, inclusive, by_function, by_line = shares(args.raw.read_text(encoding="utf-8"), args.below)
    if not total:
        raise SystemExit(f"no sample passes through a frame named {args.below!r}")
    lists = [("inclusive", inclusive), ("self", by_function)]
    if args.lines:
        lists.append(("self by line", by_line))
    print(f"{total} samples")
    for title, counts in lists:
        print(f"--- {title}")
        for name, count in counts.most_common(args.top):
            share = count / total
            us = f" {share * args.us:6.2f} µs" if args.us is not None else ""
            print(f"{100 * share:5.1f}%{us}  {name}")


if __name__ == "__main__":
    main()
