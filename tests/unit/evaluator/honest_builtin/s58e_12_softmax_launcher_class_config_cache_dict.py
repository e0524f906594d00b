# honest: row softmax launched through a Python launcher class that keeps a dict from (n_cols, dtype) to the chosen (BLOCK_SIZE, num_warps), filled on first use, the kernel reading each row once (BLOCK_SIZE = next power of two of the row), the launcher a module-level singleton. problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_row_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)


class SoftmaxLauncher:
    def __init__(self):
        self._configs = {}

    def _config(self, n_cols, dtype):
        key = (n_cols, dtype)
        cfg = self._configs.get(key)
        if cfg is None:
            block = triton.next_power_of_2(n_cols)
            warps = 4 if block < 2048 else (8 if block < 8192 else 16)
            cfg = self._configs[key] = (block, warps)
        return cfg

    def __call__(self, x):
        shape = x.shape
        x2 = x.reshape(-1, shape[-1])
        out = torch.empty_like(x2)
        block, warps = self._config(x2.shape[1], x2.dtype)
        softmax_row_kernel[(x2.shape[0],)](out, x2, x2.stride(0), out.stride(0), x2.shape[1],
                                           BLOCK_SIZE=block, num_warps=warps)
        return out.view(shape)


_softmax = SoftmaxLauncher()


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()

    def forward(self, x):
        return _softmax(x)
