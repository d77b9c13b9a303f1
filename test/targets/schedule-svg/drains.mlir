// The flag drains the schedule reserved (ascend-modulo-schedule's #ascend.drains) are
// drawn in their pipe's row, hatched, and listed in schedule-json: vecadd's binding pipe
// MTE3 holds the store for 18 cycles and stands still 180 cycles publishing its flag,
// which the chart used to show as an idle lane. vecadd is unrolled twice (issue 18 item
// 2: one drain per pipe for two tiles; solved at II 316, whose code runs at 278 for two
// iterations, the II written (its code's timing, one stage per pipe: 139 each, the
// chart says so beside the II; the written II is not the solver's, so "feasible");
// unroll=1 gives the one-tile loop (II 198).
// RUN: ascend-opt %examples/vecadd.mlir -p convert-tile-to-hivm,ascend-modulo-schedule -t schedule-svg | filecheck %s
// RUN: ascend-opt %examples/vecadd.mlir -p convert-tile-to-hivm,ascend-modulo-schedule -t schedule-json | filecheck %s --check-prefix=JSON
// RUN: ascend-opt %examples/vecadd.mlir -p 'convert-tile-to-hivm,ascend-modulo-schedule{flag-drains=false}' -t schedule-json | filecheck %s --check-prefix=NONE
// RUN: ascend-opt %examples/vecadd.mlir -p 'convert-tile-to-hivm,ascend-modulo-schedule{unroll=1}' -t schedule-svg | filecheck %s --check-prefix=ONE

// The title names the solver's II where the II written (the code's) is another; before
// insert-sync a drain has no sets of the code to name.
// CHECK: loop vecadd.i: II = 278 (MII = 235, binding recurrence, feasible, solver's II 316)
// CHECK: <rect class="drain" {{.*}}><title>flag drain of MTE2: start {{[0-9]+}}, 90 cycles</title></rect>
// CHECK: <rect class="drain" {{.*}}><title>flag drain of MTE3: start {{[0-9]+}}, 180 cycles</title></rect>
// CHECK: >unroll 2: 139 / iteration</text>
// ONE: loop vecadd.i: II = 198 (MII = 198, binding MTE3, optimal)
// ONE-NOT: unroll

// JSON:      "ii": 278,
// JSON-NEXT: "solver_ii": 316,
// JSON:      "unroll": 2,
// JSON-NEXT: "one_pass": false,
// JSON:      "drains": [
// JSON-NEXT:   {
// JSON-NEXT:     "pipe": "MTE2",
// JSON-NEXT:     "start": {{[0-9]+}},
// JSON-NEXT:     "cycles": 90,
// JSON-NEXT:     "set_points": 0,
// JSON-NEXT:     "flags": []
// JSON-NEXT:   },
// JSON-NEXT:   {
// JSON-NEXT:     "pipe": "MTE3",
// JSON-NEXT:     "start": {{[0-9]+}},
// JSON-NEXT:     "cycles": 180,
// JSON-NEXT:     "set_points": 0,
// JSON-NEXT:     "flags": []
// JSON-NEXT:   }
// JSON-NEXT: ]

// NONE: "drains": []
