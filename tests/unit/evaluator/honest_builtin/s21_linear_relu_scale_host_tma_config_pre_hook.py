# honest: linear + ReLU + scale with host TensorDescriptors whose block shapes are set per autotune config by a Config pre_hook, exactly how Triton tutorials 06 and 09 use TMA descriptors with autotuning (honest round, session 21). problem: fused/linear_relu_scale
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


def _set_block_size_hook(nargs):
    BM, BN, BK = nargs["BM"], nargs["BN"], nargs["BK"]
    nargs["x_desc"].block_shape = [BM, BK]
    nargs["w_desc"].block_shape = [BN, BK]


@triton.autotune(
    configs=[
        triton.Config({"BM": 32, "BN": 32, "BK": 32}, num_warps=4, num_stages=3, pre_hook=_set_block_size_hook),
        triton.Config({"BM": 64, "BN": 64, "BK": 32}, num_warps=8, num_stages=3, pre_hook=_set_block_size_hook),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def _linear_relu_scale_tma(x_desc, w_desc, b_ptr, y_ptr, M, N, K, scale,
                           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        a = x_desc.load([pid_m * BM, k0])
        w = w_desc.load([pid_n * BN, k0])
        acc = tl.dot(a, w.T, acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    acc = tl.maximum(acc, 0.0) * scale
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, scale: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        w = self.linear.weight
        M, K = x.shape
        N = w.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        dummy = [1, 1]  # the pre_hook sets the real block shape per config
        x_desc = TensorDescriptor.from_tensor(x, dummy)
        w_desc = TensorDescriptor.from_tensor(w, dummy)
        grid = lambda META: (triton.cdiv(M, META["BM"]), triton.cdiv(N, META["BN"]))
        _linear_relu_scale_tma[grid](x_desc, w_desc, self.linear.bias, y, M, N, K, self.scale)
        return y
