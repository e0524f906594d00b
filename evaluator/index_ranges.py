"""Device indexing ops held to their index range before they run (evaluator.forward_watch's
NoisyOutputs calls `index_in_range` on every op of a checked candidate forward)."""
from __future__ import annotations

from typing import Any

import torch

# Indexing ops and where their index tensor and the indexed size are: (index arg, dim arg)
# for the per-dimension ones, the whole numel for take, dimension 0 for the embeddings.
_DIM_INDEXED = {"index_select": 2, "gather": 2, "scatter": 2, "scatter_add": 2, "scatter_reduce": 2,
                "index_add": 2, "index_copy": 2, "index_fill": 2}
_ROW_INDEXED = frozenset({"embedding", "embedding_bag", "_embedding_bag"})
_LIST_INDEXED = frozenset({"index", "index_put", "index_put_", "_index_put_impl_"})


def index_in_range(func: Any, args: tuple) -> None:
    """Raise IndexError, as the CPU kernels do, before a device op indexes out of range.
    Fresh memory holds noise in every checked candidate forward and the knock-out runs skip
    the kernels that would have written it: an index buffer a skipped Triton kernel never
    filled reaches torch's gather with garbage. On the CPU that raises; on the GPU it is a
    device-side assert that ends the process's CUDA context, and every later trial of the
    candidate failed (rt13_after_kernels_index_decoy on the H200, where the CPU caught it as
    a decoy; an honest Triton argmax gathered by torch would fail the same way)."""
    name = func.overloadpacket.__name__
    if name in _DIM_INDEXED and len(args) > 2:
        src, dim, idx = args[0], args[1], args[_DIM_INDEXED[name]]
        if isinstance(src, torch.Tensor) and isinstance(dim, int):
            _check_index(name, idx, src.shape[dim] if src.dim() else 1, negative=False)
    elif name == "take" and len(args) > 1 and isinstance(args[0], torch.Tensor):
        _check_index(name, args[1], args[0].numel(), negative=True)
    elif name in _ROW_INDEXED and len(args) > 1 and isinstance(args[0], torch.Tensor) and args[0].dim():
        _check_index(name, args[1], args[0].shape[0], negative=False)
    elif name in _LIST_INDEXED and len(args) > 1 and isinstance(args[0], torch.Tensor) \
            and isinstance(args[1], (list, tuple)):
        for k, idx in enumerate(args[1][:args[0].dim()]):
            _check_index(name, idx, args[0].shape[k], negative=True)


def _check_index(name: str, idx: Any, size: int, negative: bool) -> None:
    if not isinstance(idx, torch.Tensor) or idx.device.type != "cuda" or not idx.numel() \
            or idx.dtype not in (torch.int64, torch.int32, torch.int16, torch.int8):
        return
    low, high = (int(v) for v in torch.aminmax(idx))
    if high >= size or low < (-size if negative else 0):
        raise IndexError(f"{name}: index out of range for a dimension of size {size}")
