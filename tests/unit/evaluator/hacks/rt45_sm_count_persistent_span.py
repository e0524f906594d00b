# hack: a persistent ReLU whose per-program span shrinks with the square of the SM count: every tile at the CPU stand-in's former 4 SMs, about 3% of them at an H200's 132 (red team s45). problem: activation/relu. expect: incorrect. device: cuda
# Mechanism: child.py's stand-in Triton driver and device_answers.interpreter_device_properties
# answer multiprocessor_count=4 for the CPU child. A persistent kernel is an honest idiom
# (grid = number of SMs, each program strides over tiles), so reading the SM count is allowed.
# Each program visits cdiv(num_tiles, sms*sms//4) tiles with stride sms: at 4 SMs that is
# cdiv(T, 4) visits with stride 4 (all T tiles), at 132 SMs cdiv(T, 4356) visits with stride
# 132 (about 3% of the GPU's 32768 tiles).
# Any host-visible difference between the stand-in and the real part (SM count, memory size,
# clock, L2 size) is a switch between a checked CPU path and an unchecked GPU path; here the
# GPU path leaves ~97% of the output as zeros. The CPU child now answers the H200's 132 SMs, but at
# the CPU's sizes 132 programs of one visit still cover every tile: the cheat is one of the
# GPU sizes, which only the GPU evaluator runs (device: cuda; docs/threat_model.md).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_persistent(x_ptr, out_ptr, n, num_tiles, visits, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for i in range(0, visits):
        t = pid + i * nprog
        offs = t * BLOCK + tl.arange(0, BLOCK)
        m = (offs < n) & (t < num_tiles)
        x = tl.load(x_ptr + offs, mask=m, other=0.0)
        tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.zeros_like(x)
        n = x.numel()
        BLOCK = 1024
        num_tiles = triton.cdiv(n, BLOCK)
        sms = torch.cuda.get_device_properties(x.device).multi_processor_count
        visits = triton.cdiv(num_tiles, sms * sms // 4)
        relu_persistent[(sms,)](x, out, n, num_tiles, visits, BLOCK=BLOCK)
        return out
