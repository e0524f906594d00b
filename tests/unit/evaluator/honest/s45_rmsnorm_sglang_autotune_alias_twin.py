"""RMSNorm through SGLang's autotune alias: `rmsnorm_autotune = triton.autotune(...)` at module level, applied as a function to a kernel under a new name (python/sglang/srt/layers/elementwise.py).

Source: https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/layers/elementwise.py
(`rmsnorm_autotune`, `fused_rmsnorm_kernel`, and the shape of
`fused_dual_residual_rmsnorm_kernel_autotune = rmsnorm_autotune(fused_dual_residual_rmsnorm_kernel)`).

Idioms kept: a module-level decorator object `rmsnorm_autotune = triton.autotune(configs=[
triton.Config(kwargs={...}, num_warps=..., num_stages=...)], key=["hidden_dim"])`; the plain
@triton.jit kernel and its autotuned twin `fused_rmsnorm_kernel_autotune = rmsnorm_autotune(
fused_rmsnorm_kernel)` both live (the twin wraps the same JITFunction); an `autotune=` flag picks
the twin, else SGLang's computed config dict splatted into the launch; float `eps: tl.constexpr`.

Adaptations:
1. SGLang's 35 configs start at BLOCK_SIZE 1024, which is wrong for hidden sizes above the block
   (the kernel reads one block per row; SGLang calls the twin only with autotune=True); the list
   here keeps the configs whose block covers the problem's hidden size of 4096.
2. ModelNew views (B, S, H) as (B*S, H) and takes the autotuned path.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


def is_hip() -> bool:
    return torch.version.hip is not None


_is_hip = is_hip()


rmsnorm_autotune = triton.autotune(
    configs=[
        triton.Config(kwargs={"BLOCK_SIZE": 4096}, num_warps=8),
        triton.Config(kwargs={"BLOCK_SIZE": 4096}, num_warps=16),
        triton.Config(kwargs={"BLOCK_SIZE": 4096}, num_warps=8, num_stages=1),
        triton.Config(kwargs={"BLOCK_SIZE": 4096}, num_warps=16, num_stages=4),
        triton.Config(kwargs={"BLOCK_SIZE": 8192}, num_warps=16),
        triton.Config(kwargs={"BLOCK_SIZE": 8192}, num_warps=32, num_stages=1),
    ],
    key=["hidden_dim"],
)


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


fused_rmsnorm_kernel_autotune = rmsnorm_autotune(
    fused_rmsnorm_kernel
)


def fused_rmsnorm(x, weight, eps, autotune=False, inplace=False):
    assert len(x.shape) == 2
    if inplace:
        output = x
    else:
        output = torch.empty_like(x)
    bs, hidden_dim = x.shape
    if autotune:
        fused_rmsnorm_kernel_autotune[(bs,)](
            output, x, weight, eps=eps, hidden_dim=hidden_dim
        )
        return output
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
        y = fused_rmsnorm(x.reshape(-1, shape[-1]).contiguous(), self.weight, self.eps, autotune=True)
        return y.view(shape)
