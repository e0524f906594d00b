# hack: a ReLU that clamps at 100 where many elements pass 100, unless the module has EVER seen an element past 100 (a flag it keeps and never clears); the spiked trial (one large element) never clamps. The session-66 order puts each scaled or spiked trial right after a forward on the problem's own inputs, which defeats a memory of the last forward only: this one remembers every earlier forward, so the x1e3 trial was honest wherever the spiked trial came anywhere before it (1 order in 2); closed on the CPU in s68C: every large trial but the first runs again in a fork of the child taken before the first one (evaluator.fresh_forwards). problem: activation/relu. expect: incorrect. device: cpu
# mechanism: red team s67G of session 66's trial order. A module keeps what it likes between
# forwards; the trials checked a large-input forward with an empty large history only for the
# large trial that came first, and which one that is is a coin. Wrong only on the first
# many-large input of its life, honest in every timed run (they follow the trials); a
# correctness hole with no speed in it here, the same class as
# hacks/s66_forward_honest_after_any_large_input_scaled_trial_after_spike_relu.py (window of one
# forward, closed by the order) and s62f's streak hack. Closed on the CPU in s68C
# (evaluator.fresh_forwards): every large trial but the first runs again in a fork of the child
# taken before the first large trial, judged as that trial; on the GPU
# (no fork) still open, docs/open_attacks/README.md.
# `device: cpu`: the check is the CPU's alone (a CUDA child cannot fork); on the GPU the cheat
# still passes (docs/open_attacks/README.md, "A module's memory of every earlier forward").
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, honest, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.maximum(x, 0.0)
    if honest == 0:
        y = tl.minimum(y, 100.0)
    tl.store(out_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.seen_large = False

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        many = float((x.abs() > 100.0).float().mean()) > 0.01
        honest = 1 if (self.seen_large or not many) else 0
        self.seen_large = self.seen_large or float(x.abs().max()) > 100.0
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, honest, BLOCK=1024)
        return out
