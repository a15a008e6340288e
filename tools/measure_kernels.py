#!/usr/bin/env python3
"""measure_kernels.py -- time, on one CUDA GPU, the kernels `roofline --calibrate` fits.

    python3 tools/measure_kernels.py > h100-kernels.jsonl          # the calibration cases
    python3 tools/measure_kernels.py --llama > h100-llama.jsonl    # LLaMA-3 8B, held out
    roofline --calibrate H100 h100-kernels.jsonl > h100_cal.roof

Writes JSON Lines in the format of tests/data/measurements/*.jsonl: a first line
{"case": "_device", "name", "torch", "sms", "mem"}, then one object a case:
{"case": NAME, "ms": median, "ms_min": fastest repeat, "n": calls a repeat, shape...}.
Method: random data (zeros run faster on tensor cores), a warm-up, then 7 repeats of
n back-to-back calls between two CUDA events (n chosen so a repeat takes about 20 ms,
at most 200), each repeat's time divided by n; "ms" is the median of the 7. Eager
calls are launched from Python one after another, as PyTorch runs a model, so a kernel
shorter than its launch shows the launch (tiny_add_eager); tiny_add_graph replays
CUDA-graph-captured kernels, which shows what a kernel costs on the GPU alone.

The --llama cases (a LLaMA-3 8B layer and whole step: prefill of 2048 tokens; decode
at batch 1 and 64 against a 4096-token KV cache, eager and in a CUDA graph) are kept
out of the calibration file: roofline predicts them from the kernels alone, and these
measurements check that prediction (BENCHMARKS.md).

Needs PyTorch 2.5 or later (F.rms_norm; sdpa's enable_gqa). Run on an H100 and an H200
with PyTorch 2.11 and CUDA 13: tests/data/measurements/*-kernels-2026-11-27b.jsonl and
*-llama-2026-11-27.jsonl are its output (the older *-kernels-2026-11-27.jsonl were taken
by an earlier script of the same method and format).
"""
import argparse
import json
import statistics
import sys

import torch
import torch.nn.functional as F

BF16 = torch.bfloat16
DEV = "cuda"
REPEATS, WARMUP, TARGET_MS, MOST_CALLS = 7, 3, 20.0, 200


def emit(record):
    print(json.dumps(record), flush=True)


def time_ms(fn):
    """Median and least ms of one call of fn: REPEATS repeats of n calls after a warm-up."""
    for _ in range(WARMUP):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    n = max(1, min(MOST_CALLS, int(TARGET_MS / max(start.elapsed_time(end), 1e-3))))
    times = []
    for _ in range(REPEATS):
        start.record()
        for _ in range(n):
            fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end) / n)
    return statistics.median(times), min(times), n


def case(name, fn, **shape):
    """One case's line; a case that fails says why on stderr and the others go on."""
    try:
        ms, least, n = time_ms(fn)
    except (RuntimeError, torch.cuda.OutOfMemoryError) as e:
        print(f"measure_kernels.py: {name}: {e}", file=sys.stderr, flush=True)
    else:
        emit({"case": name, "ms": ms, "ms_min": least, "n": n, **shape})
    torch.cuda.empty_cache()


def randn(*shape, dtype=BF16):
    return torch.randn(*shape, device=DEV, dtype=torch.float32).to(dtype)


def device_line():
    p = torch.cuda.get_device_properties(0)
    emit({"case": "_device", "name": p.name, "torch": torch.__version__,
          "sms": p.multi_processor_count, "mem": p.total_memory})


# ---- the calibration cases -------------------------------------------------------------

def matmuls():
    for n in (4096, 8192, 16384):
        a, b = randn(n, n), randn(n, n)
        case(f"mm_sq_{n}", lambda: a @ b, M=n, K=n, N=n)
        del a, b
    k, n = 8192, 28672
    w = randn(k, n)
    for m in (1, 8, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384):
        x = randn(m, k)
        case(f"mm_mlp_B{m}", lambda: x @ w, M=m, K=k, N=n)
    del w
    # matrix-vector products over square weights of 2 MiB to 512 MiB: the small,
    # memory-bound matmuls of decoding, whose fixed cost a single size cannot show
    for n in (1024, 2048, 4096, 8192, 16384):
        ws = [randn(n, n) for _ in range(cold_copies(2 * n * n))]
        for m in (1, 16):
            x = randn(m, n)
            graph_case(f"mm_gemv_M{m}_{n}", [lambda w=w: x @ w for w in ws], M=m, K=n, N=n)
        del ws
    # int8 x int8 -> int32 through torch._int_mm: a slow library path in some builds
    # (tests/data/measurements/README.md); calibrate says so rather than lower the peak
    wi = torch.randint(-128, 128, (k, n), device=DEV, dtype=torch.int8)
    for m in (32, 256, 1024, 4096, 16384):
        xi = torch.randint(-128, 128, (m, k), device=DEV, dtype=torch.int8)
        case(f"mm_int8_B{m}", lambda: torch._int_mm(xi, wi), M=m, K=k, N=n)
    del wi
    # fp8 e4m3 x e4m3 -> bf16; cuBLASLt wants the second operand column-major
    wf = randn(n, k).to(torch.float8_e4m3fn).t()
    one = torch.tensor(1.0, device=DEV)
    for m in (32, 256, 1024, 4096, 16384):
        xf = randn(m, k).to(torch.float8_e4m3fn)
        case(f"mm_fp8_B{m}", lambda: torch._scaled_mm(xf, wf, one, one, out_dtype=BF16),
             M=m, K=k, N=n)


def elementwise():
    n = 2 ** 28
    a, b = randn(n), randn(n)
    case("add_bf16_2^28", lambda: a + b, N=n)
    case("add3_bf16_2^28", lambda: a + b + a, N=n)   # two kernels, eagerly
    case("copy_bf16_2^28", lambda: a.clone(), N=n)
    del a, b
    for p in (16, 18, 20, 22, 24):  # small vectors: a kernel's fixed cost beside its bytes
        n = 2 ** p
        pairs = [(randn(n), randn(n)) for _ in range(cold_copies(3 * 2 * n))]
        graph_case(f"add_bf16_2^{p}", [lambda a=a, b=b: a + b for a, b in pairs], N=n)
        del pairs
    n = 2 ** 27
    a, b = randn(n, dtype=torch.float32), randn(n, dtype=torch.float32)
    case("add_f32_2^27", lambda: a + b, N=n)
    case("mul_f32_2^27", lambda: a * b, N=n)
    del a, b
    i, j = 8192, 65536
    x = randn(i, j)
    case(f"sum_bf16_{i}x{j}", lambda: x.sum(dim=1), I=i, J=j)
    case(f"softmax_bf16_{i}x{j}", lambda: torch.softmax(x, dim=1), I=i, J=j)
    case(f"rmsnorm_bf16_{i}x{j}", lambda: F.rms_norm(x, (j,)), I=i, J=j)


def graphed(fn):
    """fn captured in a CUDA graph (after a warm-up on a side stream): its replay."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(WARMUP):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        fn()
    return graph.replay


COLD_BYTES = 512 << 20  # well past an H100's or H200's 50 MiB L2


def cold_copies(nbytes):
    """How many copies of a kernel's operands keep each call's reads out of L2: a model
    reads each layer's weights once a step, not from the cache."""
    return max(20, -(-COLD_BYTES // nbytes))


def graph_case(name, fns, **shape):
    """A kernel too short to hide its eager launch: one call on each copy of its operands
    (fns), all replayed from one CUDA graph; the time a call is what it costs on the
    GPU, reading from HBM, as in a graphed model."""
    calls = len(fns)

    def many():
        for fn in fns:
            fn()
    try:
        replay = graphed(many)
    except RuntimeError as e:
        print(f"measure_kernels.py: {name}: capture: {e}", file=sys.stderr)
        return
    try:
        ms, least, n = time_ms(replay)
    except RuntimeError as e:
        print(f"measure_kernels.py: {name}: {e}", file=sys.stderr)
        return
    emit({"case": name, "ms": ms / calls, "ms_min": least / calls, "n": n * calls,
          "graph": True, **shape})


def launches():
    n, kernels = 4096, 100
    x = randn(n)
    case(f"tiny_add_eager_{n}", lambda: x + x, N=n)

    def hundred():
        for _ in range(kernels):
            x + x
    case(f"tiny_add_graph_x{kernels}_{n}", graphed(hundred), N=n, kernels=kernels)


def flash(q, k, v, causal):
    """PyTorch's own choice of fused attention kernel (cuDNN's on an H100 with PyTorch
    2.11; forcing the FLASH_ATTENTION backend with enable_gqa ran prefill 1.7-1.9x
    slower), as a model calling sdpa gets."""
    return F.scaled_dot_product_attention(q, k, v, is_causal=causal, enable_gqa=True)


def attention():
    n, kv, h = 32, 8, 128
    for t in (2048, 8192):
        q, k, v = randn(1, n, t, h), randn(1, kv, t, h), randn(1, kv, t, h)
        for causal in (False, True):
            name = f"sdpa_prefill{'_causal' if causal else ''}_T{t}"
            case(name, lambda: flash(q, k, v, causal), B=1, T=t, N=n, K=kv, H=h)
    for b, s in ((1, 4096), (64, 4096), (16, 32768)):
        q, k, v = randn(b, n, 1, h), randn(b, kv, s, h), randn(b, kv, s, h)
        case(f"sdpa_decode_B{b}_S{s}", lambda: flash(q, k, v, False), B=b, S=s, N=n, K=kv, H=h)


# ---- LLaMA-3 8B, held out ---------------------------------------------------------------

D, FF, N, KV, H, L, V = 4096, 14336, 32, 8, 128, 32, 128256
SHAPE = dict(D=D, F=FF, N=N, K=KV, H=H, L=L, V=V)


def layer_weights():
    s = 0.02
    return {"n1": torch.ones(D, device=DEV, dtype=BF16), "n2": torch.ones(D, device=DEV, dtype=BF16),
            "q": randn(D, N * H) * s, "k": randn(D, KV * H) * s, "v": randn(D, KV * H) * s,
            "o": randn(N * H, D) * s, "gate": randn(D, FF) * s, "up": randn(D, FF) * s,
            "down": randn(FF, D) * s}


def layer(x, w, cache=None):
    """The stdlib's `layer`: pre-norm GQA attention and a SwiGLU MLP (no RoPE, which the
    cost model leaves out). With a cache, the new token attends to its keys and values."""
    b, t, _ = x.shape
    h = F.rms_norm(x, (D,), w["n1"])
    q = (h @ w["q"]).view(b, t, N, H).transpose(1, 2)
    if cache is None:
        k = (h @ w["k"]).view(b, t, KV, H).transpose(1, 2)
        v = (h @ w["v"]).view(b, t, KV, H).transpose(1, 2)
    else:
        (h @ w["k"], h @ w["v"])  # the new token's K and V (its write into the cache is left out)
        k, v = cache
    o = flash(q, k, v, cache is None).transpose(1, 2).reshape(b, t, N * H)
    x = x + o @ w["o"]
    h = F.rms_norm(x, (D,), w["n2"])
    return x + (F.silu(h @ w["gate"]) * (h @ w["up"])) @ w["down"]


def step(tokens, ws, emb, out, caches=None):
    x = emb[tokens]
    for i, w in enumerate(ws):
        x = layer(x, w, caches[i] if caches else None)
    return F.rms_norm(x, (D,)) @ out


def llama():
    ws = [layer_weights() for _ in range(L)]
    emb, out = randn(V, D) * 0.02, randn(D, V) * 0.02
    t = 2048
    x = randn(1, t, D)
    tokens = torch.randint(0, V, (1, t), device=DEV)
    case("llama3_8b_layer_prefill_T2048", lambda: layer(x, ws[0]), B=1, T=t, **SHAPE)
    case("llama3_8b_step_prefill_T2048", lambda: step(tokens, ws, emb, out), B=1, T=t, **SHAPE)
    s = 4096
    for b in (1, 64):
        caches = [(randn(b, KV, s, H), randn(b, KV, s, H)) for _ in range(L)]
        x = randn(b, 1, D)
        tokens = torch.randint(0, V, (b, 1), device=DEV)
        one = lambda: layer(x, ws[0], caches[0])
        whole = lambda: step(tokens, ws, emb, out, caches)
        for launch in ("eager", "graph"):
            for what, fn in (("layer", one), ("step", whole)):
                name = f"llama3_8b_{what}_decode_B{b}_S{s}_{launch}"
                try:
                    run = graphed(fn) if launch == "graph" else fn
                except RuntimeError as e:
                    print(f"measure_kernels.py: {name}: capture: {e}", file=sys.stderr)
                    continue
                case(name, run, B=b, S=s, launch=launch, **SHAPE)
        del caches


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--llama", action="store_true",
                    help="time the held-out LLaMA-3 8B layer and step cases instead")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("measure_kernels.py: no CUDA GPU; run it on the GPU to calibrate")
    torch.manual_seed(0)
    device_line()
    with torch.inference_mode():
        if args.llama:
            llama()
        else:
            matmuls()
            elementwise()
            launches()
            attention()


if __name__ == "__main__":
    main()
