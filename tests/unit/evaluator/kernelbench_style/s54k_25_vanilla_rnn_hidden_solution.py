# An honest Triton ModelNew for KernelBench level3/34_VanillaRNNHidden: the time loop stays in Python; per step one Triton kernel computes the new hidden state tanh([x_t, h] @ W_i2h.T + b) without the torch.cat, as two K segments over the split weight (columns [0, input_size) and [input_size, input_size + hidden)), and a second computes h2o's output straight into the preallocated (seq, batch, out) result; ping-pong hidden buffers; tanh as 2 * sigmoid(2x) - 1.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rnn_cell_kernel(x_ptr, h_ptr, w_ptr, b_ptr, h_out_ptr, B, I, H,
                    stride_xb, stride_hb, stride_wn, stride_hob,
                    BLOCK_B: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_b = tl.program_id(0)
    pid_h = tl.program_id(1)
    rb = pid_b * BLOCK_B + tl.arange(0, BLOCK_B)
    rh = pid_h * BLOCK_H + tl.arange(0, BLOCK_H)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_B, BLOCK_H), tl.float32)
    for k0 in range(0, I, BLOCK_K):
        kk = k0 + rk
        a = tl.load(x_ptr + rb[:, None] * stride_xb + kk[None, :], mask=(rb[:, None] < B) & (kk[None, :] < I), other=0.0)
        w = tl.load(w_ptr + rh[None, :] * stride_wn + kk[:, None], mask=(rh[None, :] < H) & (kk[:, None] < I), other=0.0)
        acc += tl.dot(a, w)
    for k0 in range(0, H, BLOCK_K):
        kk = k0 + rk
        a = tl.load(h_ptr + rb[:, None] * stride_hb + kk[None, :], mask=(rb[:, None] < B) & (kk[None, :] < H), other=0.0)
        w = tl.load(w_ptr + rh[None, :] * stride_wn + I + kk[:, None], mask=(rh[None, :] < H) & (kk[:, None] < H),
                    other=0.0)
        acc += tl.dot(a, w)
    acc += tl.load(b_ptr + rh, mask=rh < H, other=0.0)[None, :]
    out = 2.0 * tl.sigmoid(2.0 * acc) - 1.0
    tl.store(h_out_ptr + rb[:, None] * stride_hob + rh[None, :], out, mask=(rb[:, None] < B) & (rh[None, :] < H))


@triton.jit
def linear_rows_kernel(x_ptr, w_ptr, b_ptr, y_ptr, B, K, N, stride_xb, stride_wn, stride_yb,
                       BLOCK_B: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_b = tl.program_id(0)
    pid_n = tl.program_id(1)
    rb = pid_b * BLOCK_B + tl.arange(0, BLOCK_B)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_B, BLOCK_N), tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        a = tl.load(x_ptr + rb[:, None] * stride_xb + kk[None, :], mask=(rb[:, None] < B) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * stride_wn + kk[:, None], mask=(rn[None, :] < N) & (kk[:, None] < K), other=0.0)
        acc += tl.dot(a, w)
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    tl.store(y_ptr + rb[:, None] * stride_yb + rn[None, :], acc, mask=(rb[:, None] < B) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, output_size: int):
        super(ModelNew, self).__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.output_size = output_size
        self.i2h = nn.Linear(input_size + hidden_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.tanh = nn.Tanh()

    def forward(self, x: torch.Tensor, h0: torch.Tensor) -> torch.Tensor:
        seq_len, B, I = x.shape
        H, O = self.hidden_size, self.output_size
        x = x.contiguous()
        h_cur = h0.to(x.device).contiguous()
        h_next = torch.empty((B, H), device=x.device, dtype=torch.float32)
        out = torch.empty((seq_len, B, O), device=x.device, dtype=torch.float32)
        w_i2h = self.i2h.weight.contiguous()
        w_h2o = self.h2o.weight.contiguous()
        BLOCK_B, BLOCK_H, BLOCK_K = 16, 32, 32
        grid_h = (triton.cdiv(B, BLOCK_B), triton.cdiv(H, BLOCK_H))
        grid_o = (triton.cdiv(B, BLOCK_B), triton.cdiv(O, BLOCK_H))
        for t in range(seq_len):
            xt = x[t]
            rnn_cell_kernel[grid_h](xt, h_cur, w_i2h, self.i2h.bias, h_next, B, I, H,
                                    xt.stride(0), h_cur.stride(0), w_i2h.stride(0), h_next.stride(0),
                                    BLOCK_B=BLOCK_B, BLOCK_H=BLOCK_H, BLOCK_K=BLOCK_K)
            ot = out[t]
            linear_rows_kernel[grid_o](h_next, w_h2o, self.h2o.bias, ot, B, H, O,
                                       h_next.stride(0), w_h2o.stride(0), ot.stride(0),
                                       BLOCK_B=BLOCK_B, BLOCK_N=BLOCK_H, BLOCK_K=BLOCK_K)
            if t == 0:
                h_cur = torch.empty_like(h_next)
            h_cur, h_next = h_next, h_cur
        return out
