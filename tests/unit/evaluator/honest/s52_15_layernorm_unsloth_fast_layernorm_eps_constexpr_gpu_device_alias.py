# honest: unsloth's Fast_Layernorm (unslothai/unsloth unsloth/kernels/layernorm.py @ 0050c73, calculate_settings / torch_gpu_device from unsloth/kernels/utils.py): `layernorm_forward` with n_cols and eps as tl.constexpr (a float constexpr), `eps_f32 = tl.full((), eps, tl.float32)` for HIP's type promotion, tl.math.rsqrt, masked `XX = tl.where(mask, X_row - mean_X, 0)` centring, pointer bumps `r += row_idx` / `mu += row_idx` and scalar stores of the row's statistics, `with torch_gpu_device(device):` around the launch where torch_gpu_device is bound at import by device count (`torch_gpu_device = torch.cuda.device` with several GPUs, else a def returning contextlib.nullcontext()), `fast_layernorm(layernorm, X)` reading the nn.LayerNorm's weight, bias and eps (`layernorm.variance_epsilon if hasattr(layernorm, "variance_epsilon") else layernorm.eps`), num_warps from calculate_settings. problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_FUSED_SIZE: int = 65536
next_power_of_2 = triton.next_power_of_2

DEVICE_TYPE = "cuda"
DEVICE_COUNT = torch.cuda.device_count()


def calculate_settings(n: int) -> (int, int):
    BLOCK_SIZE: int = next_power_of_2(n)
    if BLOCK_SIZE > MAX_FUSED_SIZE:
        raise RuntimeError(
            f"Cannot launch Triton kernel since n = {n} exceeds "
            f"the maximum CUDA blocksize = {MAX_FUSED_SIZE}."
        )
    num_warps: int = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


# This allows multi-GPU setups to run kernels on the tensor's own device
if DEVICE_COUNT > 1:
    torch_gpu_device = torch.cuda.device
else:
    from contextlib import nullcontext

    def torch_gpu_device(device):
        return nullcontext()


@triton.jit
def layernorm_forward(
    Y,
    Y_row_stride,
    X,
    X_row_stride,
    W,
    b,
    r,
    mu,
    n_cols: tl.constexpr,
    eps: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols

    Y += row_idx * Y_row_stride
    X += row_idx * X_row_stride
    r += row_idx
    mu += row_idx

    # torchtune Fp32LayerNorm: all modules are float32
    # https://pytorch.org/torchtune/stable/_modules/torchtune/modules/layer_norm.html#Fp32LayerNorm
    X_row = tl.load(X + col_offsets, mask = mask, other = 0).to(tl.float32)
    W_row = tl.load(W + col_offsets, mask = mask, other = 0).to(tl.float32)
    b_row = tl.load(b + col_offsets, mask = mask, other = 0).to(tl.float32)

    mean_X = tl.sum(X_row, axis = 0) / n_cols
    # Mask out masked positions, where (X - mean) collapses to -mean
    XX = tl.where(mask, X_row - mean_X, 0)
    row_var = tl.sum(XX * XX, axis = 0) / n_cols
    # Explicit float32 scalar for correct type promotion on HIP/ROCm
    eps_f32 = tl.full((), eps, tl.float32)
    inv_var = tl.math.rsqrt(row_var + eps_f32)
    tl.store(r, inv_var)
    tl.store(mu, mean_X)
    output = (XX * inv_var) * W_row + b_row
    tl.store(Y + col_offsets, output, mask = mask)


class Fast_Layernorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, W, b, eps):
        shape = X.shape
        dim = shape[-1]
        X = X.view(-1, dim)
        n_rows, n_cols = X.shape
        BLOCK_SIZE, num_warps = calculate_settings(n_cols)
        device = X.device
        Y = torch.empty((n_rows, n_cols), dtype = X.dtype, device = device)
        r = torch.empty(n_rows, dtype = torch.float32, device = device)
        mu = torch.empty(n_rows, dtype = torch.float32, device = device)

        with torch_gpu_device(device):
            layernorm_forward[(n_rows,)](
                Y,
                Y.stride(0),
                X,
                X.stride(0),
                W,
                b,
                r,
                mu,
                n_cols,
                eps,
                BLOCK_SIZE = BLOCK_SIZE,
                num_warps = num_warps,
            )
        ctx.eps = eps
        ctx.BLOCK_SIZE = BLOCK_SIZE
        ctx.num_warps = num_warps
        ctx.save_for_backward(X, W, b, r, mu)
        return Y.view(*shape)


def fast_layernorm(layernorm, X):
    assert layernorm.elementwise_affine is True
    W = layernorm.weight
    bias = layernorm.bias
    eps = layernorm.variance_epsilon if hasattr(layernorm, "variance_epsilon") else layernorm.eps
    out = Fast_Layernorm.apply(X, W, bias, eps)
    return out


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():  # a non-trivial affine transform
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return fast_layernorm(self.norm, x)
