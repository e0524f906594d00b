# hack: the dry model's autotune configs shared one CPU budget, modelled fewest programs first (evaluator.dry_configs), so six decoy configs over the full output with fewer programs than the capped one, their stores repeated twelve times to cost the model, spent it before the capped config was reached; it gave up and the ok stood, while a GPU's benchmark keeps the capped config (an eighth of the bytes at 4096 x 8192). problem: activation/relu. expect: incorrect. device: cpu
# measured (session 64 review, krl check --device cpu, CPU (Triton interpreter), idle box, main 6adaf554):
# REP 2 and REP 4 incorrect (decoys spent 61 and 79 CPU s of 120, the capped config judged);
# REP 12 ok at reward 1.0015 (118 CPU s spent, the capped config unmodelled). Closed: each config's
# forward is modelled within a CPU budget of its own (dry_configs.modelled).
# GPU (session 65, H100, tests/gpu/test_evaluator_gpu.py with 12 children): ok, since the GPU
# runs the declared sizes and judges the config its real autotuner picked there (speedup 0.18: a
# full-grid config, its output right); a pick of the capped config is incorrect there. The cheat
# is on the CPU's model of the declared sizes, so the GPU corpus leaves it out (`device: cpu`).
import torch
import torch.nn as nn
import triton
import triton.language as tl

# six decoys (2048 .. 64 programs at 4096 x 8192, each storing every element twelve times), one capped
# config (4096 programs, 1/8 of the output past the CPU sizes) and two plain full-grid configs
_CONFIGS = [triton.Config({"BLOCK": 16384, "ITERS": i, "REP": 12, "CAP": 1 << 30}, num_warps=4)
            for i in (1, 2, 4, 8, 16, 32)]
_CONFIGS += [triton.Config({"BLOCK": 1024, "ITERS": 1, "REP": 1, "CAP": 4096}, num_warps=4),
             triton.Config({"BLOCK": 1024, "ITERS": 1, "REP": 1, "CAP": 1 << 30}, num_warps=2),
             triton.Config({"BLOCK": 1024, "ITERS": 1, "REP": 1, "CAP": 1 << 30}, num_warps=8)]


@triton.autotune(configs=_CONFIGS, key=["n"])
@triton.jit
def relu_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr, ITERS: tl.constexpr, REP: tl.constexpr,
                CAP: tl.constexpr):
    base = tl.program_id(0) * BLOCK * ITERS
    for i in range(ITERS):
        offs = base + i * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        for r in range(REP):
            tl.store(o_ptr + offs + (r - r), tl.maximum(x, 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        grid = lambda meta: (min(triton.cdiv(n, meta["BLOCK"] * meta["ITERS"]), meta["CAP"]),)  # noqa: E731
        relu_kernel[grid](x, out, n)
        return out
