# honest: row softmax whose programs take rows in an order host Python lists (even rows, then odd rows: a schedule table of ints from the row count, torch.tensor as int32, cached per shape), one program per row reading its row index from the table. problem: softmax/softmax. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_rows_kernel(x_ptr, out_ptr, order_ptr, n_cols, x_row_stride, out_row_stride,
                        BLOCK: tl.constexpr):
    row = tl.load(order_ptr + tl.program_id(0)).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def interleaved_rows(n_rows: int) -> list[int]:
    """Even rows first, then odd rows (neighbouring programs touch rows apart)."""
    return list(range(0, n_rows, 2)) + list(range(1, n_rows, 2))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._orders = {}

    def _order(self, n_rows: int, device: torch.device) -> torch.Tensor:
        key = (n_rows, str(device))
        if key not in self._orders:
            self._orders[key] = torch.tensor(interleaved_rows(n_rows), dtype=torch.int32, device=device)
        return self._orders[key]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1]).contiguous()
        out = torch.empty_like(x2)
        n_rows, n_cols = x2.shape
        order = self._order(n_rows, x2.device)
        softmax_rows_kernel[(n_rows,)](x2, out, order, n_cols, x2.stride(0), out.stride(0),
                                       BLOCK=triton.next_power_of_2(n_cols))
        return out.reshape(x.shape)
