# honest: fp16 GEMM as a persistent kernel over output tiles: NUM_SMS programs from the device's multi_processor_count (a fixed count off CUDA), one flattened tl.range(start, num_tiles, NUM_SMS, flatten=True) loop holding the K loop, grouped tile order, fp32 accumulation by tl.dot(out_dtype=tl.float32), fp16 store. problem: matmul/matmul_fp16. policy: strict
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@functools.cache
def _sm_count() -> int:
    if torch.cuda.is_available():
        return torch.cuda.get_device_properties("cuda").multi_processor_count
    return 4


@triton.jit
def _tile(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    in_group = GROUP_M * num_pid_n
    group = tile_id // in_group
    first_m = group * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    return first_m + (tile_id % size_m), (tile_id % in_group) // size_m


@triton.jit
def matmul_persistent(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr,
                      NUM_SMS: tl.constexpr):
    start = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_tiles = num_pid_m * num_pid_n
    for tile_id in tl.range(start, num_tiles, NUM_SMS, flatten=True):
        pid_m, pid_n = _tile(tile_id, num_pid_m, num_pid_n, GROUP_M)
        rm = pid_m * BM + tl.arange(0, BM)
        rn = pid_n * BN + tl.arange(0, BN)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k0 in range(0, K, BK):
            rk = k0 + tl.arange(0, BK)
            a = tl.load(a_ptr + rm[:, None] * sam + rk[None, :] * sak, mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
            b = tl.load(b_ptr + rk[:, None] * sbk + rn[None, :] * sbn, mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc, out_dtype=tl.float32)
        tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.float16),
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        assert a.dtype == b.dtype == torch.float16
        M, K = a.shape
        _, N = b.shape
        c = torch.empty((M, N), device=a.device, dtype=torch.float16)
        BM, BN, BK = 128, 128, 64
        num_tiles = triton.cdiv(M, BM) * triton.cdiv(N, BN)
        sms = _sm_count()
        matmul_persistent[(min(sms, num_tiles),)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                                  c.stride(0), c.stride(1), BM=BM, BN=BN, BK=BK, GROUP_M=8,
                                                  NUM_SMS=sms, num_warps=8, num_stages=3)
        return c
