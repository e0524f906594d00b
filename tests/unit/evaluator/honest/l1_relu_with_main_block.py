import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y


if __name__ == "__main__":
    torch.manual_seed(0)
    x = torch.randn(4096, 8192, device="cuda")
    model = ModelNew().cuda()
    out = model(x)
    ref = torch.relu(x)
    print("max abs diff:", (out - ref).abs().max().item())
    assert torch.allclose(out, ref, atol=1e-5, rtol=1e-5)
    ms = triton.testing.do_bench(lambda: model(x))
    print(f"triton relu: {ms:.3f} ms")
