"""ascend-tune on the examples' kernel factories, side by side in one run.

For each of vecadd, softmax, gemm, gemm_relu and flash_attention (their `make_*`
factories in examples/), over a small space that contains the hand-picked example:

* exhaustive: every variant simulated (no pruning) in this process (`inline`): the grid's
  optimum and the warm single-process rate;
* pool: the same sweep on the local pool of warm workers (one per core), no pruning:
  the pool's rate;
* tuned: the default search (grid + pruning) on the pool with a fresh cache: its best
  must equal the exhaustive optimum and be at least as fast as the hand-picked example;
* cached: the same tuned sweep again: every row from the cache;
* ray (--ray): the exhaustive sweep on a 2-node local Ray cluster of this machine
  (started and stopped here), wall time after start-up.

    python bench/tune/run.py [--json bench/tune/results.json] [--kernels vecadd,gemm]
                             [--chips ascend950,ascend910b] [--ray] [--throughput]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from ascend_mlir.tune import TuneResult

ROOT = Path(__file__).resolve().parents[2]

SPACES: dict[str, dict[str, list]] = {
    "vecadd": {"tile": [512, 1024, 2048, 4096], "num_stages": [1, 2, 3]},
    "softmax": {"tr": [8, 16, 32], "num_stages": [1, 2, 3]},
    "gemm": {"blocks": [2, 4], "tk": [64, 128, 256]},
    "gemm_relu": {"tm": [64, 128], "tk": [64, 128]},
    "flash_attention": {"bn": [32, 64, 128]},
}


def _factory(name: str):
    spec = importlib.util.spec_from_file_location(f"example_{name}", ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return getattr(module, f"make_{name}")


def _hand_picked(factory, space: dict, rows: list[dict]) -> dict:
    """The row of the factory's defaults (the example as written), on the sweep's chip."""
    import inspect

    defaults = {k: p.default for k, p in inspect.signature(factory).parameters.items()}
    want = {k: defaults[k] for k in space if k != "chip"}
    (row,) = [r for r in rows if {k: v for k, v in r["config"].items() if k != "chip"} == want]
    return row


def _sweep(factory, space, **options) -> tuple[float, TuneResult]:
    from ascend_mlir.tune import autotune

    start = time.monotonic()
    result = autotune(factory, space, **options)
    return time.monotonic() - start, result


def _kernel(name: str, chip: str, pool, ray) -> dict:
    from ascend_mlir.tune import result_rows_equal

    factory = _factory(name)
    space = {**SPACES[name], "chip": [chip]}
    common = {"verify": 1, "perturb": 2}
    t_inline, exhaustive = _sweep(factory, space, executor="inline", cache=False, prune=False, **common)
    t_pool, pooled = _sweep(factory, space, executor=pool, cache=False, prune=False, **common)
    with tempfile.TemporaryDirectory() as cache:
        t_tuned, tuned = _sweep(factory, space, executor=pool, cache=cache, **common)
        t_cached, cached = _sweep(factory, space, executor=pool, cache=cache, **common)
    hand = _hand_picked(factory, space, exhaustive.rows)
    best, grid_best = tuned.best, exhaustive.best
    n = len(exhaustive.rows)
    out = {
        "kernel": name, "chip": chip, "space": space, "variants": n,
        "statuses": {s: sum(r["status"] == s for r in tuned.rows) for s in
                     ("ok", "wrong", "invalid", "timeout", "crash", "pruned", "dominated", "skipped")},
        "hand_picked": {"config": hand["config"], "cycles": hand.get("cycles"), "status": hand["status"]},
        "tuned_best": {"config": best["config"], "cycles": best["cycles"]} if best else None,
        "grid_best": {"config": grid_best["config"], "cycles": grid_best["cycles"]} if grid_best else None,
        "tuned_equals_grid_optimum": bool(best and grid_best and best["cycles"] == grid_best["cycles"]),
        "speedup_vs_hand_picked": (round(hand["cycles"] / best["cycles"], 3)
                                   if best and hand.get("cycles") else None),
        "bound_at_most_cycles": all(r["bound"] <= r["cycles"] for r in exhaustive.rows
                                    if r["status"] == "ok" and r.get("bound") is not None),
        "every_config_once": all(len(r.rows) == n and [x["index"] for x in r.rows] == list(range(n))
                                 for r in (exhaustive, pooled, tuned, cached)),
        "pool_rows_equal_inline": result_rows_equal(exhaustive, pooled),
        "cached_rows_equal_tuned": result_rows_equal(tuned, cached),
        "seconds": {"inline": round(t_inline, 2), "pool": round(t_pool, 2), "tuned": round(t_tuned, 2),
                    "cached": round(t_cached, 3)},
        "rate": {"inline": round(n / t_inline, 3), "pool": round(n / t_pool, 3)},
    }
    if ray is not None:
        t_ray, on_ray = _sweep(factory, space, executor=ray, cache=False, prune=False, **common)
        out["seconds"]["ray"] = round(t_ray, 2)
        out["ray_rows_equal_inline"] = result_rows_equal(exhaustive, on_ray)
    return out


THROUGHPUT_SPACE = {"tile": [256, 512, 1024, 2048, 4096], "blocks": [4, 8], "num_stages": [1, 2]}


def _throughput(pool, ray) -> dict:
    """Variants per second on one 20-variant vecadd sweep (no pruning, no perturbed
    re-check: only the rate of evaluating variants): inline vs the warm pool (vs Ray)."""
    factory = _factory("vecadd")
    options = {"cache": False, "prune": False, "verify": 0}
    t_inline, inline = _sweep(factory, THROUGHPUT_SPACE, executor="inline", **options)
    t_pool, pooled = _sweep(factory, THROUGHPUT_SPACE, executor=pool, **options)
    from ascend_mlir.tune import result_rows_equal

    n = len(inline.rows)
    # how busy the pool kept its workers: the workers' own seconds per variant over the
    # wall time x workers (1.0 = never idle); on a shared machine this separates the
    # pool's overhead from the CPU share the machine gives this user
    busy = sum(r["seconds"] for r in pooled.rows) / (t_pool * pool.slots)
    out = {"space": THROUGHPUT_SPACE, "variants": n, "seconds": {"inline": round(t_inline, 2), "pool": round(t_pool, 2)},
           "pool_worker_busy_fraction": round(busy, 3),
           "worker_seconds_per_variant": {"inline": round(sum(r["seconds"] for r in inline.rows) / n, 3),
                                          "pool": round(sum(r["seconds"] for r in pooled.rows) / n, 3)},
           "pool_rows_equal_inline": result_rows_equal(inline, pooled),
           "pool_rate_over_workers_x_inline_rate": round(t_inline / t_pool / pool.slots, 3)}
    if ray is not None:
        t_ray, on_ray = _sweep(factory, THROUGHPUT_SPACE, executor=ray, **options)
        out["seconds"]["ray"] = round(t_ray, 2)
        out["ray_rows_equal_inline"] = result_rows_equal(inline, on_ray)
        out["ray_over_pool_wall"] = round(t_ray / t_pool, 3)
    print(f"throughput, {n} vecadd variants: inline {t_inline:.1f} s, pool ({pool.slots} workers) {t_pool:.1f} s "
          f"= {out['pool_rate_over_workers_x_inline_rate']:.2f} x workers x the inline rate; workers busy "
          f"{100 * busy:.0f}% of the time, {out['worker_seconds_per_variant']['pool']:.2f} s per variant in a "
          f"worker vs {out['worker_seconds_per_variant']['inline']:.2f} s inline"
          + (f"; ray {out['seconds']['ray']:.1f} s = {out['ray_over_pool_wall']:.2f} x the pool's wall time"
             if ray is not None else ""))
    return out


def _print(results: list[dict], workers: int) -> None:
    head = (f"{'kernel':16} {'chip':10} {'n':>3} {'hand cyc':>9} {'best cyc':>9} {'speedup':>7} {'=grid':>5} "
            f"{'inline s':>8} {'pool s':>7} {'ray s':>6} {'tuned s':>7} {'cached s':>8} statuses (tuned)")
    print(head)
    print("-" * len(head))
    for r in results:
        st = " ".join(f"{k}={v}" for k, v in r["statuses"].items() if v)
        print(f"{r['kernel']:16} {r['chip']:10} {r['variants']:>3} {r['hand_picked']['cycles'] or '-':>9} "
              f"{(r['tuned_best'] or {}).get('cycles', '-'):>9} {r['speedup_vs_hand_picked'] or '-':>7} "
              f"{'yes' if r['tuned_equals_grid_optimum'] else 'NO':>5} {r['seconds']['inline']:>8} "
              f"{r['seconds']['pool']:>7} {r['seconds'].get('ray', '-'):>6} {r['seconds']['tuned']:>7} "
              f"{r['seconds']['cached']:>8} {st}")
    n = sum(r["variants"] for r in results)
    t = {k: sum(r["seconds"].get(k, 0) for r in results) for k in ("inline", "pool", "ray", "tuned", "cached")}
    print(f"\nall {n} variants: inline {n / t['inline']:.3f}/s, pool ({workers} workers) {n / t['pool']:.3f}/s "
          f"= {t['inline'] / t['pool'] / workers:.2f} x workers x inline; cached rerun {t['cached']:.2f} s = "
          f"{100 * t['cached'] / t['tuned']:.1f}% of the tuned run")
    if t["ray"]:
        print(f"ray (2-node local cluster, after start-up): {t['ray']:.1f} s = {t['ray'] / t['pool']:.2f} x the pool")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", help="write the results here")
    p.add_argument("--kernels", default=",".join(SPACES), help="comma-separated subset of " + ",".join(SPACES))
    p.add_argument("--chips", default="ascend950",
                   help="comma-separated chips; each kernel's space is swept once per chip (ascend950,ascend910b)")
    p.add_argument("--ray", action="store_true", help="also run on a 2-node local Ray cluster")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--throughput", action="store_true", help="also the 20-variant throughput sweep")
    args = p.parse_args()
    import ascend_mlir.frontend  # noqa: F401 - the inline baseline is a warm process too
    import ascend_mlir.sim.simulator  # noqa: F401
    from ascend_mlir.tune.executors import LocalPool, RayExecutor

    cluster = ray = None
    start = time.monotonic()
    pool = LocalPool(args.workers)
    pool.start()  # one warm pool for every sweep: start-up is measured on its own
    startup = {"pool": round(time.monotonic() - start, 2)}
    try:
        if args.ray:
            from ascend_mlir.tune.ray_local import LocalCluster

            start = time.monotonic()
            cluster = LocalCluster(nodes=2, cpus_per_node=max(1, args.workers // 2))
            ray = RayExecutor(cluster.start())
            ray.start()  # warm: one import of the compiler per Ray worker, as pool.start() above
            startup["ray_cluster"] = round(time.monotonic() - start, 2)
        results = [_kernel(name, chip, pool, ray) for name in args.kernels.split(",") if name
                   for chip in args.chips.split(",") if chip]
        throughput = _throughput(pool, ray) if args.throughput else None
    finally:
        pool.close()
        if ray is not None:
            ray.close()
            import ray as ray_module

            ray_module.shutdown()
        if cluster is not None:
            cluster.stop()
    if results:
        _print(results, args.workers)
    print(f"start-up (not in the times above): {startup}")
    if args.json:
        Path(args.json).write_text(json.dumps({"cores": os.cpu_count(), "workers": args.workers,
                                               "load_average": os.getloadavg(), "startup_seconds": startup,
                                               "kernels": results, "throughput": throughput}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
