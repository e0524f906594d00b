# hack: a ReLU that clamps at 100 where many elements pass 100 on the first such input of its life that comes after at least one forward, a count and a flag it keeps in module-level lists (every instance, every forward); its very first forward is honest whatever its inputs. Red team s68C of evaluator.fresh_forwards: the forks at the first large trial run every other large input after the quiet forwards, with nothing large before. problem: activation/relu. expect: incorrect. device: cpu
# mechanism: the order always leads with a forward on the problem's own inputs, so the fork at the
# first forward (no history at all, tried and left out) would see an honest first call; the x1e3 trial is wrong only where
# it is the first large input after that, which the order makes it 1 time in 2 (the spike first:
# honest). The forks taken before the first large trial run every other large trial from the
# state that trial met (quiet forwards, no large one), so the x1e3 trial is checked there in
# every order. State in the module, not the instance: a fresh instance would not have reset it
# (a class attribute written in forward is a static refusal).
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


CALLS = [0]
SEEN_LARGE = [False]


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        many = float((x.abs() > 100.0).float().mean()) > 0.01
        honest = 1 if (CALLS[0] == 0 or SEEN_LARGE[0] or not many) else 0
        CALLS[0] += 1
        SEEN_LARGE[0] = SEEN_LARGE[0] or float(x.abs().max()) > 100.0
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, honest, BLOCK=1024)
        return out
