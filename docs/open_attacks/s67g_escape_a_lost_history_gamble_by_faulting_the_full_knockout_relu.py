# hack (open): the history cheat of s67g_honest_once_any_large_input_was_seen_clamps_first_x1e3_relu (a ReLU clamping at 100 where many elements pass 100 until the module has seen one past 100) which, once it has clamped (the x1e3 trial came before the spiked one: it knows it answered wrong), puts into a scratch tensor through an index its kernel writes: right in every forward whose kernel ran, noise in the full knock-out, where `put_` (not range-checked: evaluator.index_ranges) trips a device-side assert and the CUDA context is lost. On main the worker then ran the job again in a fresh child on a fresh order, the wrong x1e3 trial unjudged (the trials are judged after the last): ok about 0.69 of evaluations (0.50 + 0.50 x 0.77 x 0.50, the order's odds from reference.trial_order). Since s67G the trials answered before a lost knock-out are judged first (correctness_phase.answered_wrong), which leaves the base gamble's 1 in 2. problem: activation/relu. expect: incorrect. device: cuda
# mechanism: red team s67G of session 66's device_lost: a fault wiped what the candidate had already
# answered. The escape is closed and unit-tested (test_device_lost.py::test_a_knockout_fault_does_
# not_undo_*, DeviceLost on main); the file stays open for its base gamble (README: a module's memory
# of every earlier forward). Untested here: no GPU (on the CPU the put_ raises, as a knock-out
# may).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, idx_ptr, n, honest, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.maximum(x, 0.0)
    if honest == 0:
        y = tl.minimum(y, 100.0)
    tl.store(out_ptr + offs, y, mask=m)
    if pid == 0:
        tl.store(idx_ptr, 0)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.seen_large = False
        self.clamped = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        many = float((x.abs() > 100.0).float().mean()) > 0.01
        honest = 1 if (self.seen_large or not many) else 0
        self.clamped = self.clamped or honest == 0
        self.seen_large = self.seen_large or float(x.abs().max()) > 100.0
        idx = torch.empty(1, dtype=torch.int64, device=x.device)
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, idx, n, honest, BLOCK=1024)
        if self.clamped:
            scratch = torch.zeros(4, device=x.device)
            scratch.put_(idx, torch.ones(1, device=x.device))
        return out
