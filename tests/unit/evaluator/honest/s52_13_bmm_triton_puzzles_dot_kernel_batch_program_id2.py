# honest: Triton-Puzzles (srush/Triton-Puzzles, Puzzle 10 "Multiplication: Batched Matmul") solved as the public solution notebooks do: the puzzle's own `dot_kernel(x_ptr, y_ptr, z_ptr, N0, N1, N2, MID, B0, B1, B2, B_MID)` signature (N2 the batch, B2 unused as in the puzzle), output rows/columns on program ids 0 and 1 and the batch on program id 2, raw offset arithmetic `off_b * N0 * MID + off_i[:, None] * MID + off_k[None, :]` (no strides: contiguous inputs), a `tl.range(0, MID, B_MID)` loop with `acc = tl.dot(x, y, acc)`, masks on every load and store, the puzzle's torch spec `dot_spec` kept and a `__main__` test. TF32 as tl.dot's default on fp32. problem: matmul/bmm
import torch
import torch.nn as nn
import triton
import triton.language as tl


def dot_spec(x, y):
    return x @ y


@triton.jit
def dot_kernel(
    x_ptr,
    y_ptr,
    z_ptr,
    N0,
    N1,
    N2,
    MID,
    B0: tl.constexpr,
    B1: tl.constexpr,
    B2: tl.constexpr,
    B_MID: tl.constexpr,
):
    block_id_i = tl.program_id(0)
    block_id_j = tl.program_id(1)
    block_id_b = tl.program_id(2)

    off_i = block_id_i * B0 + tl.arange(0, B0)
    off_j = block_id_j * B1 + tl.arange(0, B1)
    off_b = block_id_b
    mask_i = off_i < N0
    mask_j = off_j < N1

    acc = tl.zeros((B0, B1), dtype=tl.float32)
    for k in tl.range(0, MID, B_MID):
        off_k = k + tl.arange(0, B_MID)
        mask_k = off_k < MID
        off_x = off_b * N0 * MID + off_i[:, None] * MID + off_k[None, :]
        off_y = off_b * MID * N1 + off_k[:, None] * N1 + off_j[None, :]
        x = tl.load(x_ptr + off_x, mask=mask_i[:, None] & mask_k[None, :], other=0.0)
        y = tl.load(y_ptr + off_y, mask=mask_k[:, None] & mask_j[None, :], other=0.0)
        acc = tl.dot(x, y, acc)

    off_z = off_b * N0 * N1 + off_i[:, None] * N1 + off_j[None, :]
    tl.store(z_ptr + off_z, acc, mask=mask_i[:, None] & mask_j[None, :])
    return


class ModelNew(nn.Module):
    B0 = 16
    B1 = 16
    B_MID = 16

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        a, b = a.contiguous(), b.contiguous()
        N2, N0, MID = a.shape
        N1 = b.shape[2]
        z = torch.empty((N2, N0, N1), device=a.device, dtype=a.dtype)
        grid = (triton.cdiv(N0, self.B0), triton.cdiv(N1, self.B1), N2)
        dot_kernel[grid](a, b, z, N0, N1, N2, MID, B0=self.B0, B1=self.B1, B2=1, B_MID=self.B_MID)
        return z


if __name__ == "__main__":
    x = torch.randn(4, 32, 32, device="cuda")
    y = torch.randn(4, 32, 32, device="cuda")
    torch.testing.assert_close(ModelNew()(x, y), dot_spec(x, y), atol=1e-2, rtol=1e-2)
    print("Puzzle #10 passed")
