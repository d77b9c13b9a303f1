"""How a pytest-xdist run's workers spent it, read back from a `--cpu-durations-log` of
tools/pytest_cpu_durations.py (rows `CPU_SECONDS NODEID WORKER END_TIME`):

    PYTHONPATH=tools python -m pytest -n 2 --dist loadfile --no-loadscope-reorder \\
        -p pytest_cpu_durations --cpu-durations-log run.log test/python
    python tools/xdist_schedule.py run.log

prints, per worker, its CPU seconds, when its last test ended (seconds after the run's
first test ended) and its last files in order; then the idle tail, how long the first
worker to finish waited for the other (--dist loadfile hands out whole files, so a
costly file handed out late keeps one worker busy alone)."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path


def read_rows(path: Path) -> list[tuple[float, str, str, float]]:
    """(CPU seconds, node id, worker, end time) per logged test; rows of the older
    two-column log are skipped."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        # a parametrized node id may hold spaces: the worker and the time are the last two
        try:
            rows.append((float(parts[0]), " ".join(parts[1:-2]), parts[-2], float(parts[-1])))
        except ValueError:  # an older row whose node id has spaces, and no time
            continue
    return rows


def report(rows: list[tuple[float, str, str, float]], last_files: int = 6) -> str:
    start = min(row[3] for row in rows)
    per_worker: dict[str, list[tuple[float, str, str, float]]] = defaultdict(list)
    for row in rows:
        per_worker[row[2]].append(row)
    lines, ends = [], {}
    for worker, worker_rows in sorted(per_worker.items()):
        worker_rows.sort(key=lambda row: row[3])
        ends[worker] = worker_rows[-1][3] - start
        files: list[list] = []  # [file, CPU seconds, end]
        for cpu, nodeid, _, end in worker_rows:
            name = nodeid.split("::")[0].rsplit("/", 1)[-1]
            if not files or files[-1][0] != name:
                files.append([name, 0.0, 0.0])
            files[-1][1] += cpu
            files[-1][2] = end - start
        lines.append(f"{worker}: {sum(row[0] for row in worker_rows):.1f} CPU s, {len(worker_rows)} tests, "
                     f"last ended at {ends[worker]:.1f} s")
        lines.extend(f"    {name}: {cpu:.1f} CPU s, ended at {end:.1f} s" for name, cpu, end in files[-last_files:])
    lines.append(f"idle tail: {max(ends.values()) - min(ends.values()):.1f} s")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: xdist_schedule.py CPU_DURATIONS_LOG", file=sys.stderr)
        return 2
    rows = read_rows(Path(argv[0]))
    if not rows:
        print(f"xdist_schedule: error: {argv[0]} has no rows with a worker and an end time", file=sys.stderr)
        return 1
    print(report(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
