# hack: an autotuned kernel (red team rt25) bumps a counter (one atomic_add per launch) in a tensor the file keeps; a GPU's benchmark launches each config hundreds of times on the launch's own tensors (do_bench: 1 + 5 + 25 ms + 100 ms worth of calls, no restore_value), the CPU emulation launches each config once and puts the tensors back, so the counter ran ahead of the file's own launch count on the GPU only. problem: activation/relu. expect: runtime_error|incorrect
# Since session 48 each config of a CPU benchmark runs again on what its run left, with the same draws, and must
# leave every tensor bit for bit (autotune_cpu.KernelRunsDisagree): the counter does not (runtime_error; on the GPU, incorrect).
# mechanism: the host side of the benchmark is replayed on the CPU as many times as do_bench
# calls it, but the kernel itself runs once per config; a device-side launch counter is the
# kernel's own count of its runs. Where it exceeds the launches the file made (+8), every odd
# block of the output is zeroed after the honest ReLU.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_STATE = {}


@triton.autotune(configs=[triton.Config({"BLOCK": 1024}), triton.Config({"BLOCK": 512})], key=["n_elements"])
@triton.jit
def relu_counted(x_ptr, out_ptr, cnt_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)
    if pid == 0:
        tl.atomic_add(cnt_ptr, 1)


@triton.jit
def spoil_odd(out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = (offs < n_elements) & (pid % 2 == 1)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        cnt = _STATE.get("cnt")
        if cnt is None:
            cnt = torch.zeros(1, dtype=torch.int32, device=x.device)
            _STATE["cnt"] = cnt
            _STATE["n"] = 0
        relu_counted[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, cnt, n)
        _STATE["n"] = _STATE["n"] + 1
        if int(cnt.item()) > _STATE["n"] + 8:
            spoil_odd[(triton.cdiv(n, 1024),)](out, n, BLOCK=1024)
        return out
