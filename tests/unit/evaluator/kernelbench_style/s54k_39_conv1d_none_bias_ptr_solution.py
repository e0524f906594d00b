# An honest Triton ModelNew for KernelBench level1/67_conv_standard_1D: an optional bias passed as None (Triton specialises a None pointer argument to a constexpr, tested with `if b_ptr is not None:` in the kernel), the weight read through .detach(), loads with eviction_policy="evict_last" (weights) and cache_modifier=".cg" (activations), tl.fma accumulation, output positions as the inner tile dimension.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def conv1d_fma_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C_in, L_in, C_out, L_out,
                      KSIZE: tl.constexpr, BLOCK_OC: tl.constexpr, BLOCK_L: tl.constexpr):
    n = tl.program_id(0)
    oc = tl.program_id(1) * BLOCK_OC + tl.arange(0, BLOCK_OC)
    ol = tl.program_id(2) * BLOCK_L + tl.arange(0, BLOCK_L)
    ocm = oc < C_out
    olm = ol < L_out
    acc = tl.zeros((BLOCK_OC, BLOCK_L), tl.float32)
    for ic in range(C_in):
        for k in tl.static_range(KSIZE):
            xv = tl.load(x_ptr + (n * C_in + ic) * L_in + ol + k, mask=olm & (ol + k < L_in), other=0.0,
                         cache_modifier=".cg")
            wv = tl.load(w_ptr + (oc * C_in + ic) * KSIZE + k, mask=ocm, other=0.0, eviction_policy="evict_last")
            acc = tl.fma(wv[:, None], xv[None, :], acc)
    if b_ptr is not None:
        acc += tl.load(b_ptr + oc, mask=ocm, other=0.0)[:, None]
    tl.store(y_ptr + (n * C_out + oc[:, None]) * L_out + ol[None, :], acc, mask=ocm[:, None] & olm[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, padding: int = 0,
                 dilation: int = 1, groups: int = 1, bias: bool = False):
        super(ModelNew, self).__init__()
        assert stride == 1 and padding == 0 and dilation == 1 and groups == 1
        self.conv1d = nn.Conv1d(in_channels, out_channels, kernel_size, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        w = self.conv1d.weight.detach().contiguous()
        b = self.conv1d.bias.detach() if self.conv1d.bias is not None else None
        N, C_in, L_in = x.shape
        C_out, _, K = w.shape
        L_out = L_in - K + 1
        y = torch.empty((N, C_out, L_out), device=x.device, dtype=x.dtype)
        grid = (N, triton.cdiv(C_out, 16), triton.cdiv(L_out, 64))
        conv1d_fma_kernel[grid](x, w, b, y, C_in, L_in, C_out, L_out, KSIZE=K, BLOCK_OC=16, BLOCK_L=64)
        return y
