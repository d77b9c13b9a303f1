"""The tuner's outputs: the table (CSV, JSON), the summary, the Pareto SVG, the progress line.

The table has one row per config of the space, in grid order. Columns: index, the
space's names, chip, status, cycles, bound (pipe-busy lower bound of the compiled
kernel), loops (`name: II x / MII y`), versions (`buffer=n`), bytes per on-chip scope,
seconds, cache_hit, same_as (a dominated row's source), message. Nothing in it depends
on timing except `seconds` and `cache_hit`.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence

STATUSES = ("ok", "wrong", "invalid", "timeout", "crash", "pruned", "dominated", "skipped")
SCOPES = ("cbuf", "ca", "cb", "cc", "ub")


def loops_text(row: dict) -> str:
    return "; ".join(f"{lp['name']}: II {lp['ii']} / MII {lp['mii']}" for lp in row.get("loops") or [])


def versions_text(row: dict) -> str:
    parts = []
    for lp in row.get("loops") or []:
        parts += [f"{b}={n}" for b, n in lp["versions"].items()]
    return " ".join(parts)


def on_chip_bytes(row: dict) -> int | None:
    data = row.get("bytes")
    return sum(data.values()) if data else None


def to_csv(rows: Sequence[dict], names: Sequence[str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    header = ["index", *names, "chip", "status", "cycles", "bound", "loops", "versions",
              *[f"bytes_{s}" for s in SCOPES], "seconds", "cache_hit", "same_as", "message"]
    writer.writerow(header)
    for r in rows:
        data = r.get("bytes") or {}
        writer.writerow([r["index"], *[r["config"].get(n, "") for n in names], r.get("chip") or "",
                         r["status"], _blank(r.get("cycles")), _blank(r.get("bound")), loops_text(r),
                         versions_text(r), *[_blank(data.get(s)) for s in SCOPES], r.get("seconds", ""),
                         int(bool(r.get("cache_hit"))), _blank(r.get("same_as")),
                         (r.get("message") or "").splitlines()[0] if r.get("message") else ""])
    return out.getvalue()


def _blank(value) -> object:
    return "" if value is None else value


def to_json(rows: Sequence[dict], best: dict | None, summary: dict) -> str:
    return json.dumps({"rows": list(rows), "best": best, "summary": summary}, indent=1, sort_keys=True) + "\n"


def counts(rows: Sequence[dict]) -> dict[str, int]:
    c = Counter(r["status"] for r in rows)
    return {s: c.get(s, 0) for s in STATUSES}


def summary_lines(rows: Sequence[dict], best: dict | None, seconds: float) -> list[str]:
    """One line per failure class that occurred, then the best variant."""
    c = counts(rows)
    hits = sum(1 for r in rows if r.get("cache_hit"))
    lines = [f"ascend-tune: {len(rows)} variants in {seconds:.1f} s ({hits} from the cache): "
             + ", ".join(f"{c[s]} {s}" for s in STATUSES if c[s])]
    for status in ("wrong", "invalid", "timeout", "crash"):
        failed = [r for r in rows if r["status"] == status]
        if failed:
            first = failed[0]
            message = (first.get("message") or "").splitlines()[0] if first.get("message") else ""
            lines.append(f"  {status}: {len(failed)} (first: #{first['index']} {_label(first)}: {message})")
    if best is not None:
        lines.append(f"  best: #{best['index']} {_label(best)}: {best['cycles']} cycles "
                     f"(bound {best.get('bound')})")
    else:
        lines.append("  best: none (no variant passed the oracle)")
    return lines


def _label(row: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in row["config"].items())


def pareto_front(rows: Sequence[dict]) -> list[dict]:
    """The ok rows no other ok row beats in both cycles and on-chip bytes."""
    points = sorted((r for r in rows if r["status"] == "ok" and on_chip_bytes(r) is not None),
                    key=lambda r: (r["cycles"], on_chip_bytes(r), r["index"]))
    front, least = [], None
    for r in points:
        b = on_chip_bytes(r) or 0
        if least is None or b < least:
            front.append(r)
            least = b
    return front


def pareto_svg(rows: Sequence[dict], title: str) -> str:
    """Cycles (x) against on-chip bytes (y) of every ok variant; the front joined by a line."""
    pts = [r for r in rows if r["status"] == "ok" and on_chip_bytes(r) is not None]
    w, h, m = 640, 420, 60
    if not pts:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">'
                f'<text x="20" y="40">{_esc(title)}: no ok variant</text></svg>\n')
    xs = [r["cycles"] for r in pts]
    ys = [on_chip_bytes(r) or 0 for r in pts]
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)

    def sx(v: float) -> float:
        return m + (v - x0) / ((x1 - x0) or 1) * (w - 2 * m)

    def sy(v: float) -> float:
        return h - m - (v - y0) / ((y1 - y0) or 1) * (h - 2 * m)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">',
           f'<text x="{m}" y="24" font-size="14">{_esc(title)}: cycles vs on-chip bytes</text>',
           f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>',
           f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="black"/>',
           f'<text x="{w / 2}" y="{h - 20}" text-anchor="middle">cycles ({x0} .. {x1})</text>',
           f'<text x="16" y="{h / 2}" transform="rotate(-90 16 {h / 2})" text-anchor="middle">'
           f'on-chip bytes ({y0} .. {y1})</text>']
    front = pareto_front(rows)
    if len(front) > 1:
        path = " ".join(f"{sx(r['cycles']):.1f},{sy(on_chip_bytes(r) or 0):.1f}" for r in front)
        out.append(f'<polyline points="{path}" fill="none" stroke="#c33"/>')
    on_front = {r["index"] for r in front}
    for r in pts:
        colour = "#c33" if r["index"] in on_front else "#36c"
        out.append(f'<circle cx="{sx(r["cycles"]):.1f}" cy="{sy(on_chip_bytes(r) or 0):.1f}" r="4" '
                   f'fill="{colour}"><title>#{r["index"]} {_esc(_label(r))}: {r["cycles"]} cycles, '
                   f'{on_chip_bytes(r)} B</title></circle>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Progress:
    """`[tune] 12/40 (3 cached) best 1813 cyc, ETA 0:42` on stderr: rewritten in place on
    a terminal, one line every few seconds otherwise."""

    def __init__(self, enabled: bool = True, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = self.stream.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.best: int | None = None
        self.hits = 0

    def row(self, row: dict) -> None:
        if row.get("cache_hit"):
            self.hits += 1
        if row["status"] == "ok" and row.get("cycles") is not None:
            self.best = row["cycles"] if self.best is None else min(self.best, row["cycles"])

    def update(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not self.tty and done < total and now - self.last < 5:
            return
        self.last = now
        elapsed = now - self.start
        eta = elapsed / done * (total - done) if done else 0.0
        best = f"best {self.best} cycles" if self.best is not None else "no ok variant yet"
        line = (f"[tune] {done}/{total} ({self.hits} cached) {best}, "
                f"elapsed {_clock(elapsed)}, ETA {_clock(eta)}")
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done == total else ""))
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
