"""Print `<loop index> <buffer> <versions>` per buffer of a -t schedule-json report
(stdin), sorted: a compiled module lists its planned buffers before its multi-buffered
ones, an unplanned one in allocation order; the content must be the same."""

import json
import sys

report = json.load(sys.stdin)
rows = [f"{f['name'].removesuffix('_mix_aic').removesuffix('_mix_aiv')} {i} {b['name']} {b['versions']}"
        for f in report["functions"] for i, loop in enumerate(f["loops"]) for b in loop["buffers"]]
print("\n".join(sorted(set(rows))))
