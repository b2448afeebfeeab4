#!/usr/bin/python3
"""Golden vectors of the reference's January 2025 set diversity (pcg_benchmark commit 8ad18b6).

The PCG Benchmark paper's runs used pcg_benchmark at 8ad18b6, whose greedy set diversity
(_recursiveDiversity in pcg_benchmark/pcg_env.py) was replaced in February 2025. This script runs
the reference's own PCGEnv.diversity of that commit, read from a checkout the user provides, on
the diversity matrices of the golden files (../shared/golden/pcg, made by the reference at
00b96f5), and on synthetic matrices with ties, duplicates and asymmetric entries. Both PCGEnv
versions reach the problem only through problem.diversity(info1, info2), so a stand-in problem
that answers from the golden matrix gives exactly what the reference gives on those items; the
script checks that claim by running 00b96f5's PCGEnv.diversity the same way and comparing it
with the golden file's own set diversity, which the full reference computed. It also runs the
whole reference at 8ad18b6 (its own problems and infos, from `git archive`) on the golden contents
of the 12 problems that existed then, and refuses to write anything unless that gives the same
values: so the vectors are what the paper-era reference computes on the golden items.

Usage (Debian 12's python3 with python3-numpy, as the golden files were made):

    /usr/bin/python3 tools/golden-2025-01/make_golden.py CHECKOUT [GOLDEN_DIR [OUT_DIR]]

CHECKOUT is a git clone of amidos2006/pcg_benchmark (a bare repository works too: the files are
read with `git show COMMIT:path`, the work tree is not touched). GOLDEN_DIR defaults to
../shared/golden/pcg, OUT_DIR to problems/testdata/diversity-2025-01 (both relative to the
repository root). The output is deterministic: running it again rewrites the same bytes.
"""
import hashlib
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile

import numpy as np

PAPER_COMMIT = "8ad18b6"
CURRENT_COMMIT = "00b96f5"
ENV_PATH = "pcg_benchmark/pcg_env.py"


def load_env(checkout, commit, tmp):
    """Imports pcg_env.py as it was at commit, and returns (module, full commit hash)."""
    full = subprocess.run(["git", "-C", checkout, "rev-parse", commit + "^{commit}"],
                          check=True, capture_output=True, text=True).stdout.strip()
    src = subprocess.run(["git", "-C", checkout, "show", full + ":" + ENV_PATH],
                         check=True, capture_output=True).stdout
    path = os.path.join(tmp, "pcg_env_%s.py" % commit)
    with open(path, "wb") as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location("pcg_env_" + commit, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod, full


class Space:
    """A content space in which nothing is sampled: PCGEnv.diversity then takes its argument as infos."""

    def isSampled(self, value):
        return False


class MatrixProblem:
    """A problem whose diversity(info1, info2) is D[info1][info2] (infos are indices)."""

    def __init__(self, matrix):
        self._content_space = Space()
        self._matrix = matrix

    def diversity(self, info1, info2):
        return self._matrix[info1][info2]


def set_diversity(mod, matrix):
    env = mod.PCGEnv("matrix", MatrixProblem(matrix))
    pct, values, _ = env.diversity(list(range(len(matrix))))
    return float(pct), [float(v) for v in values]


def full_reference(checkout, commit, golden, names, tmp):
    """Runs 8ad18b6's whole PCGEnv.diversity (its problems' info and diversity) on the golden
    contents; returns {problem: values} for the problems registered at that commit."""
    root = os.path.join(tmp, "tree-" + commit)
    os.makedirs(root)
    archive = subprocess.run(["git", "-C", checkout, "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", root], input=archive, check=True)
    sys.path.insert(0, root)
    try:
        import pcg_benchmark
        out = {}
        for name in names:
            problem = name[:-len(".json")]
            if problem not in pcg_benchmark.PROBLEMS:
                continue
            with open(os.path.join(golden, name)) as f:
                g = json.load(f)
            contents = [it["content"] for it in g["items"]]
            if isinstance(contents[0], list):
                contents = [np.array(c) for c in contents]
            _, values, _ = pcg_benchmark.make(problem).diversity(contents)
            out[problem] = [float(v) for v in values]
        return out
    finally:
        sys.path.remove(root)


def synthetic_cases():
    """Matrices with many ties, duplicates, zeros, ones and asymmetric entries."""
    rng = np.random.RandomState(20250101)
    cases = []
    for n in [2, 3, 4, 5, 8, 13, 30, 64]:
        for kind in ["levels", "uniform", "duplicates", "asymmetric", "sparse"]:
            if kind == "levels":
                m = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0, 1.0], size=(n, n))
            elif kind == "uniform":
                m = rng.uniform(0.0, 1.2, size=(n, n))
                m = np.minimum(m, 1.0)
            elif kind == "duplicates":
                groups = rng.randint(0, max(1, n // 3), size=n)
                base = rng.uniform(0.0, 1.0, size=(n, n))
                m = np.where(groups[:, None] == groups[None, :], 0.0, base)
            elif kind == "asymmetric":
                m = rng.choice([0.0, 0.3, 0.9, 1.0], size=(n, n))
            else:
                m = np.where(rng.uniform(size=(n, n)) < 0.9, 1.0, rng.uniform(size=(n, n)))
            if kind != "asymmetric":
                m = np.triu(m, 1) + np.triu(m, 1).T
            np.fill_diagonal(m, 0.0)
            m = np.round(m, 3)  # short JSON; rounding keeps every tie
            cases.append(("%s-%d" % (kind, n), [[float(x) for x in row] for row in m]))
    return cases


def write(path, obj, indent=1):
    data = json.dumps(obj, indent=indent) + "\n"
    with open(path + ".tmp", "w") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    checkout = sys.argv[1]
    golden = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "..", "shared", "golden", "pcg")
    out = sys.argv[3] if len(sys.argv) > 3 else os.path.join(root, "problems", "testdata", "diversity-2025-01")
    os.makedirs(out, exist_ok=True)
    names = sorted(f for f in os.listdir(golden) if f.endswith("-v0.json"))
    with tempfile.TemporaryDirectory() as tmp:
        paper, paper_full = load_env(checkout, PAPER_COMMIT, tmp)
        current, current_full = load_env(checkout, CURRENT_COMMIT, tmp)
        whole = full_reference(checkout, paper_full, golden, names, tmp)
    about = {
        "format": "pcg-diversity-2025-01/1",
        "reference": {"repo": "amidos2006/pcg_benchmark", "commit": paper_full, "function": ENV_PATH + ": PCGEnv.diversity / _recursiveDiversity"},
        "python": platform.python_version(), "numpy": np.__version__,
        "script": "tools/golden-2025-01/make_golden.py",
    }
    for name in names:
        path = os.path.join(golden, name)
        with open(path, "rb") as f:
            raw = f.read()
        g = json.loads(raw)
        matrix = g["diversity_matrix"]
        cur_pct, cur = set_diversity(current, matrix)
        want = g["set_evaluation"]["per_item_controls"]
        if cur != [float(v) for v in want["details"]["diversity"]] or cur_pct != want["diversity_pct"]:
            sys.exit("%s: %s's PCGEnv.diversity on the golden matrix does not give the golden set diversity" % (name, CURRENT_COMMIT))
        pct, values = set_diversity(paper, matrix)
        if g["problem"] in whole and whole[g["problem"]] != values:
            sys.exit("%s: 8ad18b6's whole reference on the golden contents differs from its PCGEnv.diversity on the golden matrix" % name)
        rec = dict(about)
        rec.update({
            "problem": g["problem"],
            "golden": {"file": name, "sha256": hashlib.sha256(raw).hexdigest(), "items": len(g["items"]),
                       "ids": [it["id"] for it in g["items"]]},
            "current_check": "%s's PCGEnv.diversity on this matrix equals the golden file's set diversity" % current_full[:7],
            "full_reference_check": ("8ad18b6's whole reference (its own info and diversity) on the golden contents gives these values"
                                     if g["problem"] in whole else "the problem did not exist at 8ad18b6: today's pair diversities only"),
            "diversity_pct": pct,
            "diversity": values,
            "unique": int(sum(1 for v in values if v >= 1)),
            "unique_current": int(sum(1 for v in cur if v >= 1)),
        })
        write(os.path.join(out, g["problem"] + ".json"), rec)
        print("%-18s %3d items: unique %3d (2025-01), %3d (current)" % (g["problem"], len(values), rec["unique"], rec["unique_current"]))
    cases = []
    for label, m in synthetic_cases():
        pct, values = set_diversity(paper, m)
        cur_pct, cur = set_diversity(current, m)
        cases.append({"name": label, "matrix": m, "diversity": values, "current": cur})
    rec = dict(about)
    rec.update({"problem": "synthetic", "cases": cases})
    write(os.path.join(out, "synthetic.json"), rec, indent=None)
    print("synthetic: %d matrices" % len(cases))


if __name__ == "__main__":
    main()
