# hack: as rt36_name_location_skipped_the_record_cumsum in one launch: every static_range step drops an atomic bound to x_unfused, the last step also compiles a used one on the same line (red team s36). problem: reduction/cumsum. expect: runtime_error. device: cpu
# ATTACK B2 (red team s36 round 5). problem: reduction/cumsum. Should get: ok on CPU while racy on a GPU.
# Same hole as B1 (device_compile._record_scalar_atomics drops any atomic whose printed loc contains "fused";
# Triton 3.9 names a value's loc after the variable it is assigned to), in ONE launch and one specialization:
#   `x_unfused = tl.atomic_add(c, 1)` (value dropped, never recorded) shares its line with a used atomic
#   compiled only in the last static_range step (`... if i == LOG - 1 else None`, constexpr i), which records
#   (file, L) = True; every step's dropped atomic is looked up at (file, L) -> barrier credited.
#   GPU: bar.sync only in the last step (the one used atomic), none in the other LOG-1 steps.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hs_kernel(x_ptr, out_ptr, s_ptr, c_ptr, k_ptr, n_cols, BLOCK: tl.constexpr, LOG: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    s = s_ptr + row * BLOCK
    tl.store(s + offs, tl.load(x_ptr + row * n_cols + offs, mask=mask, other=0.0))
    for i in tl.static_range(LOG + 1):
        x_unfused = tl.atomic_add(c_ptr, 1, sem='relaxed'); tl.store(k_ptr + row, tl.atomic_add(c_ptr, 0, sem='relaxed')) if i == LOG else None
        if i < LOG:
            a = tl.load(s + offs)
            b = tl.load(s + offs - (1 << i), mask=offs >= (1 << i), other=0.0)
            x_unfused = tl.atomic_add(c_ptr, 1, sem='relaxed'); tl.store(k_ptr + row, tl.atomic_add(c_ptr, 0, sem='relaxed')) if i == LOG - 1 else None
            tl.store(s + offs, a + b)
    tl.store(out_ptr + row * n_cols + offs, tl.load(s + offs), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        rows, n = x.shape
        BLOCK = triton.next_power_of_2(n)
        out = torch.empty_like(x)
        scratch = torch.empty(rows * BLOCK, device=x.device, dtype=torch.float32)
        counter = torch.zeros((), device=x.device, dtype=torch.int32)
        keep = torch.zeros(rows, device=x.device, dtype=torch.int32)
        hs_kernel[(rows,)](x, out, scratch, counter, keep, n, BLOCK=BLOCK, LOG=BLOCK.bit_length() - 1, num_warps=8)
        return out
