# honest: ROCm/aiter (aiter/ops/triton/_triton_kernels/gated_delta_rule/utils/l2norm.py @ e404860, adapted there from flash-linear-attention) forward verbatim: l2norm_fwd_kernel1 (one row per program, D > 512) and l2norm_fwd_kernel (BT rows per program, D <= 512, `tl.sum(tl.where(xmask, x * x, 0.0), axis=1)`), b_rstd = tl.rsqrt(sum + eps), STORE_RSTD a constexpr guarding the rstd store, with the output y handed again as the Rstd placeholder pointer when need_rstd is False ("reusing y avoids even a 1-elem allocation"), `Y.dtype.element_ty`, BT/num_warps from module constants, a keyword-only need_rstd, `y.view(x_shape_og), None` returned; eps 1e-6 inside the root where F.normalize clamps the norm at 1e-12: a different function at small norms, which the scale:1e-3 trial sees at dim 300 (relative error about eps / (2 * sum of squares) = 1.7e-3, incorrect, fairly) and not at the CPU's dim 1500 or the GPU's 8192. Dropped: the backward kernels and their autotune lists (they need the module's IS_AMD and autotune_cache_kwargs). problem: norm/l2_normalize
import torch
import triton
import triton.language as tl
from torch import nn



# Default forward-kernel tile config (MBLOCK=32, num_warps=4): a robust
# choice across the supported head dimensions D in {64, 128, 256, 512}.
_L2NORM_FWD_BT = 32
_L2NORM_FWD_NUM_WARPS = 4


@triton.jit
def l2norm_fwd_kernel1(
    X,
    Y,
    Rstd,
    eps,
    D,
    BD: tl.constexpr,
    STORE_RSTD: tl.constexpr,
):
    """L2 normalize per row, D > 512 (one row per program; no autotune --
    the kernel is too simple to benefit from config sweep, and the host
    dispatch overhead matters here).

    ``STORE_RSTD`` is a compile-time flag: when False the rstd store is
    dead-code-eliminated and the caller may pass any placeholder tensor
    as ``Rstd``.
    """
    i_t = tl.program_id(0)
    X += i_t * D
    Y += i_t * D
    cols = tl.arange(0, BD)
    mask = cols < D
    b_x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
    b_rstd = tl.rsqrt(tl.sum(b_x * b_x) + eps)
    b_y = b_x * b_rstd
    tl.store(Y + cols, b_y.to(Y.dtype.element_ty), mask=mask)
    if STORE_RSTD:
        tl.store(Rstd + i_t, b_rstd)



@triton.jit
def l2norm_fwd_kernel(
    X,
    Y,
    Rstd,
    eps,
    T,
    D: tl.constexpr,
    BD: tl.constexpr,
    BT: tl.constexpr,
    STORE_RSTD: tl.constexpr,
):
    """L2 normalize per row, D <= 512 (``BT`` rows per program).

    Uses direct pointer arithmetic instead of ``tl.make_block_ptr`` because
    on small kernels the block_ptr codegen prologue adds non-trivial
    overhead. ``STORE_RSTD`` is a
    compile-time flag: when False the rstd store is DCE-eliminated and
    the caller may pass any tensor as the ``Rstd`` argument.

    ``BT`` and ``num_warps`` are fixed at the call site (defaults
    ``_L2NORM_FWD_BT=32`` / ``_L2NORM_FWD_NUM_WARPS=4``) rather than
    autotuned: the autotune dispatch + per-NB specialization overhead
    outweighs any tile-size gains for this small kernel.
    """
    xoffset = tl.program_id(0) * BT
    row_idx = xoffset + tl.arange(0, BT)[:, None]
    xmask = row_idx < T
    col_idx = tl.arange(0, BD)[None, :]
    cmask = col_idx < D
    mask = xmask & cmask
    x = tl.load(X + col_idx + D * row_idx, mask=mask, other=0.0).to(tl.float32)
    sumsq = tl.sum(tl.where(xmask, x * x, 0.0), axis=1)
    rstd = tl.rsqrt(sumsq + eps)
    y = x * rstd[:, None]
    tl.store(Y + col_idx + D * row_idx, y.to(Y.dtype.element_ty), mask=mask)
    if STORE_RSTD:
        row1d = xoffset + tl.arange(0, BT)
        tl.store(Rstd + row1d, rstd, mask=row1d < T)



def l2norm_fwd(
    x: torch.Tensor,
    eps: float = 1e-6,
    output_dtype: torch.dtype | None = None,
    *,
    need_rstd: bool = False,
):
    """
    Forward pass for L2 normalization.

    Args:
        x: Input tensor of shape ``[..., D]``.
        eps: Numerical-stability constant. Default ``1e-6``.
        output_dtype: Output dtype. ``None`` (default) keeps input dtype.
        need_rstd: If ``True``, also allocate and return the per-row
            reciprocal-std tensor required by ``l2norm_bwd`` for the
            autograd backward path. If ``False`` (default), both the
            rstd allocation and the in-kernel rstd write are skipped.
            ``L2NormFunction.forward`` passes
            ``need_rstd=True`` so autograd users get the correct
            behavior automatically; pure forward inference call sites
            should keep the default.

    Returns:
        ``(y, rstd)`` where ``rstd`` is the per-row reciprocal std when
        ``need_rstd=True`` and ``None`` otherwise.

    .. note::
        The default value of ``need_rstd`` is ``False``. Code that
        previously consumed ``rstd`` directly via ``y, rstd =
        l2norm_fwd(x)`` must now opt in with ``need_rstd=True``, or use
        the higher-level ``l2norm`` / ``L2NormFunction.apply`` wrappers
        which already pass the right flag.
    """
    x_shape_og = x.shape
    x = x.view(-1, x.shape[-1])
    if output_dtype is None:
        y = torch.empty_like(x)
    else:
        y = torch.empty_like(x, dtype=output_dtype)
    assert y.stride(-1) == 1
    T, D = x.shape[0], x.shape[-1]
    MAX_FUSED_SIZE = 65536 // x.element_size()
    BD = min(MAX_FUSED_SIZE, triton.next_power_of_2(D))
    if D > BD:
        raise RuntimeError("This layer doesn't support feature dim >= 64KB.")

    if need_rstd:
        rstd = torch.empty((T,), dtype=torch.float32, device=x.device)
    else:
        # Placeholder pointer. ``STORE_RSTD=False`` makes the kernel
        # never dereference it, so reusing ``y`` avoids even a 1-elem
        # allocation. (Any in-bounds tensor would work; ``y`` is handy.)
        rstd = y

    if D <= 512:
        BT = _L2NORM_FWD_BT
        l2norm_fwd_kernel[(triton.cdiv(T, BT),)](
            x,
            y,
            rstd,
            eps,
            T,
            D,
            BD,
            BT,
            STORE_RSTD=need_rstd,
            num_warps=_L2NORM_FWD_NUM_WARPS,
        )
    else:
        l2norm_fwd_kernel1[(T,)](
            x,
            y,
            rstd,
            eps,
            D,
            BD,
            STORE_RSTD=need_rstd,
        )

    if need_rstd:
        return y.view(x_shape_og), rstd.view(x_shape_og[:-1])
    return y.view(x_shape_og), None



class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y, _ = l2norm_fwd(x.contiguous())
        return y
