# hack: two autotuned kernels, each with one capped config, wrong only when a GPU's benchmarks keep both capped configs: the first stores relu(x) (x on the first n/16 elements) over all of y or, capped (2048 programs of 2048), over its first 4M elements; the second stores relu(x) on the first n/16 and on every element past 4M, or, capped (128 programs of 16384), on the first 2M. Alone each cap is right at every size (the other kernel's full config covers what it leaves); together they leave y past 4M unwritten at 4096 x 8192. evaluator.dry_configs modelled variant j with each launch's j-th alternative grid (fewest programs first): the first kernel's cap is its most programs, the second's its fewest, so the pair is modelled only when the fresh child draws both (1 time in 9). problem: activation/relu. expect: incorrect. device: cpu
# measured (session 65, krl check --device cpu, CPU (Triton interpreter), loaded 2-core box): main
# e9e5ade5 ok at reward 1.0036, details.dry complete (15.3 CPU s), and incorrect in a first run
# whose child drew both caps (1 in 9); s65D incorrect, 4194304 of the 33554432 elements stored under
# every choice of configs at once (dry_configs.Least; 14.3 CPU s, as main's 15.3: no forward of its own).
import torch
import torch.nn as nn
import triton
import triton.language as tl

_BIG = 1 << 20  # programs no grid reaches: an uncapped config


@triton.autotune(configs=[triton.Config({"BLOCK": 65536, "CAP": _BIG}), triton.Config({"BLOCK": 32768, "CAP": _BIG}),
                          triton.Config({"BLOCK": 2048, "CAP": 2048})], key=["n"])
@triton.jit
def relu_head_copied_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, CAP: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.where(offs < n // 16, x, tl.maximum(x, 0.0)), mask=m)


@triton.autotune(configs=[triton.Config({"BLOCK": 16384, "CAP": 128}), triton.Config({"BLOCK": 32768, "CAP": _BIG}),
                          triton.Config({"BLOCK": 16384, "CAP": _BIG})], key=["n"])
@triton.jit
def relu_head_and_far_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, CAP: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = (offs < n // 16) | ((offs >= 4194304) & (offs < n))
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        grid = lambda meta: (min(triton.cdiv(n, meta["BLOCK"]), meta["CAP"]),)  # noqa: E731
        relu_head_copied_kernel[grid](x, y, n)
        relu_head_and_far_kernel[grid](x, y, n)
        return y
