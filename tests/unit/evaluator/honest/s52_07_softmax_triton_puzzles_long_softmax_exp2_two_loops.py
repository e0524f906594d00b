# honest: Triton-Puzzles (srush/Triton-Puzzles, Puzzle 8 "Long Softmax") solved the way the public solution notebooks solve it (2-loop version, e.g. gxinlong/Triton-Puzzles-Lite-solution puzzles.py): the puzzle's own signature `softmax_kernel(x_ptr, z_ptr, N0, N1, T, B0: tl.constexpr, B1: tl.constexpr)` with N1 unused, `log2_e = 1.44269504` and tl.exp2(log2_e * ...) for exp as the puzzle asks, B0 rows per program over `tl.range(0, T, B1)` column blocks, a running max and rescaled exp-sum (`exp_sum * factor + tl.sum(...)`), offsets `off_i[:, None] * T + off_j[None, :]`, `return` at the end of the kernel, the puzzle's torch spec kept as the CPU check (`softmax_spec`) and a `__main__` test block. Adapted: the loads get other=-inf (the notebooks' unfilled masked lanes add exp(0 - max) to the sum for a ragged last block). problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


def softmax_spec(x):
    x_max = x.max(1, keepdim=True)[0]
    x = x - x_max
    x_exp = x.exp()
    return x_exp / x_exp.sum(1, keepdim=True)


@triton.jit
def softmax_kernel(x_ptr, z_ptr, N0, N1, T, B0: tl.constexpr, B1: tl.constexpr):
    """2 loops ver."""
    block_id_i = tl.program_id(0)
    log2_e = 1.44269504
    off_i = block_id_i * B0 + tl.arange(0, B0)
    mask_i = off_i < N0

    exp_sum = tl.zeros([B0], dtype=tl.float32)
    x_max = tl.full([B0], -float("inf"), dtype=tl.float32)

    for id_j in tl.range(0, T, B1):
        off_j = id_j + tl.arange(0, B1)
        off_ij = off_i[:, None] * T + off_j[None, :]
        mask_j = off_j < T
        mask_ij = mask_i[:, None] & mask_j[None, :]
        x = tl.load(x_ptr + off_ij, mask=mask_ij, other=-float("inf"))

        new_x_max = tl.maximum(x_max, tl.max(x, axis=1))
        new_exp_x = tl.exp2(log2_e * (x - new_x_max[:, None]))
        factor = tl.exp2(log2_e * (x_max - new_x_max))
        exp_sum = exp_sum * factor + tl.sum(new_exp_x, axis=1)
        x_max = new_x_max

    for id_j in tl.range(0, T, B1):
        off_j = id_j + tl.arange(0, B1)
        off_ij = off_i[:, None] * T + off_j[None, :]
        mask_j = off_j < T
        mask_ij = mask_i[:, None] & mask_j[None, :]
        x = tl.load(x_ptr + off_ij, mask=mask_ij, other=-float("inf"))
        exp_x = tl.exp2(log2_e * (x - x_max[:, None]))
        z = exp_x / exp_sum[:, None]
        tl.store(z_ptr + off_ij, z, mask=mask_ij)
    return


class ModelNew(nn.Module):
    B0 = 1
    B1 = 32

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N0, T = x.shape
        z = torch.empty_like(x)
        softmax_kernel[(triton.cdiv(N0, self.B0),)](x, z, N0, T, T, B0=self.B0, B1=self.B1)
        return z


if __name__ == "__main__":
    x = torch.randn(4, 200, device="cuda")
    torch.testing.assert_close(ModelNew()(x), softmax_spec(x))
    print("Puzzle #8 passed")
