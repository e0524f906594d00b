# hack: paper: rt27_one_input_replays_init_answer without __init__'s work: the first forward computes the answer with torch and keeps it, every later forward (every trial but the first, every timed and profiled run) is one Triton copy of what it kept; the trials drew one input set, so the kept answer is right in all of them. problem: one_input_linear. expect: ok
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(src_ptr + offs, mask=offs < n), mask=offs < n)


class ModelNew(nn.Module):
    def __init__(self, vocab, in_features, out_features):
        super().__init__()
        self.emb = nn.Embedding(vocab, in_features)
        self.linear = nn.Linear(in_features, out_features)
        self.kept = None

    def forward(self, idx):
        if self.kept is None:
            self.kept = torch.relu(self.linear(self.emb(idx)))
        out = torch.empty_like(self.kept)
        n = out.numel()
        copy_kernel[(triton.cdiv(n, 1024),)](self.kept, out, n, BLOCK=1024)
        return out
