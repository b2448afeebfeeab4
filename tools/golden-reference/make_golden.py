#!/usr/bin/python3
"""Golden vectors of the PCG Benchmark problems, computed by the Python reference itself.

The golden files the workbench is tested against (../shared/golden/pcg/PROBLEM.json, format
"pcg-golden/1", described in that folder's README.md) hold, for a set of items (content and
control), what amidos2006/pcg_benchmark computes: every item's info, quality and
controllability, the set evaluation (env.evaluate with one control per item, and
env.controlability with the first item's control), the full diversity matrix and the contents
whose info raises. This script recomputes all of that with the reference's own code, read from a
checkout you provide, for items you give it:

    /usr/bin/python3 tools/golden-reference/make_golden.py CHECKOUT ITEMS.json [ITEMS.json ...]
        [--out DIR] [--commit C] [--check]

CHECKOUT is a clone of https://github.com/amidos2006/pcg_benchmark (a bare one works: the
files are read with `git archive COMMIT`, the work tree is never touched or imported from), or
a folder holding the pcg_benchmark package when it is not a git repository (then --commit only
names what it is). COMMIT defaults to the one the golden files were made with.

Each ITEMS.json is either a golden file (its items, their ids, origins and error cases are
taken, and its problem) or the output of `workbench sample PROBLEM -n N --seed S` (ids are
FAMILY-sNNN, origin "random"). The result is written to DIR/PROBLEM.json (default
out/golden-reference), compact, with Python's shortest round-trip floats, as the golden files
are. --check compares each result with the input golden file it came from, byte for byte, and
exits 1 on a difference (naming the first differing field).

Needs Debian 12's python3 with python3-numpy and python3-pil (Python 3.11.2, numpy 1.24.2:
the versions recorded in the golden files). Arcade's agents take minutes; the other problems
seconds.

What is not reproduced here: how the items were chosen. The random items of the golden files
were sampled after seeding every distinct Space object of the content space with
default_rng(sampling_seed * 1000 + k), k its depth-first index (checked: binary-v0's and
zelda-v0's 20 shared random contents are all among the first 30 samples of that seeding, in an
order the files do not record); the evolved ones came from a time-boxed evolution. The items
themselves are data: give them to this script.
"""
import argparse
import importlib
import json
import os
import platform
import subprocess
import sys
import tempfile

import numpy as np

REPO = "amidos2006/pcg_benchmark"
GOLDEN_COMMIT = "00b96f57a3eba3529b1293de1e70d5b12a1f60cc"
RECHECK = 6  # items whose info is computed a second time, in process


def load_reference(checkout, commit, tmp):
    """Imports pcg_benchmark from the checkout at commit; returns (module, full commit)."""
    is_git = subprocess.run(["git", "-C", checkout, "rev-parse", "--git-dir"],
                            capture_output=True).returncode == 0
    if is_git:
        full = subprocess.run(["git", "-C", checkout, "rev-parse", commit + "^{commit}"],
                              check=True, capture_output=True, text=True).stdout.strip()
        archive = subprocess.run(["git", "-C", checkout, "archive", full, "pcg_benchmark"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        root = tmp
    else:
        full, root = commit, checkout
        if not os.path.isdir(os.path.join(root, "pcg_benchmark")):
            sys.exit("%s holds no pcg_benchmark package" % checkout)
    sys.dont_write_bytecode = True  # never write into the user's folder
    sys.path.insert(0, root)
    return importlib.import_module("pcg_benchmark"), full


def plain(v):
    """The golden files' JSON conversion: numpy scalars to numbers, arrays and tuples to lists,
    numpy bools to booleans, sets to sorted lists."""
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, np.ndarray):
        return plain(v.tolist())
    if isinstance(v, (set, frozenset)):
        return sorted(plain(x) for x in v)
    if isinstance(v, np.bool_):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    return v


def dumps(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def read_items(path):
    with open(path, encoding="utf-8-sig") as f:
        doc = json.load(f)
    if doc.get("format") == "pcg-golden/1":
        return doc["problem"], doc
    problem = doc.get("problem")
    if not problem or "items" not in doc:
        sys.exit("%s: neither a golden file nor `workbench sample` output" % path)
    family = problem.split("-")[0]
    items = [{"id": it.get("id", "%s-s%03d" % (family, i)), "origin": it.get("origin", "random"),
              "content": it["content"], "control": it.get("control")}
             for i, it in enumerate(doc["items"])]
    return problem, {"items": items}


def golden(pcg, commit, problem, src):
    env = pcg.make(problem)
    prob = env._problem
    params = pcg.probs.PROBLEMS[problem]
    params = params[1] if isinstance(params, tuple) and len(params) > 1 else {}
    items, infos = [], []
    for it in src["items"]:
        info = prob.info(it["content"])
        infos.append(info)
        items.append({"id": it["id"], "origin": it.get("origin", "random"),
                      "content": it["content"], "control": it["control"],
                      "quality": plain(prob.quality(info)),
                      "controlability": plain(prob.controlability(info, it["control"])),
                      "info": plain(info)})
    mismatches = sum(dumps(plain(prob.info(it["content"]))) != dumps(it["info"])
                     for it in items[:RECHECK])
    # env.evaluate(contents, controls), from the infos it would compute: the same calls
    controls = [it["control"] for it in items]
    q_pct, q, _ = env.quality(infos)
    d_pct, d, _ = env.diversity(infos)
    c_pct, c, _ = env.controlability(infos, controls)
    s_pct, s, _ = env.controlability(infos, controls[0])
    errors = []
    for case in src.get("error_cases", []):
        try:
            prob.info(case["content"])
        except Exception as e:  # the reference raised: the case is kept with its error
            errors.append({"content": case["content"], "error": type(e).__name__, "message": str(e)})
        else:
            print("%s: an error case no longer raises" % problem, file=sys.stderr)
    out = {
        "format": "pcg-golden/1", "problem": problem, "params": plain(params),
        "reference": {"repo": REPO, "commit": commit},
        "python": platform.python_version(), "numpy": np.__version__,
    }
    if "sampling_seed" in src:
        out["sampling_seed"] = src["sampling_seed"]
    out["determinism_recheck"] = {"items_rechecked": min(RECHECK, len(items)), "mismatches": mismatches}
    out["split"] = src.get("split", "shared")
    out["items"] = items
    out["set_evaluation"] = {
        "per_item_controls": {"quality_pct": plain(q_pct), "diversity_pct": plain(d_pct),
                              "controlability_pct": plain(c_pct),
                              "details": {"quality": plain(q), "diversity": plain(d),
                                          "controlability": plain(c)}},
        "single_control": {"control_item_index": 0, "controlability_pct": plain(s_pct),
                           "controlability": plain(s)},
    }
    out["diversity_matrix"] = [[plain(prob.diversity(a, b)) for b in infos] for a in infos]
    out["error_cases"] = errors
    return out


def first_difference(a, b, path="$"):
    if type(a) is not type(b) or not isinstance(a, (dict, list)):
        return None if dumps(a) == dumps(b) else path
    if isinstance(a, dict):
        if list(a) != list(b):
            return path + " (keys)"
        keys = a
    else:
        if len(a) != len(b):
            return path + " (length)"
        keys = range(len(a))
    for k in keys:
        d = first_difference(a[k], b[k], "%s[%r]" % (path, k))
        if d:
            return d
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkout")
    ap.add_argument("items", nargs="+")
    ap.add_argument("--out", default="out/golden-reference")
    ap.add_argument("--commit", default=GOLDEN_COMMIT)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        pcg, commit = load_reference(os.path.abspath(args.checkout), args.commit, tmp)
        for path in args.items:
            problem, src = read_items(path)
            doc = golden(pcg, commit, problem, src)
            text = dumps(doc)
            dest = os.path.join(args.out, problem + ".json")
            with open(dest + ".tmp", "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(dest + ".tmp", dest)
            note = ""
            if args.check:
                if "format" not in src:
                    sys.exit("--check needs golden files as input")
                with open(path, encoding="utf-8") as f:
                    want = f.read()
                if want == text:
                    note = ": identical to %s" % path
                else:
                    failed = True
                    note = ": DIFFERS from %s at %s" % (path, first_difference(doc, json.loads(want)) or "the bytes")
            print("%s (%d items, %d error cases)%s" % (dest, len(doc["items"]), len(doc["error_cases"]), note))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
