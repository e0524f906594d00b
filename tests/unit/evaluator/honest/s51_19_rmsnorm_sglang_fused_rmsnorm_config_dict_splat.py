# honest: SGLang's fused_rmsnorm (python/sglang/srt/layers/elementwise.py): eps and hidden_dim as tl.constexpr (a float constexpr), pid widened with .to(tl.int64), the store's implicit cast to the output dtype, launch settings in a `config` dict ({"BLOCK_SIZE": ..., "num_warps": max(min(next_power_of_2(cdiv(hidden_dim, 256)), max_warps), 4)}) splatted into the launch as **config, `max_warps = 16 if _is_hip else 32` from a module-level `_is_hip = is_hip()` (torch.version.hip), the inplace=False flag choosing the output. problem: norm/rmsnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


def is_hip() -> bool:
    return torch.version.hip is not None


_is_hip = is_hip()


@triton.jit
def fused_rmsnorm_kernel(
    output_ptr,
    activ_ptr,
    weight_ptr,
    eps: tl.constexpr,
    hidden_dim: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(axis=0).to(tl.int64)
    input_start = pid * hidden_dim

    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < hidden_dim

    a_ = tl.load(activ_ptr + input_start + offsets, mask=mask, other=0.0)
    a = a_.to(tl.float32)
    rms = tl.sqrt(tl.sum(a * a, axis=0) / hidden_dim + eps)

    w1_ = tl.load(weight_ptr + offsets, mask=mask, other=0.0)
    w1 = w1_.to(tl.float32)

    a_rms = a / rms * w1

    tl.store(
        output_ptr + input_start + offsets,
        a_rms,  # implicitly casts to output dtype here
        mask=mask,
    )


def fused_rmsnorm(x, weight, eps, autotune=False, inplace=False):
    assert len(x.shape) == 2
    if inplace:
        output = x
    else:
        output = torch.empty_like(x)
    bs, hidden_dim = x.shape
    max_warps = 16 if _is_hip else 32
    config = {
        "BLOCK_SIZE": triton.next_power_of_2(hidden_dim),
        "num_warps": max(
            min(triton.next_power_of_2(triton.cdiv(hidden_dim, 256)), max_warps), 4
        ),
    }

    fused_rmsnorm_kernel[(bs,)](
        output, x, weight, eps=eps, hidden_dim=hidden_dim, **config
    )
    return output


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        y = fused_rmsnorm(x.reshape(-1, shape[-1]).contiguous(), self.weight, self.eps)
        return y.view(shape)
