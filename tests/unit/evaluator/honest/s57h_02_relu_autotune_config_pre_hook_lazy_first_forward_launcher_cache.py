# honest: an autotuned relu whose configs carry a pre_hook (clears the output), a kernel table built lazily on the first forward (a torch.tensor of thresholds), and a module-level cache of the compiled launch per dtype. problem: activation/relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _clear(nargs):
    nargs["out_ptr"].zero_()


@triton.autotune(
    configs=[triton.Config({"BLOCK": 256}, num_warps=4, pre_hook=_clear),
             triton.Config({"BLOCK": 1024}, num_warps=8, pre_hook=_clear)],
    key=["n"],
)
@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


_LAUNCHERS: dict = {}


def _launcher(dtype):
    fn = _LAUNCHERS.get(dtype)
    if fn is None:
        def fn(x, out, n):
            relu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)
        _LAUNCHERS[dtype] = fn
    return fn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._ready = False

    def _lazy_init(self, x):
        self.zero = torch.zeros((), dtype=x.dtype, device=x.device)
        self._ready = True

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self._ready:
            self._lazy_init(x)
        x = x.contiguous()
        out = torch.empty_like(x)
        _launcher(x.dtype)(x, out, x.numel())
        return out
