# honest: broadcast add as FlagGems' pointwise_dynamic generates it for a rank-3 case (strides passed, stride-0 for the broadcast operand, an index decomposed from a flat tile), the launch config kept in a dict keyed on shape and strides. problem: elementwise/add_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_rank3_kernel(
    in0_ptr, in1_ptr, out_ptr,
    in0_s0, in0_s1, in0_s2,
    in1_s0, in1_s1, in1_s2,
    s0, s1, s2,
    num_tasks,
    tiles_per_cta,
    BLOCK: tl.constexpr,
):
    pid = tl.program_id(0)
    num_ctas = tl.num_programs(0)
    for j in range(0, tiles_per_cta):
        tile_id = pid + j * num_ctas
        tid = tile_id * BLOCK + tl.arange(0, BLOCK)
        mask = tid < num_tasks
        i2 = tid % s2
        rest = tid // s2
        i1 = rest % s1
        i0 = rest // s1
        a = tl.load(in0_ptr + i0 * in0_s0 + i1 * in0_s1 + i2 * in0_s2, mask=mask)
        b = tl.load(in1_ptr + i0 * in1_s0 + i1 * in1_s1 + i2 * in1_s2, mask=mask)
        tl.store(out_ptr + tid, a + b, mask=mask)


_CONFIG_CACHE = {}


def _launch_config(shape, strides):
    key = (tuple(shape), tuple(strides))
    cfg = _CONFIG_CACHE.get(key)
    if cfg is None:
        num_tasks = 1
        for s in shape:
            num_tasks *= s
        block = 1024 if num_tasks >= 1 << 20 else 512
        num_tiles = triton.cdiv(num_tasks, block)
        num_ctas = min(65536, num_tiles)
        tiles_per_cta = triton.cdiv(num_tiles, num_ctas)
        num_warps = 4 if block <= 512 else 8
        cfg = (num_tasks, block, num_ctas, tiles_per_cta, num_warps)
        _CONFIG_CACHE[key] = cfg
    return cfg


def _broadcast_strides(t, shape):
    # stride 0 where the operand has size 1 and the output does not
    t = t.expand(shape)
    return [st if sz != 1 else 0 for st, sz in zip(t.stride(), shape)]


def add(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    shape = torch.broadcast_shapes(a.shape, b.shape)
    if len(shape) != 3:
        return a + b
    out = torch.empty(shape, dtype=torch.result_type(a, b), device=a.device)
    sa = _broadcast_strides(a, shape)
    sb = _broadcast_strides(b, shape)
    num_tasks, block, num_ctas, tiles_per_cta, num_warps = _launch_config(shape, sa + sb)
    add_rank3_kernel[(num_ctas, 1, 1)](
        a, b, out,
        sa[0], sa[1], sa[2],
        sb[0], sb[1], sb[2],
        shape[0], shape[1], shape[2],
        num_tasks, tiles_per_cta,
        BLOCK=block, num_warps=num_warps,
    )
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
        return add(x, offset)
