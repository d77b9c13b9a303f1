// UNSUPPORTED: fast-tier
// Fast tier: drain-flags.mlir (vecadd's drains and their sets) stands in.
// A split MIX kernel (flash_attention): each half keeps the loop's schedule and its drain
// reservations; a drain's sets are the ones its core holds, cross-core ones included
// (sync_block_set, kind "block"), and the half whose core does not hold the pipe has
// none. The cube half's FIX drain stands for two set points in the code (the model
// reserves one drain per pipe); the loop runs at 1459 against its II 1400 (bench/README,
// session 11; whether the second point is why was not measured).
// RUN: ascend-opt %examples/flash_attention.mlir -p ascend-compile -t schedule-json | filecheck %s

// CHECK:      "name": "flash_attention_mix_aic",
// CHECK:      "drains": [
// CHECK-NEXT:   {
// CHECK-NEXT:     "pipe": "FIX",
// CHECK-NEXT:     "start": {{[0-9]+}},
// CHECK-NEXT:     "cycles": {{[0-9]+}},
// CHECK-NEXT:     "set_points": 2,
// CHECK-NEXT:     "flags": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "block",
// CHECK-NEXT:         "to": "V",
// CHECK:              "kind": "flag",
// CHECK-NEXT:         "to": "M",
// CHECK:          "pipe": "MTE3",
// CHECK-NEXT:     "start": {{[0-9]+}},
// CHECK-NEXT:     "cycles": {{[0-9]+}},
// CHECK-NEXT:     "set_points": 0,
// CHECK-NEXT:     "flags": []
// CHECK:      "name": "flash_attention_mix_aiv",
// CHECK:      "drains": [
// CHECK:          "pipe": "MTE3",
// CHECK-NEXT:     "start": {{[0-9]+}},
// CHECK-NEXT:     "cycles": {{[0-9]+}},
// CHECK-NEXT:     "set_points": 1,
// CHECK-NEXT:     "flags": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "kind": "flag",
// CHECK-NEXT:         "to": "V",
// CHECK:              "kind": "block",
// CHECK-NEXT:         "to": "MTE1",
