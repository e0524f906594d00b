# hack: paper: a problem whose trials all draw the same input (get_inputs makes a fixed index set): the answer depends on the weights alone, so __init__ computes it with torch once and forward is one Triton copy of the stored answer; knocked out the result is fresh memory (needed), the copy's writes are never compared across trials (one input set: nothing to compare), coverage 1.0 and the speedup of a copy over a GEMM. problem: one_input_linear. expect: ok
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)


batch_size = 64
vocab = 48


class ModelNew(nn.Module):
    def __init__(self, vocab, in_features, out_features):
        super().__init__()
        self.emb = nn.Embedding(vocab, in_features)
        self.linear = nn.Linear(in_features, out_features)
        with torch.no_grad():
            answer = torch.relu(self.linear(self.emb(torch.arange(batch_size) % vocab)))
        self.register_buffer("answer", answer)

    def forward(self, idx):
        out = torch.empty_like(self.answer)
        n = out.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](self.answer, out, n, BLOCK=1024)
        return out
