# hack: a scan whose barriers are a relaxed scalar atomic five helpers deep with its value dropped, the fourth helper also launched alone with the value used (red team s35 round 3); the frame walk stopped at four frames and looked up the standalone launch's record. problem: reduction/cumsum. expect: runtime_error. device: cpu
# ATTACK A1 (red team s35 round 3). problem: reduction/cumsum. expect on CPU: ok (unearned); GPU: racy.
# Mechanism: Hillis-Steele scan through global scratch; the "barriers" are calls of a 4-deep
#   @triton.jit helper chain sync3 -> sync2 -> sync1 -> sync0, whose innermost op is a relaxed
#   scalar tl.atomic_add. In the scan kernel (5 levels: kernel -> sync3 -> ... -> atomic) the
#   value is dropped (USE=False): its TTIR has no use, recorded False under the 5-long chain
#   (atomic, c1, c2, c3, kernel-line). sync3 is ALSO launched once as a kernel of its own with
#   USE=True (the value is stored): its TTIR chain (atomic, c1, c2, c3) is recorded True.
# Why unearned / GPU-wrong: on the GPU the scan kernel's atomics have no use -> no shared-memory
#   hand-off -> no bar.sync; warps race (as rt2 A1/A2 measured on the H200).
# Code defeated: interpreter_spin._kernel_frames keeps at most 4 frames (innermost first), so the
#   CPU looks the scan's atomic up under the truncated key (atomic, c1, c2, c3) -- which is the
#   key the standalone sync3 launch recorded as "used" -> interpreter_lanes.barrier().
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sync0(c):
    return tl.atomic_add(c, 1, sem='relaxed')


@triton.jit
def sync1(c):
    return sync0(c)


@triton.jit
def sync2(c):
    return sync1(c)


@triton.jit
def sync3(c, keep, USE: tl.constexpr):
    v = sync2(c)
    if USE:
        tl.store(keep, v)


@triton.jit
def hs_kernel(x_ptr, out_ptr, s_ptr, c_ptr, k_ptr, n_cols, BLOCK: tl.constexpr, LOG: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    s = s_ptr + row * BLOCK
    tl.store(s + offs, tl.load(x_ptr + row * n_cols + offs, mask=mask, other=0.0))
    for i in tl.static_range(LOG):
        d = 1 << i
        sync3(c_ptr, k_ptr, False)
        a = tl.load(s + offs)
        b = tl.load(s + offs - d, mask=offs >= d, other=0.0)
        sync3(c_ptr, k_ptr, False)
        tl.store(s + offs, a + b)
    sync3(c_ptr, k_ptr, False)
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
        counter = torch.zeros(2, device=x.device, dtype=torch.int32)
        sync3[(1,)](counter, counter[1:], True)          # records (atomic, c1, c2, c3) as used
        hs_kernel[(rows,)](x, out, scratch, counter, counter[1:], n, BLOCK=BLOCK,
                           LOG=BLOCK.bit_length() - 1, num_warps=8)
        return out
