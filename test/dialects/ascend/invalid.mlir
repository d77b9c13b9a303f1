// Every verifier of the typed schedule, as a located error.
// RUN: ascend-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{#ascend.task: latency (5) must be >= ii (10)}}
func.func private @f() attributes {ascend.task = #ascend.task<latency = 5, ii = 10>}

// -----

// expected-error @+1 {{#ascend.task: ii must be >= 1, got 0}}
func.func private @f() attributes {ascend.task = #ascend.task<latency = 5, ii = 0>}

// -----

// expected-error @+1 {{#ascend.task: stage and start go together}}
func.func private @f() attributes {ascend.task = #ascend.task<latency = 5, ii = 1, stage = 0>}

// -----

// expected-error @+1 {{#ascend.task: stage must be >= 0, got -1}}
func.func private @f() attributes {ascend.task = #ascend.task<latency = 5, ii = 1, stage = -1, start = 0>}

// -----

// expected-error @+1 {{#ascend.task: missing key 'ii'}}
func.func private @f() attributes {ascend.task = #ascend.task<latency = 5>}

// -----

// expected-error @+1 {{#ascend.task: unknown key 'cycles'}}
func.func private @f() attributes {ascend.task = #ascend.task<latency = 5, ii = 1, cycles = 3>}

// -----

// expected-error @+1 {{duplicate key 'ii'}}
func.func private @f() attributes {ascend.task = #ascend.task<latency = 5, ii = 1, ii = 2>}

// -----

// expected-error @+1 {{#ascend.loop: ii (100) is below mii (164)}}
func.func private @f() attributes {ascend.loop = #ascend.loop<ii = 100, mii = 164, status = "optimal", res_mii = {}, rec_mii = 0, binding = "V">}

// -----

// expected-error @+1 {{#ascend.loop: status must be one of optimal, feasible, heuristic, fallback, program-order, got 'fast'}}
func.func private @f() attributes {ascend.loop = #ascend.loop<ii = 164, mii = 164, status = "fast", res_mii = {}, rec_mii = 0, binding = "V">}

// -----

// expected-error @+1 {{#ascend.loop: binding must be one of}}
func.func private @f() attributes {ascend.loop = #ascend.loop<ii = 164, mii = 164, status = "optimal", res_mii = {}, rec_mii = 0, binding = "W">}

// -----

// expected-error @+1 {{#ascend.loop: res_mii names unknown pipe 'W'}}
func.func private @f() attributes {ascend.loop = #ascend.loop<ii = 164, mii = 164, status = "optimal", res_mii = {W = 3}, rec_mii = 0, binding = "V">}

// -----

// expected-error @+1 {{#ascend.loop: res_mii[V] must be an integer in [0, mii]}}
func.func private @f() attributes {ascend.loop = #ascend.loop<ii = 164, mii = 164, status = "optimal", res_mii = {V = 200}, rec_mii = 0, binding = "V">}

// -----

// expected-error @+1 {{#ascend.loop: rec_mii (170) is above mii (164)}}
func.func private @f() attributes {ascend.loop = #ascend.loop<ii = 164, mii = 164, status = "optimal", res_mii = {}, rec_mii = 170, binding = "recurrence">}

// -----

// expected-error @+1 {{#ascend.buffer: versions must be >= 1, got 0}}
func.func private @f() attributes {ascend.buffer = #ascend.buffer<versions = 0>}

// -----

// expected-error @+1 {{#ascend.drains: unknown pipe 'VEC'}}
func.func private @f() attributes {ascend.drains = #ascend.drains<(VEC, 0, 4)>}

// -----

// expected-error @+1 {{#ascend.drains: MTE3 needs start >= 0 and cycles >= 1, got start 18, cycles 0}}
func.func private @f() attributes {ascend.drains = #ascend.drains<(MTE3, 18, 0)>}
