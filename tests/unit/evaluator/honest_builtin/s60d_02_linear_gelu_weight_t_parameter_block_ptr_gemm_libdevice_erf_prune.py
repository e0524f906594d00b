# honest: linear + exact GELU where __init__ re-lays nn.Linear's weight out as a (K, N) nn.Parameter W^T (and keeps the bias), a make_block_ptr/tl.advance GEMM autotuned on key ['M', 'N', 'K'] with prune_configs_by early_config_prune, the erf epilogue through libdevice imported by a try chain. problem: matmul/linear_gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl

try:
    from triton.language.extra import libdevice
except ImportError:  # older Triton
    try:
        from triton.language.extra.cuda import libdevice
    except ImportError:
        from triton.language.math import libdevice  # type: ignore


def _configs():
    out = []
    for bm in (32, 64, 128):
        for bn in (32, 64, 128):
            for bk in (32, 64):
                out.append(triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk},
                                         num_warps=4 if bm * bn <= 4096 else 8, num_stages=3))
    return out


def early_config_prune(configs, named_args, **kwargs):
    m, n = named_args["M"], named_args["N"]
    kept = [c for c in configs
            if c.kwargs["BLOCK_M"] <= max(32, triton.next_power_of_2(m))
            and c.kwargs["BLOCK_N"] <= max(32, triton.next_power_of_2(n))]
    return kept or configs[:1]


@triton.autotune(configs=_configs(), key=["M", "N", "K"],
                 prune_configs_by={"early_config_prune": early_config_prune})
@triton.jit
def linear_gelu_kernel(a_ptr, wt_ptr, bias_ptr, c_ptr, M, N, K,
                       stride_am, stride_ak, stride_wk, stride_wn, stride_cm, stride_cn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_blk = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, stride_ak),
                              offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    w_blk = tl.make_block_ptr(base=wt_ptr, shape=(K, N), strides=(stride_wk, stride_wn),
                              offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_blk, boundary_check=(0, 1), padding_option="zero")
        w = tl.load(w_blk, boundary_check=(0, 1), padding_option="zero")
        acc += tl.dot(a, w, input_precision="ieee")
        a_blk = tl.advance(a_blk, (0, BLOCK_K))
        w_blk = tl.advance(w_blk, (BLOCK_K, 0))
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0)
    acc = acc + bias[None, :]
    out = 0.5 * acc * (1.0 + libdevice.erf(acc * 0.7071067811865476))
    c_blk = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, stride_cn),
                              offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N),
                              order=(1, 0))
    tl.store(c_blk, out.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        lin = nn.Linear(in_features, out_features)
        # K-major copy of the weight, laid out once: the kernel streams rows of W^T
        self.weight_t = nn.Parameter(lin.weight.detach().t().contiguous())
        self.bias = nn.Parameter(lin.bias.detach().clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        M, K = x.shape
        N = self.weight_t.shape[1]
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]), triton.cdiv(N, META["BLOCK_N"]))
        linear_gelu_kernel[grid](x, self.weight_t, self.bias, out, M, N, K,
                                 x.stride(0), x.stride(1), self.weight_t.stride(0), self.weight_t.stride(1),
                                 out.stride(0), out.stride(1))
        return out
