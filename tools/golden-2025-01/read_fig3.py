#!/usr/bin/python3
"""Reads the paper's Fig. 3 (plots/fitness_metrics_subplot.pdf of amidos2006/benchmark_experiments)
off its vector paths and prints it as the Go table of problems/experiment/paper_fig3.go.

Usage: python3 tools/golden-2025-01/read_fig3.py CHECKOUT [COMMIT]
CHECKOUT is a clone (or bare repository) of amidos2006/benchmark_experiments; COMMIT defaults to
4f57fab (2025-02-14, the figure as the paper printed it). Needs poppler-utils (pdftocairo).

The figure is a 3x3 grid of seaborn bar plots (rows feasible / controlled / unique, columns Q /
QT / QTD fitness), 12 problems of 3 bars (Random, ES, GA) each, y from 0 to 100 over the axes'
frame. Each bar's outline gives its mean, each error bar (seaborn's default 95% bootstrap
interval over the 10 runs) its ends. Values are read to about 0.05 of a unit.
"""
import os
import re
import subprocess
import sys
import tempfile

PROBLEMS = ["arcade-v0", "binary-v0", "building-v0", "ddave-v0", "elimination-v0", "isaac-v0",
            "loderunner-v0", "mdungeons-v0", "smb-v0", "sokoban-v0", "talakat-v0", "zelda-v0"]
GENERATORS = ["random", "es", "ga"]
FITNESSES = ["quality", "quality_control", "quality_control_diversity"]
METRICS = ["unique", "controlled", "feasible"]  # the rows, bottom first in PDF coordinates


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    commit = sys.argv[2] if len(sys.argv) > 2 else "4f57fab"
    pdf = subprocess.run(["git", "-C", sys.argv[1], "show", commit + ":plots/fitness_metrics_subplot.pdf"],
                         check=True, capture_output=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "f.pdf"), "wb") as f:
            f.write(pdf)
        subprocess.run(["pdftocairo", "-svg", os.path.join(tmp, "f.pdf"), os.path.join(tmp, "f.svg")], check=True)
        svg = open(os.path.join(tmp, "f.svg")).read()
    # The axes frames: the dashed separators between problems span each row's 0..100.
    rows, lefts = set(), set()
    for m in re.finditer(r'stroke-width:1.25;[^"]*" d="M ([\d.]+) ([\d.]+) L ([\d.]+) ([\d.]+) "', svg):
        x0, y0, x1, y1 = map(float, m.groups())
        if x0 == x1:
            rows.add((round(y0, 4), round(y1, 4)))
            lefts.add(round(x0, 4))
    rows = sorted(rows)
    lefts = sorted(lefts)[0::2]  # each frame's left and right spines: keep the left ones
    if len(rows) != 3 or len(lefts) != 3:
        sys.exit("unexpected frames: rows %s, lefts %s" % (rows, lefts))
    # One problem's group: from the frame's left spine to the first dashed separator.
    width = min(float(m.group(1)) for m in re.finditer(r'stroke-dasharray:[^"]*" d="M ([\d.]+) ', svg)) - lefts[0]

    def locate(x, y):
        r = [i for i, (a, b) in enumerate(rows) if a - 1 <= y <= b + 1]
        c = max(i for i, l in enumerate(lefts) if x > l)
        g = int((x - lefts[c]) // width)
        return (r[0] if r else None), c, g

    bars, errs = {}, {}
    for m in re.finditer(r'<path style="fill:none;stroke-width:3;[^"]*" d="([^"]*)"', svg):
        d = m.group(1)
        nums = list(map(float, re.findall(r'-?[\d.]+', d)))
        xs, ys = nums[0::2], nums[1::2]
        xc = (min(xs) + max(xs)) / 2
        r, c, g = locate(xc, min(ys))
        if r is None:
            continue
        base, top = rows[r]
        # Bars are 3 of 3.75 widths centred in the group: Random, ES, GA.
        k = int(round((xc - lefts[c] - g * width) / (width / 3.75) - 0.875))
        key = (METRICS[r], FITNESSES[c], PROBLEMS[g], GENERATORS[k])
        lo, hi = 100 * (min(ys) - base) / (top - base), 100 * (max(ys) - base) / (top - base)
        if "Z" in d:
            # A bar's outline; a zero-height outline may be drawn at the same place too.
            bars[key] = max(bars.get(key, 0.0), hi)
        elif d.count("M") >= 3:
            errs[key] = (lo, hi)
    if len(bars) != 324 or len(errs) != 324:
        sys.exit("read %d bars and %d error bars, want 324 each" % (len(bars), len(errs)))
    print("var paperFig3 = map[[4]string][3]float64{")
    for m in ["feasible", "controlled", "unique"]:
        for f in FITNESSES:
            for p in PROBLEMS:
                for g in GENERATORS:
                    key = (m, f, p, g)
                    lo, hi = errs[key]
                    vals = [max(v, 0.0) + 0.0 for v in (bars[key], lo, hi)]  # no -0.0
                    print('\t{"%s", "%s", "%s", "%s"}: {%.1f, %.1f, %.1f},' % ((m, p, f, g) + tuple(vals)))
    print("}")


if __name__ == "__main__":
    main()
