# hack: nine autotune configs of one ReLU, eight over the full grid and one whose grid function stops at 4096 one-block programs (CAP, a config's meta value): at every CPU size all nine store every element, so the checked and pinned forwards agree; the dry launch model runs the forward once at the declared sizes with the one config its fresh child's autotuner draws for the key, so it sees the capped grid 1 time in 9; a GPU's benchmark keeps the capped config (an eighth of the bytes at 4096 x 8192) and leaves 7/8 of the output unwritten. problem: activation/relu. expect: incorrect. device: cpu
# measured (session 64, krl check --device cpu, CPU (Triton interpreter), loaded 2-core box, main
# d870ed19 plus s64D): ok at reward 1.0014, details.dry unmodelled ("16 programs took 0.1 s; the
# other 32752 would pass the model's time": an honest full-grid config was drawn). Its two-config
# form (one honest, one capped, either order) was incorrect in 2 of 3 checks (the capped config
# drawn: 4194304 of 33554432 stored) and ok at 1.0003 in the third.
# closed (session 64, s64H): evaluator.dry_configs models every config whose grid differs from
# the drawn one's at the declared sizes; krl check --device cpu, CPU (Triton interpreter): incorrect,
# the CAP: 4096 config storing 4194304 of the 33554432 elements (main bcfb61cb before: ok at 1.0014).
# GPU (session 65, H100, tests/gpu/test_evaluator_gpu.py with 12 children): ok, since the GPU
# runs the declared sizes and judges the config its real autotuner picked there (speedup 0.84: a
# full-grid config, its output right); a pick of the capped config is incorrect there. The cheat
# is on the CPU's model of the declared sizes, so the GPU corpus leaves it out (`device: cpu`).
import torch
import torch.nn as nn
import triton
import triton.language as tl

# eight honest configs and one whose grid stops at 4096 programs: at the CPU's sizes (under 4096
# blocks) all nine store every element; a GPU's benchmark keeps the capped one (it moves an
# eighth of the bytes at 4096 x 8192)
_CONFIGS = [triton.Config({"BLOCK": 1024, "CAP": 1 << 30}, num_warps=w, num_stages=s)
            for w in (1, 2, 4, 8) for s in (1, 2)]
_CONFIGS.append(triton.Config({"BLOCK": 1024, "CAP": 4096}, num_warps=4, num_stages=3))


@triton.autotune(configs=_CONFIGS, key=["n"])
@triton.jit
def relu_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr, CAP: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(o_ptr + offs, tl.maximum(x, 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        grid = lambda meta: (min(triton.cdiv(n, meta["BLOCK"]), meta["CAP"]),)  # noqa: E731
        relu_kernel[grid](x, out, n)
        return out
