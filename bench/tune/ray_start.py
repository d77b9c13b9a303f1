"""How often a local Ray cluster (`ascend_mlir.tune.ray_local.LocalCluster`: a head and a
worker, as test_tune_ray starts it) comes up on this machine, and what a start costs.

    PYTHONPATH=. python bench/tune/ray_start.py --tries 4 [--attempts 1] [--json out.json]

Each try starts the cluster with `--attempts` start attempts per node (1 measures a single
`ray start` against Ray's fixed deadlines: the raylet's 15 s for its dashboard agent, then
`ray start`'s 30 s for the raylet) and stops it by PID. Per try: whether it came up, the
wall seconds to up (or to giving up), the CPU seconds of the nodes' processes (their
sessions, sampled every 0.5 s, so a process that lives less than that is missed) and the
1-minute load average when it began; a failure quotes the raylet's fatal line. Wall
seconds measure the load as much as Ray: quote the load with them.
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from pathlib import Path

from ascend_mlir.tune import ray_local


def _session_cpu(sessions: set[int], seen: dict[int, float]) -> None:
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # state ppid pgrp session ... utime stime
        if int(fields[3]) in sessions:
            seen[int(entry)] = (int(fields[11]) + int(fields[12])) / tick


def one_start(attempts: int) -> dict:
    cluster = ray_local.LocalCluster(nodes=2, cpus_per_node=1, attempts=attempts)
    seen: dict[int, float] = {}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            _session_cpu(set(cluster.node_pids), seen)
            time.sleep(0.5)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    load, begin = os.getloadavg()[0], time.monotonic()
    error = ""
    try:
        cluster.start()
    except RuntimeError as err:
        error = str(err).splitlines()[-1].strip()[:200]
    seconds = time.monotonic() - begin
    _session_cpu(set(cluster.node_pids), seen)
    done.set()
    sampler.join()
    cluster.failed = False  # a measurement keeps no logs
    cluster.stop()
    return {"up": not error, "seconds": round(seconds, 1), "cpu_seconds": round(sum(seen.values()), 1),
            "load": round(load, 1), "error": error}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tries", type=int, default=4)
    parser.add_argument("--attempts", type=int, default=1, help="start attempts per node within a try")
    parser.add_argument("--json", help="write the rows here too")
    args = parser.parse_args()
    if ray_local.ray_command() is None:
        raise SystemExit("ray_start: Ray is not installed (pip install 'ascend-mlir[ray]')")
    rows = []
    for _ in range(args.tries):
        rows.append(one_start(args.attempts))
        print(json.dumps(rows[-1]), flush=True)
    up = [r for r in rows if r["up"]]
    print(f"{len(up)} of {len(rows)} up (attempts per node: {args.attempts}); CPU s of a start that came up: "
          f"{[r['cpu_seconds'] for r in up]}, of one that did not: {[r['cpu_seconds'] for r in rows if not r['up']]}")
    if args.json:
        Path(args.json).write_text(json.dumps({"cores": os.cpu_count(), "attempts": args.attempts, "rows": rows},
                                              indent=1) + "\n")


if __name__ == "__main__":
    main()
