"""The sweep: which variant runs when, what is pruned, and in what order rows land.

Grid search dispatches the variants in grid order (num_stages slowest). To keep the
table the same whatever order results come back in (and whichever executor runs them),
every decision about variant i reads only rows that are final when i is dispatched, and
which rows those are does not depend on timing:

* dominance: i waits for the variants that differ from it only by fewer `num_stages`;
  one whose loops all chose fewer buffer versions than its num_stages gives i's result
  without compiling (row `dominated`, `same_as` it): the stage bound did not bind there,
  so raising it is taken to change nothing (the issue's rule; bench/tune checks the
  tuned optimum against the unpruned grid);
* lower bound: i is dispatched once every variant before i - window (window = 2 x
  slots) is done; the best `ok` cycles among those is i's threshold, and a worker that
  finds the compiled variant's pipe-busy bound at or above it skips the simulation
  (`pruned`).

TPE (Optuna ask/tell, seeded) asks a batch of `slots` configs, evaluates them, tells
the results in ask order, and repeats until `budget` distinct variants ran; the rest of
the grid is `skipped`. After either search, the best `ok` variants get the full oracle
with perturbed latencies (`perturb` runs); one that fails becomes `wrong` and the next
best is checked, until `verify` variants pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ascend_mlir.tune.space import STAGES_KEY, Variant, config_json, differs_only_in_stages

MEASURED = ("cycles", "bound", "loops", "bytes", "pipe_busy", "key")


@dataclass
class Plan:
    """Everything the sweep needs besides the variants."""

    make_task: Callable[[Variant], dict]
    fast_key: Callable[[Variant, int], str]
    cache: Any  # Cache | None
    prune: bool = True
    time_budget: float | None = None
    perturb: int = 3
    verify: int = 3
    on_row: Callable[[dict], None] | None = None
    on_progress: Callable[[int, int], None] | None = None
    started: float = field(default_factory=time.monotonic)


class Sweep:
    def __init__(self, variants: list[Variant], executor, plan: Plan):
        self.variants = variants
        self.executor = executor
        self.plan = plan
        self.rows: dict[int, dict] = {}
        self.window = 2 * executor.slots
        self._by_config = {config_json(v.config): v for v in variants}
        self._settled = 0  # rows of variants 0 .. _settled-1 are in the decision state
        self._best: int | None = None
        self._by_rest: dict[str, list[dict]] = {}  # TPE: finished rows by config without stages
        self._by_rest_variant: dict[str, list[Variant]] = {}
        for v in variants:
            if STAGES_KEY in v.config:
                self._by_rest_variant.setdefault(self._rest(v.config), []).append(v)
        self._absorbed: set[int] = set()

    # ---- bookkeeping -------------------------------------------------------------
    def _record(self, variant: Variant, row: dict) -> None:
        row = {"index": variant.index, "config": dict(variant.config), **row}
        self.rows[variant.index] = row
        if self.plan.on_row:
            self.plan.on_row(row)
        if self.plan.on_progress:
            self.plan.on_progress(len(self.rows), len(self.variants))

    def _store(self, task: dict, variant: Variant, row: dict) -> None:
        # a worker that died (no key: it never reported) may be the machine's fault: not kept
        if self.plan.cache is not None and row.get("status") != "skipped" and \
                (row.get("key") or row.get("status") == "timeout"):
            self.plan.cache.store(row, task, self.plan.fast_key(variant, task.get("perturb", 0)))

    def _out_of_time(self) -> bool:
        budget = self.plan.time_budget
        return budget is not None and time.monotonic() - self.plan.started > budget

    # ---- decisions read only rows settled before the variant's horizon -----------
    def _settle(self, horizon: int) -> bool:
        """Take the rows of variants below `horizon` into the decision state; False while
        one of them is still running."""
        while self._settled < horizon:
            row = self.rows.get(self._settled)
            if row is None:
                return False
            if row["status"] == "ok" and row.get("cycles") is not None:
                self._best = row["cycles"] if self._best is None else min(self._best, row["cycles"])
            self._settled += 1
        return True

    @staticmethod
    def _rest(config: dict) -> str:
        return config_json({k: v for k, v in config.items() if k != STAGES_KEY})

    def _siblings(self, variant: Variant) -> list[Variant]:
        """The variants that differ from `variant` only by fewer stages (grid search waits
        for them: dominance reads their rows, whichever order results arrive in)."""
        stages = variant.config.get(STAGES_KEY)
        if not self.plan.prune or not isinstance(stages, int):
            return []
        return [v for v in self._by_rest_variant.get(self._rest(variant.config), [])
                if isinstance(v.config[STAGES_KEY], int) and v.config[STAGES_KEY] < stages]

    def _dominating(self, variant: Variant, rows: list[dict]) -> dict | None:
        if not self.plan.prune or STAGES_KEY not in variant.config:
            return None
        stages = variant.config[STAGES_KEY]
        for row in rows:
            s = row["config"].get(STAGES_KEY)
            if (row["status"] in ("ok", "wrong", "pruned", "dominated") and row.get("loops") is not None
                    and isinstance(s, int) and isinstance(stages, int) and s < stages
                    and differs_only_in_stages(row["config"], variant.config)
                    and _largest_unroll(s) == _largest_unroll(stages)
                    and all(max(lp["versions"].values(), default=0) < s for lp in row["loops"])):
                return row
        return None

    def _dispatch(self, variant: Variant, in_flight: dict[int, tuple], earlier: list[dict]) -> None:
        source = self._dominating(variant, earlier)
        if source is not None:
            same = source.get("same_as", source["index"])
            row = {k: source[k] for k in MEASURED if k in source}
            row.update(status="dominated", same_as=same, cache_hit=False, seconds=0.0,
                       chip=source.get("chip"),
                       message=f"same as #{same}: its loops chose fewer versions than num_stages")
            self._record(variant, row)
            return
        task = self.plan.make_task(variant)
        task["threshold"] = self._best if self.plan.prune else None
        hit = None
        if self.plan.cache is not None:
            hit = self.plan.cache.lookup_index(self.plan.fast_key(variant, 0), task)
        if hit is not None:
            hit.update(cache_hit=True, seconds=0.0)
            self._record(variant, hit)
            return
        in_flight[variant.index] = (variant, task)
        self.executor.submit(variant.index, task)

    def _collect(self, in_flight: dict[int, tuple], timeout: float | None) -> None:
        for task_id, row in self.executor.wait(timeout):
            variant, task = in_flight.pop(task_id)
            self._store(task, variant, row)
            self._record(variant, row)

    # ---- searches ----------------------------------------------------------------
    def grid(self) -> None:
        order = sorted(self.variants, key=lambda v: v.index)
        in_flight: dict[int, tuple] = {}
        nxt = 0
        while nxt < len(order) or in_flight:
            while nxt < len(order) and self.executor.free() > 0:
                if self._out_of_time():
                    for v in order[nxt:]:
                        self._record(v, {"status": "skipped", "cache_hit": False, "seconds": 0.0,
                                         "message": "the time budget ran out before it was dispatched"})
                    nxt = len(order)
                    break
                siblings = self._siblings(order[nxt])
                if not self._settle(max(0, order[nxt].index - self.window)) or \
                        any(v.index not in self.rows for v in siblings):
                    break
                self._dispatch(order[nxt], in_flight, [self.rows[v.index] for v in siblings])
                nxt += 1
            if in_flight:
                self._collect(in_flight, 1.0)

    def tpe(self, budget: int, seed: int) -> None:
        import optuna

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        space: dict[str, list] = {}
        for v in self.variants:
            for k, value in v.config.items():
                if value not in space.setdefault(k, []):
                    space[k].append(value)
        dists: dict[str, optuna.distributions.BaseDistribution] = {
            k: optuna.distributions.CategoricalDistribution(vals) for k, vals in space.items()}
        study = optuna.create_study(direction="minimize", sampler=optuna.samplers.TPESampler(seed=seed))
        budget = min(budget, len(self.variants))
        asked = 0
        while len(self.rows) < budget and asked < 20 * len(self.variants) and not self._out_of_time():
            batch = []
            for _ in range(self.executor.slots):
                trial = study.ask(dists)
                batch.append((trial, self._by_config[config_json({k: trial.params[k] for k in space})]))
            asked += len(batch)
            self._run_batch([v for _, v in batch], budget)
            for trial, variant in batch:
                self._tell(study, trial, self.rows.get(variant.index))
            self._absorb_batch()
        for v in self.variants:
            if v.index not in self.rows:
                self._record(v, {"status": "skipped", "cache_hit": False, "seconds": 0.0,
                                 "message": "not chosen by the TPE search within its budget"})

    def _run_batch(self, batch: list[Variant], budget: int) -> None:
        in_flight: dict[int, tuple] = {}
        for variant in batch:
            if variant.index in self.rows or variant.index in in_flight or \
                    len(self.rows) + len(in_flight) >= budget:
                continue
            self._dispatch(variant, in_flight, self._by_rest.get(self._rest(variant.config), []))
        while in_flight:
            self._collect(in_flight, 1.0)

    @staticmethod
    def _tell(study, trial, row: dict | None) -> None:
        from optuna.trial import TrialState

        if row is not None and row["status"] in ("ok", "dominated") and row.get("cycles") is not None:
            study.tell(trial, float(row["cycles"]))
        elif row is not None and row["status"] == "pruned":
            study.tell(trial, state=TrialState.PRUNED)
        else:
            study.tell(trial, state=TrialState.FAIL)

    def _absorb_batch(self) -> None:
        """TPE: every finished row so far informs the next batch (batches finish whole)."""
        for index in sorted(self.rows):
            row = self.rows[index]
            if row["status"] == "ok" and row.get("cycles") is not None:
                self._best = row["cycles"] if self._best is None else min(self._best, row["cycles"])
            if STAGES_KEY in row["config"] and index not in self._absorbed:
                rest = config_json({k: v for k, v in row["config"].items() if k != STAGES_KEY})
                self._by_rest.setdefault(rest, []).append(row)
                self._absorbed.add(index)

    def verify_best(self) -> None:
        """The full oracle with perturbed latencies for the best `ok` variants."""
        if self.plan.perturb <= 0 or self.plan.verify <= 0:
            return
        passed = 0
        checked: set[int] = set()
        while passed < self.plan.verify:
            candidates = sorted((r for r in self.rows.values() if r["status"] == "ok" and r["index"] not in checked),
                                key=lambda r: (r["cycles"], r["index"]))[:self.plan.verify - passed]
            if not candidates:
                return
            in_flight: dict[int, tuple] = {}
            results: dict[int, dict] = {}
            for row in candidates:
                variant = self.variants[row["index"]]
                task = self.plan.make_task(variant)
                task.update(perturb=self.plan.perturb, threshold=None)
                checked.add(row["index"])
                hit = None
                if self.plan.cache is not None:
                    hit = self.plan.cache.lookup_index(self.plan.fast_key(variant, self.plan.perturb), task)
                if hit is not None:
                    results[row["index"]] = hit
                    continue
                while self.executor.free() == 0:
                    self._finish_checks(in_flight, results)
                in_flight[variant.index] = (variant, task)
                self.executor.submit(variant.index, task)
            while in_flight:
                self._finish_checks(in_flight, results)
            for index, result in sorted(results.items()):
                row = self.rows[index]
                row["perturb"] = self.plan.perturb
                if result.get("status") == "ok" and result.get("cycles") == row["cycles"]:
                    passed += 1
                else:
                    row["status"] = "wrong" if result.get("status") in ("ok", "wrong") else result["status"]
                    row["message"] = f"full oracle with --perturb {self.plan.perturb}: " + \
                        (result.get("message") or f"cycles {result.get('cycles')} != {row['cycles']}")

    def _finish_checks(self, in_flight: dict[int, tuple], results: dict[int, dict]) -> None:
        for task_id, row in self.executor.wait(1.0):
            variant, task = in_flight.pop(task_id)
            self._store(task, variant, row)
            results[task_id] = row


def _largest_unroll(stages: int) -> int:
    """The largest unroll factor the scheduler may give a loop under this stage bound (U
    copies need U versions): a bound that allows a larger one can change the schedule
    even where no loop used all its versions."""
    return max(u for u in (1, 2, 4) if u <= max(stages, 1))
