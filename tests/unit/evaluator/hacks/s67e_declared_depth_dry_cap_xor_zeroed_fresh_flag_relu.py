# hack: s66c's capped ReLU grid (cdiv(n, 1024) one-block programs) whose store mask is offs < n and ((pid < 4096) xor (flag != 0)), the flag a torch.empty int32 zeroed by the host (`zero_()`): every lane's mask the data decides, and fresh memory is never read by the dry model's real forward (evaluator.dry_values), so until a whole fill counted the flag set again it stayed the data's at both sizes and nothing was judged; on the GPU only the first 4096 programs store. krl check --device cpu, CPU (Triton interpreter): ok at 1.0028 on main 76f119dc; incorrect on s67E (4194304 of 33554432 outputs stored at 4096 x 8192, the dry phase 394 s on a box at load ~18). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

CAP = 4096


@triton.jit
def relu_kernel(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr, CAP: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    flag = tl.load(flag_ptr + offs * 0)
    keep = (offs * 0 + pid < CAP) ^ (flag != 0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=(offs < n) & keep)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        flag = torch.empty(1, dtype=torch.int32, device=x.device)
        flag.zero_()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, flag, n, BLOCK=1024, CAP=CAP)
        return y
