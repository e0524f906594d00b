# honest: a chunked forward that skips all-zero chunks, one bool(... .any()) read per chunk (20 chunks). problem: elementwise/axpby_fp16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def axpby_kernel(x_ptr, y_ptr, out_ptr, offset, n, alpha, beta, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = offset + pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < offset + n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    out = alpha * x + beta * y
    tl.store(out_ptr + offs, out.to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    CHUNK = 1024  # process the tensor in chunks (keeps int32 offsets small for huge tensors)

    def __init__(self, alpha: float, beta: float):
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = y.contiguous()
        out = torch.empty_like(x)
        total = x.numel()
        BLOCK = 256
        for start in range(0, total, self.CHUNK):
            n = min(self.CHUNK, total - start)
            # skip chunks that are entirely zero (sparse activations): no launch needed
            if not bool((x[start:start + n] != 0).any() | (y[start:start + n] != 0).any()):
                out[start:start + n].zero_()
                continue
            axpby_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, start, n, self.alpha, self.beta, BLOCK=BLOCK)
        return out
