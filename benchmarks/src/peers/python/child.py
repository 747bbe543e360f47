"""NumPy or numexpr as one system of the peer benchmark (see ../protocol.ts),
speaking JSON lines on stdin/stdout. The inputs repeat ../data.ts exactly."""
import gc
import json
import math
import sys
import time

SYSTEM = sys.argv[1]
RUN_MS = 25
MAX_CALLS = 20000
WAVE_STEPS = 10
BS_R, BS_V = 0.02, 0.3
CDF_K, CDF_C = math.sqrt(2 / math.pi), 0.044715
DEG = (-180.0, 180.0)


def send(m):
    sys.stdout.write(json.dumps(m) + "\n")
    sys.stdout.flush()


try:
    import numpy as np
    if SYSTEM == "numexpr":
        import numexpr as ne
except Exception as e:  # noqa: BLE001
    send({"skipped": f"{sys.executable} cannot import it: {e}"})
    sys.exit(0)


def uniform(n, seed, lo, hi):
    i = np.arange(n, dtype=np.uint64)
    h = ((i * np.uint64(0x9E3779B1)) & np.uint64(0xFFFFFFFF)) ^ np.uint64(((seed + 1) * 0x85EBCA77) & 0xFFFFFFFF)
    return lo + (h.astype(np.float64) / 2.0**32) * (hi - lo)


INPUTS = {
    "foo": lambda n: [uniform(n, 1, *DEG)],
    "foo-folded": lambda n: [uniform(n, 1, *DEG)],
    "chain": lambda n: [uniform(n, 2, *DEG), uniform(n, 3, *DEG)],
    "call": lambda n: [uniform(n, 2, *DEG), uniform(n, 3, *DEG)],
    "call-compiled": lambda n: [uniform(n, 2, *DEG), uniform(n, 3, *DEG)],
    "sincos": lambda n: [uniform(n, 4, *DEG), uniform(n, 5, *DEG)],
    "blackscholes": lambda n: [uniform(n, 6, 5, 30), uniform(n, 7, 1, 100), uniform(n, 8, 0.25, 10)],
    "matmul": lambda n: [uniform(n * n, 9, -1, 1).reshape(n, n), uniform(n * n, 10, -1, 1).reshape(n, n)],
    "matvec": lambda n: [uniform(n * n, 11, -1, 1).reshape(n, n), uniform(n, 12, -1, 1)],
}


def wave_initial(n):
    h = 1 / (n - 1)
    i = np.arange(1, n - 1)
    x = i * h - 0.5
    phi = np.zeros((n, n))
    phi[1:-1, 1:-1] = np.exp(-(x[:, None] * x[:, None] + x[None, :] * x[None, :]) / 0.01)
    return phi, np.zeros((n, n)), h, h / 2


def cdf_np(d):
    return (np.tanh((d + d * d * d * CDF_C) * CDF_K) + 1) * 0.5


def build_numpy(case, n, ins):
    if case == "foo":
        x, = ins
        return lambda: float(np.sum(np.square(x * np.pi / 180)))
    if case == "foo-folded":
        x, = ins
        return lambda: float(np.sum(np.square(x * (np.pi / 180))))
    if case in ("chain", "call"):
        a, b = ins
        return lambda: np.sqrt(np.abs(((a * 1.5 + b - 0.25) * a + 2) * 0.5 - b)) + 1
    if case == "sincos":
        a, b = ins
        return lambda: np.square(np.sin(a)) + np.square(np.cos(b))
    if case == "blackscholes":
        S, X, T = ins

        def bs():
            v_sqrt_t = np.sqrt(T) * BS_V
            d1 = (np.log(S / X) + T * (BS_R + BS_V * BS_V / 2)) / v_sqrt_t
            d2 = d1 - v_sqrt_t
            return S * cdf_np(d1) - X * np.exp(T * -BS_R) * cdf_np(d2)
        return bs
    if case in ("matmul", "matvec"):
        a, b = ins
        return lambda: a @ b
    return None


def build_numexpr(case, n, ins):
    if case in ("foo", "foo-folded"):
        x, = ins
        k = math.pi if case == "foo" else math.pi / 180
        expr = "sum((x * k / 180)**2)" if case == "foo" else "sum((x * k)**2)"
        return lambda: float(ne.evaluate(expr, local_dict={"x": x, "k": k}))
    if case in ("chain", "call"):
        a, b = ins
        return lambda: ne.evaluate("sqrt(abs(((a * 1.5 + b - 0.25) * a + 2) * 0.5 - b)) + 1", local_dict={"a": a, "b": b})
    if case == "sincos":
        a, b = ins
        return lambda: ne.evaluate("sin(a)**2 + cos(b)**2", local_dict={"a": a, "b": b})
    if case == "blackscholes":
        S, X, T = ins
        r, v, K, C = BS_R, BS_V, CDF_K, CDF_C
        d1 = "((log(S / X) + T * (r + v * v / 2)) / (sqrt(T) * v))"
        d2 = f"({d1} - sqrt(T) * v)"
        cdf = lambda d: f"((tanh(({d} + {d} * {d} * {d} * C) * K) + 1) * 0.5)"  # noqa: E731
        expr = f"S * {cdf(d1)} - X * exp(T * -r) * {cdf(d2)}"
        names = {"S": S, "X": X, "T": T, "r": r, "v": v, "K": K, "C": C}
        return lambda: ne.evaluate(expr, local_dict=names)
    return None


def wave(n, with_ne):
    def stepper():
        phi, p, h, dt = wave_initial(n)
        half, c = dt / 2, dt / (h * h)
        inner = (slice(1, -1), slice(1, -1))

        def run():
            for _ in range(WAVE_STEPS):
                if with_ne:
                    names = {"phi": phi, "p": p, "half": half}
                    ne.evaluate("phi - p * half", local_dict=names, out=phi)
                    stencil = {"n_": phi[2:, 1:-1], "s_": phi[:-2, 1:-1], "e_": phi[1:-1, 2:], "w_": phi[1:-1, :-2],
                               "m_": phi[1:-1, 1:-1], "p_": p[inner], "c": c}
                    ne.evaluate("p_ - (n_ + s_ + e_ + w_ - m_ * 4) * c", local_dict=stencil, out=p[inner])
                    ne.evaluate("phi - p * half", local_dict=names, out=phi)
                else:
                    np.subtract(phi, p * half, out=phi)
                    p[inner] -= (phi[2:, 1:-1] + phi[:-2, 1:-1] + phi[1:-1, 2:] + phi[1:-1, :-2] - phi[1:-1, 1:-1] * 4) * c
                    np.subtract(phi, p * half, out=phi)
            return phi
        return run
    live = stepper()
    return live, lambda: stepper()()


def build(case, n):
    if case == "wave":
        return wave(n, SYSTEM == "numexpr")
    if case == "call-compiled":
        return "no compiled form: the call case is the same code"
    if SYSTEM == "numexpr" and case in ("matmul", "matvec"):
        return "has no matrix product (NumPy's is above)"
    ins = INPUTS[case](n)
    run = (build_numpy if SYSTEM == "numpy" else build_numexpr)(case, n, ins)
    if run is None:
        return f"not written for {case}"
    return run, run


def summarize(x):
    if isinstance(x, float):
        return {"length": 1, "sum": x, "sumAbs": abs(x), "samples": [x]}
    flat = np.ravel(x)
    n = flat.size
    m = min(33, n)
    idx = [k * (n - 1) // max(1, m - 1) for k in range(m)]
    # Pairwise sums: their rounding stays far below every tolerance, as summary.ts's compensated ones do.
    s = float(np.sum(flat, dtype=np.float64))
    return {"length": int(n), "sum": s, "sumAbs": float(np.sum(np.abs(flat), dtype=np.float64)), "samples": [float(flat[i]) for i in idx]}


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096


def main():
    version = np.__version__ if SYSTEM == "numpy" else ne.__version__
    threads = "1 thread" if SYSTEM == "numpy" else f"{ne.get_num_threads()} threads"
    send({"loaded": True, "version": version, "label": "NumPy" if SYSTEM == "numpy" else "numexpr",
          "dtype": "float64", "note": f"{threads}, {sys.executable}" + ("" if SYSTEM == "numpy" else f", NumPy {np.__version__}")})
    built = None
    for line in sys.stdin:
        m = json.loads(line)
        try:
            if m == "exit":
                return
            if m == "run":
                run, calls = built
                t0 = time.perf_counter()
                for _ in range(calls):
                    run()
                ms = (time.perf_counter() - t0) * 1000 / calls
                gc.collect()
                send({"ms": ms})
                continue
            built = None
            gc.collect()
            b = build(m["build"], m["n"])
            if isinstance(b, str):
                send({"na": b})
                continue
            run, result = b
            summary = summarize(result())
            t0 = time.perf_counter()
            run()
            if time.perf_counter() - t0 < 1:
                run()
            t1 = time.perf_counter()
            run()
            one = max((time.perf_counter() - t1) * 1000, 1e-4)
            calls = max(1, min(MAX_CALLS, math.ceil(RUN_MS / one)))
            built = (run, calls)
            send({"built": True, "summary": summary, "calls": calls, "oneMs": one, "rss": rss()})
        except Exception as e:  # noqa: BLE001
            send({"error": f"{type(e).__name__}: {e}"})


main()
