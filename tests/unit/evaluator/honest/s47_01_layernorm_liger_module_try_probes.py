# Liger-Kernel-style LayerNorm with the import-time probes public files wrap in a module-level try:
# device capability, an environment override parsed with int(), a libdevice import fallback,
# torch.finfo, the Triton version parsed into a tuple, torch.device("cuda") (honest round s47:
# each call but the capability query was refused as a switch of the try's handler)
import math
import os

import torch
import torch.nn as nn
import triton
import triton.language as tl
from packaging.version import Version

try:
    _CAP = torch.cuda.get_device_capability()
    IS_HOPPER = _CAP[0] >= 9
except Exception:
    IS_HOPPER = False

try:
    MAX_FUSED_SIZE = int(os.getenv("LIGER_LN_MAX_FUSED_SIZE", "65536"))
except ValueError:
    MAX_FUSED_SIZE = 65536

try:
    from triton.language.extra import libdevice
except ImportError:
    from triton.language.extra.cuda import libdevice

try:
    FP32_EPS = torch.finfo(torch.float32).eps
    TRITON_VERSION = tuple(int(p) for p in triton.__version__.split(".")[:2])
    HAS_NEW_TRITON = Version(triton.__version__) >= Version("3.0.0")
    DEVICE = torch.device("cuda")
except (ValueError, TypeError):
    FP32_EPS = 1.1920928955078125e-07
    TRITON_VERSION = (3, 0)
    HAS_NEW_TRITON = True
    DEVICE = None


@triton.jit
def _layer_norm_forward_kernel(Y_ptr, Y_row_stride, X_ptr, X_row_stride, W_ptr, B_ptr,
                               n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0).to(tl.int64)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    X_row = tl.load(X_ptr + row_idx * X_row_stride + col_offsets, mask=mask, other=0.0).to(tl.float32)
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0.0).to(tl.float32)
    B_row = tl.load(B_ptr + col_offsets, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(X_row, axis=0) / n_cols
    Xmm = tl.where(mask, X_row - mean, 0.0)
    var = tl.sum(Xmm * Xmm, axis=0) / n_cols
    rstd = libdevice.rsqrt(var + eps)
    Y_row = Xmm * rstd * W_row + B_row
    tl.store(Y_ptr + row_idx * Y_row_stride + col_offsets, Y_row.to(Y_ptr.dtype.element_ty), mask=mask)


def calculate_settings(n):
    BLOCK_SIZE = triton.next_power_of_2(n)
    if BLOCK_SIZE > MAX_FUSED_SIZE:
        raise RuntimeError(f"Cannot launch Triton kernel since n = {n} exceeds the maximum {MAX_FUSED_SIZE}.")
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32 if IS_HOPPER else 16
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


def layer_norm_forward(X, W, B, eps):
    shape = X.shape
    dim = shape[-1]
    X = X.view(-1, dim)
    n_rows, n_cols = X.shape
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    Y = torch.empty((n_rows, n_cols), dtype=X.dtype, device=X.device)
    _layer_norm_forward_kernel[(n_rows,)](Y, Y.stride(0), X, X.stride(0), W, B, n_cols, eps,
                                          BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return Y.view(*shape)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)
        self.eps = max(self.norm.eps, FP32_EPS)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layer_norm_forward(x.contiguous(), self.norm.weight, self.norm.bias, self.eps)
