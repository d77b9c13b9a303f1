// The drain reservations of a compiled loop name the sets that stand in their place
// (issue 18 items 1-2): vecadd, compiled (U = 2, one stage per pipe), reserves one drain on
// MTE2 and one on MTE3, and the code has one set point on each: the two copies' loads
// publish one MTE2 -> V flag after the last load, the two stores one MTE3 -> V flag
// after the last store. The II written (278, what the code runs) is below the solver's
// (316): the model releases both copies' consumers at one V point, the code per copy.
// A loop whose II is the solver's (unroll=1) says so with solver_ii = ii.
// RUN: ascend-opt %examples/vecadd.mlir -p ascend-compile -t schedule-json | filecheck %s
// RUN: ascend-opt %examples/vecadd.mlir -p 'ascend-compile{unroll=1}' -t schedule-json | filecheck %s --check-prefix=ONE
// RUN: ascend-opt %examples/vecadd.mlir -p ascend-compile -t schedule-svg | filecheck %s --check-prefix=SVG

// CHECK:      "ii": 278,
// CHECK-NEXT: "solver_ii": 316,
// CHECK:      "unroll": 2,
// CHECK-NEXT: "one_pass": false,
// CHECK:      "drains": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "pipe": "MTE2",
// CHECK-NEXT:     "start": {{[0-9]+}},
// CHECK-NEXT:     "cycles": 90,
// CHECK-NEXT:     "set_points": 1,
// CHECK-NEXT:     "flags": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "flag",
// CHECK-NEXT:         "to": "V",
// CHECK-NEXT:         "event": 0
// CHECK-NEXT:       }
// CHECK-NEXT:     ]
// CHECK-NEXT:   },
// CHECK-NEXT:   {
// CHECK-NEXT:     "pipe": "MTE3",
// CHECK-NEXT:     "start": {{[0-9]+}},
// CHECK-NEXT:     "cycles": 180,
// CHECK-NEXT:     "set_points": 1,
// CHECK-NEXT:     "flags": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "flag",
// CHECK-NEXT:         "to": "V",
// CHECK-NEXT:         "event": 0
// CHECK-NEXT:       }
// CHECK-NEXT:     ]
// CHECK-NEXT:   }
// CHECK-NEXT: ]

// ONE:      "ii": [[II:[0-9]+]],
// ONE-NEXT: "solver_ii": [[II]],
// ONE:      "unroll": 1,
// ONE-NEXT: "one_pass": false,
// ONE:      "drains": [
// ONE:      "pipe": "MTE3",
// ONE-NEXT: "start": {{[0-9]+}},
// ONE-NEXT: "cycles": 180,
// ONE-NEXT: "set_points": 1,

// SVG: loop vecadd.i: II = 278 (MII = 235, binding recurrence, feasible, solver's II 316)
// SVG: <title>flag drain of MTE2: start {{[0-9]+}}, 90 cycles; in the code: 1 set point(s): MTE2-&gt;V #0</title>
// SVG: <title>flag drain of MTE3: start {{[0-9]+}}, 180 cycles; in the code: 1 set point(s): MTE3-&gt;V #0</title>
