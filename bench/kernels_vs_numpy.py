#!/usr/bin/python3
"""Generated kernels against NumPy (OpenBLAS) on one thread, in the same script.

For each workload: the .uir program, `uopc run --bench` with --opts none and --opts auto (the
kernel time, median of the runs, compilation excluded), and the same computation in NumPy, timed
the same way. Prints milliseconds, GFLOP/s where it means something, and the ratios.

Needs python3-numpy and libopenblas0-pthread (scripts/setup --bench); the tests never do.
Usage: bench/kernels_vs_numpy.py [UOPC] [--runs N] [--threads T]
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402  (after the thread setting, which OpenBLAS reads at load)


def gemm(n):
    s, nn = str(n), str(n * n)
    return (f"%a = buffer {nn}\n%b = buffer {nn} slot=1\n"
            f"%am = reshape %a shape=[{s} {s} 1]\n%ap = permute %am order=[1 0 2]\n"
            f"%ae = expand %ap shape=[{s} {s} {s}]\n"
            f"%bm = reshape %b shape=[{s} 1 {s}]\n%be = expand %bm shape=[{s} {s} {s}]\n"
            f"%p = mul %ae %be\n%c = reduce %p op=add pop=1\n")


def softmax(n):
    s = str(n)
    return (f"%x0 = buffer {n * n}\n%x = reshape %x0 shape=[{s} {s}]\n"
            f"%xt = permute %x order=[1 0]\n%m = reduce %xt op=max pop=1\n"
            f"%m1 = reshape %m shape=[{s} 1]\n%d = sub %x %m1\n%e = exp2 %d\n"
            f"%et = permute %e order=[1 0]\n%z = reduce %et op=add pop=1\n"
            f"%z1 = reshape %z shape=[{s} 1]\n%y = div %e %z1\n")


def conv(c, n):
    """3x3 'same' cross-correlation, c channels in and out, on an n x n image: the nine
    shifted windows stacked on the last popped axis, so the reduce runs over (ci, tap)."""
    lines = [f"%x0 = buffer {c * n * n}", f"%x1 = reshape %x0 shape=[{c} {n} {n}]",
             "%x = pad %x1 pads=[0 0 1 1 1 1]",
             f"%w0 = buffer {c * c * 9} slot=1", f"%w1 = reshape %w0 shape=[{c} {c} 9]",
             "%w2 = permute %w1 order=[1 2 0]", f"%w3 = reshape %w2 shape=[{c} 9 {c} 1 1]",
             f"%w = expand %w3 shape=[{c} 9 {c} {n} {n}]"]
    names = []
    for k in range(9):
        lines.append(f"%p{k} = shrink %x 0 {k // 3} {k % 3} shape=[{c} {n} {n}]")
        names.append(f"%p{k}")
    lines += ["%s0 = stack " + " ".join(names), "%s1 = permute %s0 order=[1 0 2 3]",
              f"%s2 = reshape %s1 shape=[{c} 9 1 {n} {n}]",
              f"%s = expand %s2 shape=[{c} 9 {c} {n} {n}]", "%m = mul %s %w",
              "%y = reduce %m op=add pop=2"]
    return "\n".join(lines) + "\n"


def default_f32(size, slot):
    i = np.arange(size, dtype=np.int64)
    return (((37 * i + 11 * slot) % 23) - 11).astype(np.float32) / np.float32(4)


def numpy_gemm(n):
    a, b = default_f32(n * n, 0).reshape(n, n), default_f32(n * n, 1).reshape(n, n)
    return lambda: a @ b


def numpy_softmax(n):
    x = default_f32(n * n, 0).reshape(n, n)

    def run():
        e = np.exp2(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    return run


def numpy_conv(c, n):
    x = np.pad(default_f32(c * n * n, 0).reshape(c, n, n), ((0, 0), (1, 1), (1, 1)))
    w = default_f32(c * c * 9, 1).reshape(c, c, 3, 3)
    windows = np.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(1, 2))  # c n n 3 3
    return lambda: np.tensordot(w, windows, axes=([1, 2, 3], [0, 3, 4]))


def median_ms(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    times.sort()
    return times[len(times) // 2] if runs % 2 else (times[runs // 2 - 1] + times[runs // 2]) / 2


def uopc_ms(uopc, text, opts, runs, threads):
    with tempfile.NamedTemporaryFile("w", suffix=".uir", delete=False) as f:
        f.write(text)
    try:
        out = subprocess.run([uopc, "run", "--bench", "--runs", str(runs), "--max-elements",
                              str(1 << 31), "--threads",
                              str(threads), "--opts", opts, f.name],
                             check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    return float(re.search(r"kernel time: ([0-9.]+) ms", out.splitlines()[-1]).group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("uopc", nargs="?", default="build/cli/uopc")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    work = [("gemm 512", gemm(512), numpy_gemm(512), 2 * 512 ** 3),
            ("gemm 1024", gemm(1024), numpy_gemm(1024), 2 * 1024 ** 3),
            ("softmax 1024x1024", softmax(1024), numpy_softmax(1024), 0),
            ("conv2d 3x3 16ch 128x128", conv(16, 128), numpy_conv(16, 128), 2 * 16 * 16 * 9 * 128 * 128)]
    print(f"uopc --threads {a.threads}; NumPy {np.__version__} with OPENBLAS_NUM_THREADS="
          f"{os.environ['OPENBLAS_NUM_THREADS']}; median of {a.runs} runs, ms")
    print(f"{'workload':26} {'none':>9} {'auto':>9} {'numpy':>9} {'none/auto':>10} "
          f"{'numpy/auto':>11} {'auto GFLOP/s':>13}")
    for name, text, reference, flops in work:
        none = uopc_ms(a.uopc, text, "none", a.runs, a.threads)
        auto = uopc_ms(a.uopc, text, "auto", a.runs, a.threads)
        ref = median_ms(reference, a.runs)
        rate = f"{flops / auto / 1e6:13.1f}" if flops else f"{'':>13}"
        print(f"{name:26} {none:9.2f} {auto:9.2f} {ref:9.2f} {none / auto:10.2f} "
              f"{ref / auto:11.2f} {rate}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
