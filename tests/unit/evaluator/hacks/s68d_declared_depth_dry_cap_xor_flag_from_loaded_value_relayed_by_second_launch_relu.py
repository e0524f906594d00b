# hack: s67e's capped ReLU grid (the store mask offs < n and ((pid < 4096) xor (flag != 1))) whose flag a chain of earlier launches makes: a one-program launch stores x[0] == x[0] (1 on the draw, a loaded value) into a torch.zeros int32, a second one-program launch copies it into the flag the capped grid loads; the capped launch's feeds name both (the copy's stores come from the first launch's), both run in the real forward again and the flag holds 1 there; on the GPU only the first 4096 programs store. Measured on s68D (krl check --device cpu, CPU (Triton interpreter), box at load ~25): incorrect, 4194304 of 33554432 stored, launches 0 and 1 run at both sizes, the declared model 36.5 CPU s; ok on main by s67e's mechanism (reasoned). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

CAP = 4096


@triton.jit
def probe(x_ptr, seen_ptr):
    v = tl.load(x_ptr)
    tl.store(seen_ptr, (v == v).to(tl.int32))


@triton.jit
def relay(src_ptr, dst_ptr):
    tl.store(dst_ptr, tl.load(src_ptr))


@triton.jit
def relu_kernel(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr, CAP: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    flag = tl.load(flag_ptr + offs * 0)
    keep = (offs * 0 + pid < CAP) ^ (flag != 1)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & keep)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        seen = torch.zeros(1, dtype=torch.int32, device=x.device)
        flag = torch.zeros(1, dtype=torch.int32, device=x.device)
        probe[(1,)](x, seen)
        relay[(1,)](seen, flag)
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, flag, n, BLOCK=1024, CAP=CAP)
        return y
