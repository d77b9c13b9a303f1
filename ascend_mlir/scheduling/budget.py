"""The budget of one loop's solver calls: remaining rlimit and wall time, shared by all
its checks (scheduling/modulo.py, region.py)."""

from __future__ import annotations

import time


class Budget:
    """Remaining rlimit / wall time of one loop; shared by all checks."""

    def __init__(self, rlimit: int | None, time_ms: int | None, per_check: bool = False):
        self.rlimit = rlimit
        self._initial = rlimit
        self.per_check = per_check  # the anchor's rlimit applies to each check
        self.deadline = None if time_ms is None else time.monotonic() + time_ms / 1000.0
        self.exhausted = False

    def remaining_ms(self) -> int | None:
        if self.deadline is None:
            return None
        return max(0, int((self.deadline - time.monotonic()) * 1000))

    def child(self, share: float, cap: int | None = None) -> "Budget":
        """A budget of `share` of what remains (at most `cap` rlimit); charge() it
        back afterwards."""
        rl = None if self.rlimit is None else max(0, int(self.rlimit * share))
        if cap is not None:
            rl = cap if rl is None else min(rl, cap)
        ms = self.remaining_ms()
        return Budget(rl, None if ms is None else int(ms * share), self.per_check)

    def charge(self, sub: "Budget") -> None:
        if self.rlimit is not None and sub.rlimit is not None and sub._initial is not None and not self.per_check:
            self.rlimit -= sub._initial - sub.rlimit
        self.exhausted = self.exhausted or sub.exhausted

    def spent(self) -> bool:
        if self.rlimit is not None and self.rlimit <= 0:
            return True
        ms = self.remaining_ms()
        return ms is not None and ms <= 0
