"""IR-free scheduling: modulo scheduling of loops and makespan scheduling of regions.

See DESIGN.md section 6.  The pass `ascend-modulo-schedule` builds the
problems from IR; everything here takes and returns plain Python data.
"""

from .bounds import MiiBounds, check_schedule, compute_mii
from .modulo import schedule_loop
from .problem import Buffer, Dep, LoopProblem, LoopResult, RegionResult, SchedulingError, Task
from .region import schedule_region

__all__ = [
    "Buffer",
    "Dep",
    "LoopProblem",
    "LoopResult",
    "MiiBounds",
    "RegionResult",
    "SchedulingError",
    "Task",
    "check_schedule",
    "compute_mii",
    "schedule_loop",
    "schedule_region",
]
