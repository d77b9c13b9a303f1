"""Structure of a loop problem that the II search exploits (all exact, no solver).

* Strongly connected components of the dependence graph.  Dependences between
  components never decide whether an II is feasible: the condensation is acyclic,
  so shifting a whole component by a multiple of II (its stages, not its offsets)
  satisfies any of them while leaving every resource constraint (which only sees
  offsets) and every dependence inside the component unchanged.  Feasibility
  probes therefore carry only the dependences inside components, and the stage of
  one task per component can be fixed to 0.
* Minimum separations: `separations(p, ii)` is the all-pairs longest-path matrix
  of `lat - II*dist` (buffer distances at their maximum versions, a relaxation):
  `start_j - start_i >= D[i][j]` in every schedule at that II.  A resource pair
  inside one component then has its separation in `[D[i][j], -D[j][i]]`, and that
  interval must contain a value whose residue modulo II leaves room for both
  tasks (`ii_i <= x mod II <= II - ii_j`).  Pairs with a single such "wrap count"
  tighten D, which is propagated again (to a fixpoint, a few rounds).  An empty
  window proves the II infeasible: this is the bound that catches resource x
  recurrence interactions (e.g. two loads on one pipe that both must sit exactly
  one latency before the same consumer).
* Interchangeable tasks (same pipes, latency, ii and the same dependences to the
  same other tasks): any schedule stays valid when two of them swap starts, so
  their order in the modulo window can be fixed.
* Interchangeable components (the same tasks, inner dependences and buffers in
  the same order, and conflicts that any swap of two of them maps onto
  themselves; e.g. the k identical load -> compute -> store chains of a wide
  loop): a feasibility probe, which carries no dependence between components,
  stays satisfied when two of them swap offsets task by task, so the order of
  one representative task per component in the modulo window can be fixed too.
  This removes the k! copies of every schedule the solver would otherwise
  refute one by one at an infeasible II.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .problem import LoopProblem

NEG = -(1 << 50)  # "no path"; sums of two stay far from int64 overflow


def strongly_connected_components(n: int, edges: list[tuple[int, int]]) -> list[int]:
    """Component id per node (Tarjan, iterative); ids in reverse topological order."""
    succ: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        succ[u].append(v)
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    comp = [-1] * n
    stack: list[int] = []
    counter = 0
    ncomp = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, i = work[-1]
            if i < len(succ[v]):
                work[-1] = (v, i + 1)
                w = succ[v][i]
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w]:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp[w] = ncomp
                    if w == v:
                        break
                ncomp += 1
    return comp


@dataclass
class Structure:
    comp: list[int]                  # component id of each task
    roots: list[int]                 # one task per component (stage fixed to 0 in probes)
    internal: list[int]              # indices of dependences inside a component
    cyclic: list[bool]               # per component: has a cycle (size > 1 or self-loop)
    twins: list[tuple[int, int]]     # interchangeable pairs (i < j): order fixed i before j
    pinned: int = 0                  # the task whose offset is fixed to 0 (rotation)
    # representatives of interchangeable components (a, b): order fixed a before b
    component_order: list[tuple[int, int]] = field(default_factory=list)


def analyse(p: LoopProblem) -> Structure:
    n = len(p.tasks)
    comp = strongly_connected_components(n, [(d.src, d.dst) for d in p.deps])
    ncomp = max(comp) + 1
    roots = [-1] * ncomp
    for i in range(n):
        if roots[comp[i]] < 0:
            roots[comp[i]] = i
    internal = [e for e, d in enumerate(p.deps) if comp[d.src] == comp[d.dst]]
    size = [0] * ncomp
    for c in comp:
        size[c] += 1
    cyclic = [s > 1 for s in size]
    for e in internal:
        d = p.deps[e]
        if d.src == d.dst:
            cyclic[comp[d.src]] = True
    twins = _twins(p)
    pinned = pinned_task(p)
    order = _component_order(p, comp, internal, twins, pinned)
    return Structure(comp, roots, internal, cyclic, twins, pinned, order)


def pinned_task(p: LoopProblem) -> int:
    """The task whose offset a probe fixes to 0: the lowest index of largest ii."""
    return max(range(len(p.tasks)), key=lambda i: (p.tasks[i].ii, -i))


def _component_signature(p: LoopProblem, members: list[int], internal: list[int],
                         buffer_comps: dict[str, set[int]], cid: int) -> tuple | None:
    """What must be equal for two components to be interchangeable, in local
    indices (members in index order); None when a buffer of the component is also
    used elsewhere (swapping would not map buffers onto buffers)."""
    local = {g: li for li, g in enumerate(members)}
    tasks = tuple((tuple(sorted(p.tasks[g].pipes)), p.tasks[g].latency, p.tasks[g].ii, p.tasks[g].hold)
                  for g in members)
    bufs: dict[str, int] = {}
    sizes = {b.name: (b.scope, b.size, p.max_versions(b)) for b in p.buffers}
    deps = []
    for e in internal:
        d = p.deps[e]
        if d.src not in local:
            continue
        buf = None
        if d.buffer is not None:
            if buffer_comps[d.buffer] != {cid}:
                return None
            buf = (bufs.setdefault(d.buffer, len(bufs)), sizes[d.buffer])
        deps.append((local[d.src], local[d.dst], d.latency, d.distance, repr(buf)))
    return tasks, tuple(sorted(deps))


def _swap_keeps_conflicts(conflicts: set[tuple[int, int]], a: list[int], b: list[int]) -> bool:
    """Whether exchanging components a and b task by task maps the conflicts onto themselves."""
    swap = dict(zip(a, b, strict=True)) | dict(zip(b, a, strict=True))
    for i, j in conflicts:
        x, y = swap.get(i, i), swap.get(j, j)
        if (min(x, y), max(x, y)) not in conflicts:
            return False
    return True


def _component_order(p: LoopProblem, comp: list[int], internal: list[int],
                     twins: list[tuple[int, int]], pinned: int) -> list[tuple[int, int]]:
    """Pairs (a, b) of representatives of consecutive interchangeable components.

    Sound together with the other symmetry breaking of a probe: a representative
    is never a twin (twin swaps would move it), and the class holding the pinned
    task uses the pinned task's position, so the component sorted first is the
    pinned task's own (the least offset, 0, and the least index of that ii)."""
    n = len(p.tasks)
    members: dict[int, list[int]] = {}
    for i in range(n):
        members.setdefault(comp[i], []).append(i)
    buffer_comps: dict[str, set[int]] = {}
    for d in p.deps:
        if d.buffer is not None:
            buffer_comps.setdefault(d.buffer, set()).update((comp[d.src], comp[d.dst]))
    classes: dict[tuple, list[int]] = {}
    for cid in sorted(members, key=lambda c: members[c][0]):
        sig = _component_signature(p, members[cid], internal, buffer_comps, cid)
        if sig is not None:
            classes.setdefault(sig, []).append(cid)
    conflicts = {(min(i, j), max(i, j)) for i, j in p.conflicts}
    in_twin = {i for pair in twins for i in pair}
    order: list[tuple[int, int]] = []
    for cids in classes.values():
        group = _interchangeable_run(conflicts, [members[c] for c in cids])
        if len(group) < 2:
            continue
        rep = _representative(group, in_twin, pinned)
        if rep is None:
            continue
        reps = sorted(m[rep] for m in group)
        order += list(zip(reps, reps[1:], strict=False))
    return sorted(order)


def _interchangeable_run(conflicts: set[tuple[int, int]], comps: list[list[int]]) -> list[list[int]]:
    """The components of one signature class that every swap of two keeps valid: the
    first and those whose swap with the first keeps the conflicts (swaps with one
    common member generate every permutation of the run)."""
    if len(comps) < 2:
        return comps
    first = comps[0]
    return [first] + [c for c in comps[1:] if _swap_keeps_conflicts(conflicts, first, c)]


def _representative(group: list[list[int]], in_twin: set[int], pinned: int) -> int | None:
    """Local index of the task whose offsets are ordered across the group."""
    for m in group:
        if pinned in m:
            li = m.index(pinned)
            return None if any(c[li] in in_twin for c in group) else li
    for li in range(len(group[0])):
        if not any(c[li] in in_twin for c in group):
            return li
    return None


def _twins(p: LoopProblem) -> list[tuple[int, int]]:
    """Consecutive members of each class of interchangeable tasks."""
    n = len(p.tasks)
    conflicts: list[set[int]] = [set() for _ in range(n)]
    for i, j in p.conflicts:
        conflicts[i].add(j)
        conflicts[j].add(i)
    incident: list[list[tuple]] = [[] for _ in range(n)]
    for d in p.deps:
        if d.src == d.dst:
            incident[d.src].append(("self", d.latency, d.distance, d.buffer))
            continue
        incident[d.src].append(("out", d.dst, d.latency, d.distance, d.buffer))
        incident[d.dst].append(("in", d.src, d.latency, d.distance, d.buffer))
    classes: dict[tuple, list[int]] = {}
    for i, t in enumerate(p.tasks):
        key = (tuple(sorted(t.pipes)), t.latency, t.ii, t.hold, tuple(sorted(incident[i], key=repr)),
               tuple(sorted(conflicts[i])))
        classes.setdefault(key, []).append(i)
    twins = []
    for members in classes.values():
        # tasks joined to each other by a dependence are not interchangeable
        # (their incident lists name each other), so the key already excludes them
        for a, b in zip(members, members[1:], strict=False):
            twins.append((a, b))
    return sorted(twins)


def separations(p: LoopProblem, ii: int, versions: dict[str, int],
                deps: list[int] | None = None) -> np.ndarray | None:
    """All-pairs longest paths of lat - II*dist; None when a cycle is positive."""
    n = len(p.tasks)
    dmat = np.full((n, n), NEG, dtype=np.int64)
    np.fill_diagonal(dmat, 0)
    for e in range(len(p.deps)) if deps is None else deps:
        d = p.deps[e]
        dist = d.distance + (versions[d.buffer] if d.buffer is not None else 0)
        w = d.latency - ii * dist
        if w > dmat[d.src, d.dst]:
            dmat[d.src, d.dst] = w
    return _close(dmat)


def _close(dmat: np.ndarray) -> np.ndarray | None:
    n = dmat.shape[0]
    for k in range(n):
        np.maximum(dmat, dmat[:, k:k + 1] + dmat[k:k + 1, :], out=dmat)
        np.maximum(dmat, NEG, out=dmat)
        if dmat[k, k] > 0:
            return None
    if (np.diagonal(dmat) > 0).any():
        return None
    return dmat


def wrap_counts(lo: int, hi: int, ii: int, ii_i: int, ii_j: int) -> list[int]:
    """Values m such that some x in [lo, hi] has m*II + ii_i <= x <= (m+1)*II - ii_j."""
    m_lo = -((ii - ii_j - lo) // ii)   # least m with (m+1)*II - ii_j >= lo
    m_hi = (hi - ii_i) // ii           # greatest m with m*II + ii_i <= hi
    if lo > hi:
        return []
    if ii_i + ii_j <= ii:
        return list(range(m_lo, m_hi + 1))
    # Only the wrap counts whose slot [m*II + ii_i, (m+1)*II - ii_j] sticks out of
    # [lo, hi] can meet it: a slot inside it is empty. In closed form, as an unbounded
    # separation (hi near -NEG) made the test of every m in between two fifths of propagate's time.
    inside_from = -((ii_i - lo) // ii)      # least m with m*II + ii_i >= lo
    inside_to = (hi + ii_j) // ii - 1       # greatest m with (m+1)*II - ii_j <= hi
    below = range(m_lo, min(inside_from, m_hi + 1))
    above = range(max(inside_to + 1, m_lo, min(inside_from, m_hi + 1)), m_hi + 1)
    return [*below, *above]


@dataclass
class Windows:
    """Result of propagating separations and resource windows at one II."""

    feasible: bool
    dmat: np.ndarray | None
    # resource pairs (i, j) inside one component with their possible wrap counts
    wraps: dict[tuple[int, int], list[int]]
    # least versions of each buffer that the separations allow (None: refuted)
    versions: dict[str, int] | None = None


def propagate(p: LoopProblem, ii: int, versions: dict[str, int], pairs: list[tuple[int, int]],
              struct: Structure, rounds: int = 4) -> Windows:
    """Separations at II tightened by the resource windows of pairs inside components."""
    if any(t.pipe_time > ii for t in p.tasks):
        return Windows(False, None, {})
    arcs = p.pair_arcs()
    dmat = separations(p, ii, versions, struct.internal)
    if dmat is None:
        return Windows(False, None, {})
    inner = [(i, j) for i, j in pairs if struct.comp[i] == struct.comp[j]]
    wraps: dict[tuple[int, int], list[int]] = {}
    for _ in range(rounds):
        changed = False
        for i, j in inner:
            lo, hi = int(dmat[i, j]), -int(dmat[j, i])
            a, b = arcs[(i, j)]
            ms = wrap_counts(lo, hi, ii, a, b)
            wraps[(i, j)] = ms
            if not ms:
                return Windows(False, None, wraps)
            new_lo = max(lo, ms[0] * ii + a)
            new_hi = min(hi, (ms[-1] + 1) * ii - b)
            if new_lo > lo:
                dmat[i, j] = new_lo
                changed = True
            if new_hi < hi:
                dmat[j, i] = -new_hi
                changed = True
        if not changed:
            break
        closed = _close(dmat)
        if closed is None:
            return Windows(False, None, wraps)
        dmat = closed
    need = least_versions(p, ii, dmat)
    if need is None:
        return Windows(False, dmat, wraps)
    return Windows(True, dmat, wraps, need)


def least_versions(p: LoopProblem, ii: int, dmat: np.ndarray) -> dict[str, int] | None:
    """Per buffer, the fewest versions any schedule at II needs; None if they
    cannot fit the capacity (or exceed the allowed versions).

    A buffer edge u -> v closes cycles with every path v ~> u: in any schedule
    lat - II*(distance + versions) + path <= 0, and the real path is at least
    the separation D[v][u] (computed with every buffer at its maximum).
    """
    need = {b.name: 1 for b in p.buffers}
    for d in p.deps:
        if d.buffer is None:
            continue
        path = int(dmat[d.dst, d.src])
        if path <= NEG // 2:
            continue  # no way back: the edge closes no cycle
        v = -(-(d.latency + path) // ii) - d.distance
        if v > need[d.buffer]:
            need[d.buffer] = v
    used: dict[str, int] = {}
    for b in p.buffers:
        if need[b.name] > p.max_versions(b):
            return None
        used[b.scope] = used.get(b.scope, 0) + need[b.name] * b.size
    for scope, u in used.items():
        if scope in p.capacity and u > p.capacity[scope]:
            return None
    return need


def structural_bound(p: LoopProblem, lo: int, hi: int, versions: dict[str, int],
                     struct: Structure) -> int:
    """Least II in [lo, hi] that the separation/window propagation does not refute
    (`hi` is returned when all below it are refuted; callers pass a feasible hi)."""
    pairs = p.resource_pairs()
    ii = lo
    while ii < hi and not propagate(p, ii, versions, pairs, struct).feasible:
        ii += 1
    return ii


def length_bound(p: LoopProblem, ii: int, windows: Windows) -> int | None:
    """A lower bound on the schedule length at II (starts are >= 0): the largest
    separation plus the latency of its target, over every dependence (buffers at
    their maximum versions) and the resource windows inside components."""
    n = len(p.tasks)
    full = separations(p, ii, {b.name: p.max_versions(b) for b in p.buffers})
    if full is None or windows.dmat is None:
        return None
    dmat = _close(np.maximum(full, windows.dmat))
    if dmat is None:
        return None
    lat = np.array([t.latency for t in p.tasks], dtype=np.int64)
    reach = np.where(dmat > NEG // 2, dmat + lat[None, :], 0)
    return int(max(reach.max(), lat.max())) if n else 0
