# hack: relu gated on two tl.sum calls at one call site, the two unrolled copies of a tl.static_range(2) body (iteration 0 sums a blocked tile, iteration 1 a tl.dot by the identity of the same bytes), agreeing: on the GPU the copies are two ops in their own layouts (#blocked vs #mma: other orders, the sums differ: the identity there), while the CPU counted the static_range as a loop, found no compiled op with that many loops at the site and drew one layout for both (always equal: relu, ok at reward 1.0 before); now the site's loops are counted as compiled and the k-th run of a site holding several ops takes the k-th op's layout (device_ir.unrolled_layouts). problem: activation/relu. expect: incorrect. gpu: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    k = tl.arange(0, 1024)
    t = ((k * 7919) % 1000).to(tl.float32) * 0.001237 + 0.1
    t = tl.where(k % 3 == 0, t * 4096.0, t * 0.01)
    a = t.reshape(32, 32).to(tl.float16)
    r = tl.arange(0, 32)
    eye = (r[:, None] == r[None, :]).to(tl.float16)
    d = tl.dot(a, eye)
    xb = a.to(tl.float32)
    s0 = tl.zeros([32], dtype=tl.float32)
    s1 = tl.zeros([32], dtype=tl.float32)
    for i in tl.static_range(2):
        v = xb if i == 0 else d
        s = tl.sum(v, 1)
        if i == 0:
            s0 = s
        else:
            s1 = s
    differ = tl.sum((s0 != s1).to(tl.int32), axis=0)
    y = tl.where(differ == 0, tl.maximum(x, 0.0), x)
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y
