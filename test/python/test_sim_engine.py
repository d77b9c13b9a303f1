"""IR-free tests of the simulator engine: timing rules, flags, barriers, the
happens-before race detector, deadlock reporting and cross-core sync."""

from __future__ import annotations

import numpy as np

from ascend_mlir.sim.engine import (
    BARRIER,
    BARRIER_ALL,
    BLOCK_SET,
    BLOCK_WAIT,
    OP,
    SET,
    WAIT,
    Access,
    Core,
    Engine,
    Instr,
)


class Mem:
    """A few named byte arrays standing for memories."""

    def __init__(self):
        self.arrays = {name: np.zeros(64, dtype=np.uint8) for name in ("gm", "ub", "ub2")}

    def acc(self, name: str, lo: int, hi: int, write: bool) -> Access:
        return Access(name, self.arrays[name][lo:hi], write)


def op(name, pipe, lat, *accesses, ii=None, on_start=None, on_end=None):
    return Instr(OP, (pipe,) if isinstance(pipe, str) else pipe, lat, ii or lat,
                 tuple(accesses), on_start, on_end, name=name, loc=f"t:{name}")


def sync(kind, pipe, flag=None, name=None):
    return Instr(kind, (pipe,), 1, 1, flag=flag, name=name or kind, loc=f"t:{name or kind}")


def run(*cores):
    return Engine([Core(f"c{i}", kind, list(instrs)) for i, (kind, instrs) in enumerate(cores)]).run()


def test_flag_orders_producer_and_consumer():
    m = Mem()
    prog = [
        op("load", "MTE2", 100, m.acc("gm", 0, 8, False), m.acc("ub", 0, 8, True)),
        sync(SET, "MTE2", ("MTE2", "V", 0)),
        sync(WAIT, "V", ("MTE2", "V", 0)),
        op("vadd", "V", 10, m.acc("ub", 0, 8, False), m.acc("ub", 8, 16, True)),
    ]
    r = run(("VECTOR", prog))
    assert r.races == [] and not r.deadlock and r.unbalanced_flags == []
    events = {e.name: e for e in r.trace}
    assert events["vadd"].start >= events["load"].end
    assert r.cycles >= 110
    # busy time counts the one-cycle set_flag / wait_flag on their pipes too
    assert r.pipe_busy["c0"]["MTE2"] == 101 and r.pipe_busy["c0"]["V"] == 11


def test_missing_wait_is_a_race_with_both_locations():
    m = Mem()
    prog = [
        op("load", "MTE2", 100, m.acc("ub", 0, 8, True)),
        op("vadd", "V", 10, m.acc("ub", 4, 12, False)),
    ]
    r = run(("VECTOR", prog))
    assert len(r.races) == 1
    race = r.races[0]
    assert (race.first_loc, race.second_loc, race.kind) == ("t:load", "t:vadd", "write-read")


def test_race_is_independent_of_timing():
    # the load finishes long before the vadd starts, but nothing orders them
    m = Mem()
    prog = [op("load", "MTE2", 1, m.acc("ub", 0, 8, True))]
    prog += [op(f"s{i}", "S", 50) for i in range(5)]
    prog += [op("vadd", "V", 10, m.acc("ub", 0, 8, False))]
    assert len(run(("VECTOR", prog)).races) == 1


def test_disjoint_bytes_do_not_race():
    m = Mem()
    prog = [
        op("load", "MTE2", 100, m.acc("ub", 0, 8, True)),
        op("vadd", "V", 10, m.acc("ub", 8, 16, True)),
        op("vmul", "V", 10, m.acc("ub2", 0, 8, True)),
    ]
    assert run(("VECTOR", prog)).races == []


def test_same_pipe_dependences_need_a_barrier_except_on_s_and_m():
    """Same-pipe rule (reference/hivm-syntax.md): dependent ops on V, MTE1, MTE2, MTE3
    and FIX are not ordered by their pipe; S is ordered; M (mmadL1 -> mmadL1) is ordered
    by the op itself."""
    m = Mem()
    for pipe in ("MTE1", "MTE2", "MTE3", "V", "FIX"):
        pair = [
            op("w", pipe, 100, m.acc("ub", 0, 8, True), ii=1),
            op("r", pipe, 10, m.acc("ub", 0, 8, False), m.acc("ub", 8, 16, True), ii=1),
        ]
        r = run(("VECTOR", pair))
        assert [(x.first, x.second, x.kind) for x in r.races] == [("w", "r", "write-read")], pipe
        ev = {e.name: e for e in r.trace}
        assert ev["r"].start < ev["w"].end, pipe  # no interlock: the pipe overlaps them
        r = run(("VECTOR", [pair[0], sync(BARRIER, pipe), pair[1]]))
        assert r.races == [], pipe
        ev = {e.name: e for e in r.trace}
        assert ev["r"].start >= ev["w"].end, pipe
    for pipe in ("S", "M"):
        pair = [
            op("w", pipe, 30, m.acc("ub", 0, 8, True)),
            op("r", pipe, 30, m.acc("ub", 0, 8, False), m.acc("ub", 8, 16, True)),
        ]
        r = run(("VECTOR", pair))
        assert r.races == [], pipe
        ev = {e.name: e for e in r.trace}
        assert ev["r"].start >= ev["w"].end, pipe  # in-order pipe: interlock


def test_set_flag_does_not_order_its_own_pipe():
    """A set_flag waits for its pipe to drain in time, but only pipe_barrier orders
    later V ops after earlier ones for the race detector."""
    m = Mem()
    prog = [
        op("w", "V", 30, m.acc("ub", 0, 8, True)),
        sync(SET, "V", ("V", "MTE3", 0)),
        op("r", "V", 30, m.acc("ub", 0, 8, False), m.acc("ub", 8, 16, True)),
        sync(WAIT, "MTE3", ("V", "MTE3", 0)),
    ]
    r = run(("VECTOR", prog))
    assert [(x.first, x.second) for x in r.races] == [("w", "r")]


def test_wait_flag_does_not_order_its_own_pipe():
    """wait_flag blocks its pipe until the flag is up; it does not wait for the pipe's
    earlier ops, so a dependent V pair around it still needs pipe_barrier[V]."""
    m = Mem()
    prog = [
        op("load", "MTE2", 5, m.acc("gm", 0, 8, False), m.acc("ub2", 0, 8, True)),
        sync(SET, "MTE2", ("MTE2", "V", 0)),
        op("w", "V", 100, m.acc("ub", 0, 8, True), ii=1),
        sync(WAIT, "V", ("MTE2", "V", 0)),
        op("r", "V", 10, m.acc("ub", 0, 8, False), m.acc("ub2", 0, 8, False), ii=1),
    ]
    r = run(("VECTOR", prog))
    assert [(x.first, x.second) for x in r.races] == [("w", "r")]
    fixed = prog[:4] + [sync(BARRIER, "V")] + prog[4:]
    assert run(("VECTOR", fixed)).races == []


def test_overlapping_pipe_respects_ii_not_latency():
    m = Mem()
    prog = [
        op("l1", "MTE2", 100, m.acc("ub", 0, 8, True), ii=10),
        op("l2", "MTE2", 100, m.acc("ub", 8, 16, True), ii=10),
    ]
    r = run(("VECTOR", prog))
    ev = {e.name: e for e in r.trace}
    assert ev["l2"].start - ev["l1"].start == 10


def test_data_reads_at_start_writes_at_completion():
    m = Mem()
    src = np.arange(4.0)
    dst = np.zeros(4)
    seen = []
    prog = [
        op("load", "MTE2", 100, m.acc("ub", 0, 8, True),
           on_start=lambda: src.copy(), on_end=lambda v: dst.__setitem__(slice(None), v)),
        sync(SET, "MTE2", ("MTE2", "V", 1)),
        sync(WAIT, "V", ("MTE2", "V", 1)),
        op("vread", "V", 1, m.acc("ub", 0, 8, False), on_start=lambda: seen.append(dst.copy())),
    ]
    run(("VECTOR", prog))
    assert np.array_equal(seen[0], src)


def test_deadlock_is_reported_not_hung():
    prog = [sync(WAIT, "V", ("MTE2", "V", 3), name="wait"), op("vadd", "V", 1)]
    r = run(("VECTOR", prog))
    assert r.deadlock
    assert any("t:wait" in line and "never set" in line for line in r.deadlock_info)


def test_double_set_and_unbalanced_flag():
    prog = [
        sync(SET, "MTE2", ("MTE2", "V", 0), name="set1"),
        sync(SET, "MTE2", ("MTE2", "V", 0), name="set2"),
    ]
    r = run(("VECTOR", prog))
    assert len(r.double_sets) == 1 and "t:set2" in r.double_sets[0]
    assert len(r.unbalanced_flags) == 1


def test_barrier_all_orders_every_pipe():
    m = Mem()
    prog = [
        op("load", "MTE2", 100, m.acc("ub", 0, 8, True)),
        Instr(BARRIER_ALL, (), 1, 1, name="barrier_all"),
        op("store", "MTE3", 10, m.acc("ub", 0, 8, False)),
    ]
    r = run(("VECTOR", prog))
    assert r.races == []
    ev = {e.name: e for e in r.trace}
    assert ev["store"].start >= ev["load"].end


def test_cross_core_sync_cube_to_both_vectors():
    m = Mem()
    cube = [
        op("fixpipe", "FIX", 50, m.acc("ub", 0, 8, True), m.acc("ub2", 0, 8, True)),
        Instr(BLOCK_SET, ("FIX",), 1, 1, flag=(0,), name="block_set"),
    ]

    def vec(name):
        return [
            Instr(BLOCK_WAIT, ("V",), 1, 1, flag=(0,), name="block_wait"),
            op("vexp", "V", 5, m.acc(name, 0, 8, False)),
        ]

    r = run(("CUBE", cube), ("VECTOR", vec("ub")), ("VECTOR", vec("ub2")))
    assert r.races == [] and not r.deadlock and r.unbalanced_flags == []
    # without the cross-core wait the vector reads race with the cube's write
    r = run(("CUBE", cube), ("VECTOR", vec("ub")[1:]), ("VECTOR", vec("ub2")[1:]))
    assert len(r.races) == 2
    assert len(r.unbalanced_flags) == 2



def test_an_op_that_frees_its_pipe_at_once_lets_the_next_start_in_the_same_cycle():
    """ii 0: the pipe is free again at the start, so the next op of the queue starts in
    the same cycle (a moment's settle runs another round after such a start; without
    it the next op would wait for the first one's completion, the next moment)."""
    m = Mem()
    prog = [
        op("vadd", "V", 5, m.acc("ub", 0, 8, True)),
        sync(SET, "V", ("V", "MTE2", 0)),
        sync(WAIT, "MTE2", ("V", "MTE2", 0)),
        # both queued behind the wait: they reach the head of MTE2 in one moment
        Instr(OP, ("MTE2",), 10, 0, (m.acc("ub2", 0, 8, True),), name="first"),
        Instr(OP, ("MTE2",), 10, 0, (m.acc("gm", 0, 8, True),), name="second"),
    ]
    r = run(("VECTOR", prog))
    assert r.races == [] and not r.deadlock
    ev = {e.name: e for e in r.trace}
    assert ev["first"].start >= ev["vadd"].end
    assert ev["second"].start == ev["first"].start


def test_loop_like_stream_prunes_records_and_stays_race_free():
    m = Mem()
    prog = [sync(SET, "V", ("V", "MTE2", 0))]
    for _ in range(300):
        prog += [
            sync(WAIT, "MTE2", ("V", "MTE2", 0)),
            op("load", "MTE2", 20, m.acc("ub", 0, 8, True)),
            sync(SET, "MTE2", ("MTE2", "V", 0)),
            sync(WAIT, "V", ("MTE2", "V", 0)),
            op("vadd", "V", 5, m.acc("ub", 0, 8, False)),
            sync(SET, "V", ("V", "MTE2", 0)),
        ]
    prog.append(sync(WAIT, "MTE2", ("V", "MTE2", 0)))
    r = run(("VECTOR", prog))
    assert r.races == [] and not r.deadlock and r.unbalanced_flags == []
    # a swapped event id in one iteration: the wait then never matches -> deadlock
    bad = list(prog)
    bad[4] = sync(WAIT, "V", ("MTE2", "V", 1))
    r = run(("VECTOR", bad))
    assert r.deadlock


def test_step_limit_bounds_work():
    prog = [op(f"s{i}", "S", 1) for i in range(50)]
    r = Engine([Core("c0", "VECTOR", prog)], max_steps=5).run()
    assert r.deadlock and r.step_limit_hit


def test_set_flag_is_not_a_same_pipe_barrier_for_the_detector():
    m = Mem()
    prog = [
        op("load1", "MTE2", 100, m.acc("ub", 0, 8, True)),
        sync(SET, "MTE2", ("MTE2", "V", 0)),
        op("load2", "MTE2", 10, m.acc("ub", 0, 8, True)),
        sync(WAIT, "V", ("MTE2", "V", 0)),
    ]
    r = run(("VECTOR", prog))
    assert [(x.first, x.second, x.kind) for x in r.races] == [("load1", "load2", "write-write")]
    # but what the flag publishes is ordered: a V op after the wait sees load1 done
    prog2 = prog[:2] + [sync(WAIT, "V", ("MTE2", "V", 0)), op("vread", "V", 5, m.acc("ub", 0, 8, False))]
    assert run(("VECTOR", prog2)).races == []


def _random_program(rng, n_ops=8, slots=range(12), base=None, data=None, first_id=0, prefix="op"):
    """A random single-core stream: ops on random pipes reading/writing random 4-byte
    slots of `base` (values kept in `data`), with random pipe barriers, PIPE_ALL barriers
    and balanced flag pairs."""
    slots = list(slots)
    if base is None:
        base = np.zeros(4 * (max(slots) + 1), dtype=np.uint8)
        data = np.zeros(max(slots) + 1)
    pipes = ["MTE1", "MTE2", "MTE3", "M", "V", "FIX"]
    prog, open_flags, used = [], [], set()

    def make_op(i):
        reads = [int(x) for x in rng.choice(slots, size=rng.integers(0, 2), replace=False)]
        w = int(rng.choice(slots))
        accesses = tuple(Access("m", base[4 * s:4 * s + 4], False) for s in reads) + (
            Access("m", base[4 * w:4 * w + 4], True),)

        def on_start(reads=reads, i=i):
            return float(sum(data[s] for s in reads)) * 1.5 + i

        def on_end(v, w=w):
            data[w] = v

        return Instr(OP, (str(rng.choice(pipes)),), 1, 1, accesses, on_start, on_end,
                     name=f"{prefix}{i}", static_id=i)

    for i in range(first_id, first_id + n_ops):
        prog.append(make_op(i))
        roll = rng.random()
        if roll < 0.3:
            src, dst = rng.choice(pipes, size=2, replace=False)
            key = next(((str(src), str(dst), e) for e in range(8) if (str(src), str(dst), e) not in used), None)
            if key is not None:
                used.add(key)
                prog.append(Instr(SET, (key[0],), 1, 1, flag=key, name="set"))
                open_flags.append(key)
        elif roll < 0.55 and open_flags:
            key = open_flags.pop(int(rng.integers(len(open_flags))))
            prog.append(Instr(WAIT, (key[1],), 1, 1, flag=key, name="wait"))
            used.discard(key)
        elif roll < 0.7:
            prog.append(Instr(BARRIER, (str(rng.choice(pipes)),), 1, 1, name="barrier"))
        elif roll < 0.8:
            prog.append(Instr(BARRIER_ALL, (), 1, 1, name="barrier_all"))
    for key in open_flags:
        prog.append(Instr(WAIT, (key[1],), 1, 1, flag=key, name="wait"))
    return prog, data


def _run_trials(cores, data, trials=4):
    """Memory contents and race sets under `trials` random latency assignments, or None
    when the program deadlocks."""
    results, race_sets = [], []
    for trial in range(trials):
        data[:] = 0
        trial_rng = np.random.default_rng(trial)
        for core in cores:
            for ins in core.instrs:
                if ins.kind == OP:
                    ins.latency = int(trial_rng.integers(1, 60))
                    ins.ii = int(trial_rng.integers(1, ins.latency + 1))
        r = Engine(cores).run()
        if r.deadlock:
            return None
        results.append(data.copy())
        race_sets.append(sorted((x.first, x.second, x.kind) for x in r.races))
    return results, race_sets


def test_race_free_programs_are_deterministic_under_any_latencies():
    """Soundness of the detector w.r.t. the timing model: whenever it reports no race,
    every latency assignment gives the same memory contents; and the races it reports
    do not depend on the latencies."""
    rng = np.random.default_rng(2024)
    checked_race_free = 0
    for _ in range(200):
        prog, data = _random_program(rng)
        outcome = _run_trials([Core("c0", "VECTOR", prog)], data)
        if outcome is None:
            continue
        results, race_sets = outcome
        assert all(s == race_sets[0] for s in race_sets)
        if not race_sets[0]:
            checked_race_free += 1
            assert all(np.array_equal(x, results[0]) for x in results)
    assert checked_race_free >= 15, checked_race_free


def test_race_free_two_core_programs_are_deterministic():
    """The same property across a cube and a vector core that share some memory and
    hand over with sync_block_set / sync_block_wait (counting, in order)."""
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(150):
        base = np.zeros(4 * 20, dtype=np.uint8)
        data = np.zeros(20)
        cube, _ = _random_program(rng, 4, range(0, 12), base, data, 0, "c")
        vec, _ = _random_program(rng, 4, range(10, 20), base, data, 100, "v")
        for flag in range(int(rng.integers(1, 3))):
            i, j = int(rng.integers(len(cube) + 1)), int(rng.integers(len(vec) + 1))
            if rng.random() < 0.5:
                cube.insert(i, Instr(BLOCK_SET, ("FIX",), 1, 1, flag=(flag,), name="bset"))
                vec.insert(j, Instr(BLOCK_WAIT, ("V",), 1, 1, flag=(flag,), name="bwait"))
            else:
                vec.insert(j, Instr(BLOCK_SET, ("MTE3",), 1, 1, flag=(flag,), name="bset"))
                cube.insert(i, Instr(BLOCK_WAIT, ("MTE2",), 1, 1, flag=(flag,), name="bwait"))
        outcome = _run_trials([Core("cube", "CUBE", cube), Core("vec", "VECTOR", vec)], data)
        if outcome is None:
            continue
        results, race_sets = outcome
        assert all(s == race_sets[0] for s in race_sets)
        if not race_sets[0]:
            checked += 1
            assert all(np.array_equal(x, results[0]) for x in results)
    assert checked >= 5, checked


def test_shared_resource_serialises_issue_across_pipes():
    m = Mem()
    prog = [
        Instr(OP, ("MTE2",), 100, 40, (m.acc("ub", 0, 8, True),), name="load", resources=("HBM",)),
        Instr(OP, ("MTE3",), 100, 40, (m.acc("ub2", 0, 8, False),), name="store", resources=("HBM",)),
    ]
    ev = {e.name: e for e in run(("VECTOR", prog)).trace}
    assert ev["store"].start - ev["load"].start == 40


def test_unsynchronised_loop_reports_every_kind_once_per_op_pair():
    m = Mem()
    prog = []
    for _ in range(300):
        prog.append(Instr(OP, ("MTE2",), 90, 13, (m.acc("ub", 0, 8, True),), name="load", static_id="load"))
        prog.append(Instr(OP, ("V",), 8, 8, (m.acc("ub", 0, 8, False),), name="vexp", static_id="vexp"))
    r = run(("VECTOR", prog))
    kinds = {(x.first, x.second, x.kind) for x in r.races}
    assert kinds == {("load", "vexp", "write-read"), ("vexp", "load", "read-write"), ("load", "load", "write-write")}
    assert len(r.races) == 3


def test_wait_on_the_scalar_pipe_holds_back_every_later_issue():
    """The scalar unit is PIPE_S: a wait_flag[V, S] stalls the issuer, so a vector op
    issued after it starts after the set's pipe drained and knows it (bishengir orders
    a reduction and the vector op that overwrites its input this way, around a scalar
    read-back). The same pair with the wait on V instead of S is a race."""
    m = Mem()
    prog = [
        op("vreduce", "V", 50, m.acc("ub", 0, 8, False), m.acc("ub2", 0, 4, True), ii=1),
        sync(SET, "V", ("V", "S", 0)),
        sync(WAIT, "S", ("V", "S", 0)),
        op("sload", "S", 1, m.acc("ub2", 0, 4, False)),
        op("vadd", "V", 10, m.acc("ub", 0, 8, True), ii=1),
    ]
    r = run(("VECTOR", prog))
    assert r.races == [] and not r.deadlock
    events = {e.name: e for e in r.trace}
    assert events["vadd"].start >= events["vreduce"].end
    # without the scalar read-back and its wait the two vector ops are unordered
    assert [(x.first, x.second) for x in run(("VECTOR", [prog[0], prog[4]])).races] == [("vreduce", "vadd")]


def test_scalar_op_stalls_issue_until_it_completes():
    m = Mem()
    prog = [
        op("sload", "S", 30, m.acc("ub", 0, 4, False)),
        op("load", "MTE2", 5, m.acc("gm", 0, 8, False), m.acc("ub2", 0, 8, True)),
    ]
    r = run(("VECTOR", prog))
    events = {e.name: e for e in r.trace}
    assert events["load"].start >= events["sload"].end
