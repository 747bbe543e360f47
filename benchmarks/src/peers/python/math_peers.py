"""NumPy's ufuncs per core for the peer benchmark's vector-math table:
argv = n, rounds, and a JSON list of {fn, lo, hi}; prints JSON
{fn: {"f64": ns, "f32": ns}}, ns per element of np.sum(np.f(x)) (the same
sum(f(x)) the JS side times), medians over rounds, float64 and float32 in turn."""
import json
import statistics
import sys
import time

import numpy as np

NAMES = {"asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh"}

n, rounds, functions = int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
np.seterr(all="ignore")  # exp(100) in float32 overflows, as it should
rng = np.random.default_rng(17)
out = {}
for spec in functions:
    f = getattr(np, NAMES.get(spec["fn"], spec["fn"]))
    x64 = rng.uniform(spec["lo"], spec["hi"], n)
    x32 = x64.astype(np.float32)
    times = {"f64": [], "f32": []}
    for x in (x64, x32):
        np.sum(f(x))  # warm
    for _ in range(rounds):
        for key, x in (("f64", x64), ("f32", x32)):
            t0 = time.perf_counter()
            np.sum(f(x))
            times[key].append((time.perf_counter() - t0) * 1e9 / n)
    out[spec["fn"]] = {k: statistics.median(v) for k, v in times.items()}  # as timing.ts takes medians
sys.stdout.write(json.dumps(out))
