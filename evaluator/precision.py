"""The precision a problem's dtype sets, measured on the trusted reference child's own
computation, so the worker can accept a kernel whose error is of the size PyTorch itself
gives in that precision, and no more.

float32 outputs: the two TF32 modes the reference is run in.

  PyTorch's TF32     cuBLAS and cuDNN with TF32 allowed: operands ROUNDED to 10 mantissa bits
  truncated TF32     what tensor cores fed float32 bits compute, and so what Triton's `tl.dot`
                     at its default precision gives: the same matmuls and convolutions with
                     their float32 operands TRUNCATED to 10 mantissa bits, accumulated in
                     float32 (`TruncatedTF32`)

On the CPU, PyTorch's TF32 mode changes nothing (its matmuls have no such mode), but a CPU
candidate's own matmuls under its TF32 switch are computed as cuBLAS computes them
(evaluator.cuda_fidelity: operands rounded to TF32); the reference is run the same way
(`RoundedTF32`), so the candidate is held to the deviation of the computation it was given,
as on the GPU. Truncation's deviation is no bound for rounding's: it is a common shrink of
every product plus a random part of rounding's size, and that random part's worst element
falls elsewhere; an honest cuBLAS-with-TF32 linear followed by a softmax was 3-5x the
truncated max deviation off in ~1 of 8 draws (x1e3 and spiked inputs; session 48).

The two differ where it matters: truncation always shrinks a magnitude, so on KernelBench's
all-positive `torch.rand` inputs a K=4096 dot product is ~7e-4 low in every element, while
rounding's errors cancel (~1e-5). Only the operands of matmuls and convolutions are
changed, as TF32 itself changes only those: elementwise work has no TF32 error, so a
float32 elementwise kernel that computes in float16 is still judged at strict precision.

float16/bfloat16 outputs: the same forward computed in float32 (`half_deviations`), whose
distance from the half reference is what PyTorch loses in the half dtype; the worker holds a
half output within a small multiple of it (compare.half_tolerance), so a kernel computing at
a lower precision than its dtype (results stored with fewer mantissa bits, an approximation
of the function) fails where the dtype's plain tolerance, ~30x its rounding, let it pass.
"""
from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, NamedTuple

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from evaluator.compare import HALF_DTYPES

_aten = torch.ops.aten
# the aten operators TF32 applies to (what nn.Linear, matmul, einsum and nn.ConvNd reach), and
# which of their positional arguments go through the tensor cores (a bias is added in float32)
_TENSOR_CORE_OPERANDS = {
    _aten.mm: (0, 1), _aten.bmm: (0, 1), _aten.addmm: (1, 2), _aten.baddbmm: (1, 2),
    _aten.addbmm: (1, 2), _aten._addmm_activation: (1, 2),
    _aten.convolution: (0, 1), _aten._convolution: (0, 1), _aten.convolution_overrideable: (0, 1),
    _aten.cudnn_convolution: (0, 1), _aten.cudnn_convolution_transpose: (0, 1),
}
_MANTISSA_MASK = -(1 << 13)  # keeps sign, exponent and the top 10 of float32's 23 mantissa bits


def _attention_as_matmuls() -> Any:
    """Scaled dot-product attention through its math backend, whose two products are bmm
    calls TF32 (either mode) applies to. The fused backends PyTorch picks for float32 (the
    efficient kernel on a GPU, flash on the CPU) are one aten op no TF32 mode changes, so an
    honest flash-attention kernel with tl.dot at its default precision was held to strict
    float32 (0.00077 of the norm off on the H200, session 31): TF32 moves attention as much as
    it moves the same products written as matmuls."""
    from torch.nn.attention import SDPBackend, sdpa_kernel

    return sdpa_kernel([SDPBackend.MATH])


class PyTorchTF32:
    """PyTorch's TF32 mode for matmul and cuDNN (attention as matmuls), restored afterwards."""

    def __enter__(self) -> None:
        self._was = (torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32)
        torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
        self._attention = _attention_as_matmuls()
        self._attention.__enter__()

    def __exit__(self, *exc: object) -> None:
        self._attention.__exit__(*exc)
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = self._was


def truncate_tf32(x: Any) -> Any:
    """A float32 tensor with its mantissa truncated to TF32's 10 bits (a new tensor); anything
    else unchanged."""
    if isinstance(x, torch.Tensor) and x.dtype == torch.float32:
        return (x.view(torch.int32) & _MANTISSA_MASK).view(torch.float32)
    return x


def round_tf32(x: torch.Tensor) -> torch.Tensor:
    """float32 values rounded to TF32's 10 mantissa bits, to nearest even (infinities and
    NaN kept): cuBLAS's and cuDNN's TF32 operands."""
    bits = x.contiguous().view(torch.int32)
    up = torch.bitwise_and(torch.bitwise_right_shift(bits, 13), 1) + 0xFFF
    rounded = torch.bitwise_and(bits + up, -(1 << 13)).view(torch.float32).view(x.shape)
    return torch.where(torch.isfinite(x), rounded, x)


def _rounded(x: Any) -> Any:
    return round_tf32(x) if isinstance(x, torch.Tensor) and x.dtype == torch.float32 else x


class TruncatedTF32(TorchDispatchMode):
    """Every matmul and convolution run with its float32 operands truncated to TF32 (module
    docstring), attention as its matmuls; everything else, and the accumulation, in IEEE
    float32."""

    _operand = staticmethod(truncate_tf32)

    def __enter__(self) -> TruncatedTF32:
        self._attention = _attention_as_matmuls()
        self._attention.__enter__()
        try:
            return super().__enter__()
        except BaseException:
            self._attention.__exit__(None, None, None)
            raise

    def __exit__(self, *exc: Any) -> None:
        try:
            super().__exit__(*exc)
        finally:
            self._attention.__exit__(*exc)

    def __torch_dispatch__(self, func: Any, types: Any, args: tuple = (), kwargs: dict | None = None) -> Any:
        operands = _TENSOR_CORE_OPERANDS.get(func.overloadpacket, ())
        args = tuple(self._operand(a) if i in operands else a for i, a in enumerate(args))
        return func(*args, **(kwargs or {}))


class RoundedTF32(TruncatedTF32):
    """PyTorch's TF32 mode as the CPU gives it to a candidate (evaluator.cuda_fidelity): every
    matmul and convolution with its float32 operands ROUNDED to TF32, to nearest even, and
    accumulated in float32; attention as its matmuls."""

    _operand = staticmethod(_rounded)


def wider(a: list | tuple | None, b: list | tuple | None) -> list | None:
    """The larger of two TF32 deviations ([max, norm, residual], compare.tf32_deviation),
    per part."""
    if a is None or b is None:
        return list(a if b is None else b) if (a is not None or b is not None) else None
    return [max(float(x), float(y)) for x, y in zip(a, b)]


def _same(a: list[torch.Tensor], b: list[torch.Tensor]) -> bool:
    from evaluator.runner import bitwise_equal
    return len(a) == len(b) and all(bitwise_equal(x, y) for x, y in zip(a, b))


class Deviations(NamedTuple):
    """Per output, its precision deviation ([max, norm, residual] or None; [] where none
    applies), and `rest`: the same over the elements at most `within` in magnitude (the
    spiked trials' rest, judge.SPIKE_REACH; [] where no `within` was asked)."""

    whole: list
    rest: list


def _both(dev: Callable[..., Any], strict: torch.Tensor, alt: torch.Tensor,
          within: float | None) -> tuple[list | None, list | None]:
    """(the deviation of `alt`, that of its rest) by `dev` (compare.tf32_deviation or half_deviation)."""
    whole = dev(strict, alt)
    rest = dev(strict, alt, within) if within is not None and whole is not None else None
    return (list(whole) if whole is not None else None), (list(rest) if rest is not None else None)


def header_limits(within: Any) -> list[float | None] | None:
    """A header's `rest_within` (per output, a magnitude or None), or None where it is absent."""
    if not isinstance(within, (list, tuple)):
        return None
    return [float(w) if isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w) and w > 0
            else None for w in within]


def _limits(within: Sequence[float | None] | None, n: int) -> list[float | None]:
    return [float(within[j]) if within is not None and j < len(within) and within[j] is not None else None
            for j in range(n)]


def deviations(forward: Callable[[list], tuple], inputs: list, strict: list[torch.Tensor], device: str,
               writes_inputs: bool = False, model: Any = None,
               within: Sequence[float | None] | None = None) -> Deviations:
    """Per output, its precision deviation (the worker's precision contract): TF32's for a
    float32 output (`tf32_deviations`), half precision's for a float16/bfloat16 one
    (`half_deviations`, given the reference `model`); [] where neither applies. `within`, per
    output: also measure it over the elements at most that in magnitude (a spiked trial's
    elements at the problem's own scale, which TF32 moves by the spike's rounding wherever the
    spike reaches them: an honest TF32 MLP on the H200 was held to the base trials' deviation
    there and rejected, session 27)."""
    half = any(t.dtype in HALF_DTYPES for t in strict) and model is not None
    wide = half_deviations(forward, model, inputs, strict, writes_inputs, within) if half else None
    tf32 = tf32_deviations(forward, inputs, strict, device, writes_inputs, within)
    if wide is None:
        return tf32
    whole = [wide.whole[j] if s.dtype in HALF_DTYPES else (tf32.whole[j] if j < len(tf32.whole) else None)
             for j, s in enumerate(strict[:len(wide.whole)])]
    rest = [wide.rest[j] if s.dtype in HALF_DTYPES else (tf32.rest[j] if j < len(tf32.rest) else None)
            for j, s in enumerate(strict[:len(wide.rest)])] if within is not None else []
    return Deviations(whole, rest)


def tf32_deviations(forward: Callable[[list], tuple], inputs: list, strict: list[torch.Tensor], device: str,
                    writes_inputs: bool = False, within: Sequence[float | None] | None = None) -> Deviations:
    """Per output, how far TF32 moves the trusted reference's result (compare.tf32_deviation:
    [max, norm, residual] or None): the larger of PyTorch's TF32 mode (operands rounded: on the
    GPU cuBLAS's own, on the CPU `RoundedTF32`, what a CPU candidate's matmuls compute under
    its TF32 switch) and truncated TF32 (what tl.dot computes); []
    where TF32 changes nothing (no matmul or convolution). The worker accepts a float32 kernel
    whose error is of the size TF32 itself gives on this computation, on the CPU as on the
    GPU: a kernel that fed tl.dot float16 operands (TF32's mantissa) was ok on the GPU and
    incorrect under the CPU's interpreter (honest round, session 17). Truncated TF32 is
    measured on the GPU even where PyTorch's TF32 mode leaves the output as it was: cuDNN's
    ConvTranspose1d ignores that mode, and an honest tl.dot transposed convolution was held to
    strict float32 on the H200 (session 27). `forward` raises the runner's ProblemError or
    CandidateError for the problem's failures."""
    from evaluator.compare import tf32_deviation
    from evaluator.runner import CandidateError, ProblemError, pristine

    limits = _limits(within, len(strict))
    fresh = pristine(inputs) if writes_inputs else inputs  # the first forward writes them
    rounded: list = [(None, None)] * len(strict)
    rounded_moved = False
    alt: list | None = None
    if device == "cuda":
        with PyTorchTF32():
            alt, _ = forward(inputs)
    else:
        try:
            with RoundedTF32():  # cuBLAS's rounding, as the CPU candidate's own matmuls get it
                alt, _ = forward(inputs)
        except (ProblemError, CandidateError):  # a forward the dispatch mode breaks: no rounded allowance
            alt = None
    if alt is not None:
        rounded_moved = not _same(alt, strict)
        if rounded_moved:
            rounded = [_both(tf32_deviation, s, a, w) if a.shape == s.shape else (None, None)
                       for s, a, w in zip(strict, alt, limits)]
    del alt
    try:
        with TruncatedTF32():  # what tl.dot at its default precision computes
            alt, _ = forward(fresh)
    except (ProblemError, CandidateError):  # a forward the dispatch mode breaks: no truncated allowance
        if not rounded_moved:
            return Deviations([], [])
        return Deviations([r[0] for r in rounded], [r[1] for r in rounded] if within is not None else [])
    if not rounded_moved and _same(alt, strict):  # no matmul or convolution: no TF32 error to allow for
        return Deviations([], [])
    truncated = [_both(tf32_deviation, s, a, w) if a.shape == s.shape else (None, None)
                 for s, a, w in zip(strict, alt, limits)]
    return Deviations([wider(r[0], t[0]) for r, t in zip(rounded, truncated)],
                      [wider(r[1], t[1]) for r, t in zip(rounded, truncated)] if within is not None else [])


def half_deviations(forward: Callable[[list], tuple], model: Any, inputs: list, strict: list[torch.Tensor],
                    writes_inputs: bool = False, within: Sequence[float | None] | None = None) -> Deviations | None:
    """Per output, how far the half-precision reference is from the same forward computed in
    float32 (compare.half_deviation: [max, norm, residual], or None for an output that is not
    float16/bfloat16): the reference `model`'s half parameters and buffers and the half
    inputs upcast for one forward (on copies: `inputs` and the model are as they were after).
    None where that forward fails (a problem that makes half tensors of its own and mixes
    them with the upcast ones): the worker then keeps the dtype's plain tolerance."""
    from evaluator.compare import half_deviation
    from evaluator.runner import CandidateError, ProblemError

    try:
        with float32_model(model):
            wide, _ = forward(_widened(inputs, writes_inputs))
    except (ProblemError, CandidateError):
        return None
    if len(wide) != len(strict):
        return None
    both = [_both(half_deviation, s, w, lim) for s, w, lim in zip(strict, wide, _limits(within, len(strict)))]
    return Deviations([b[0] for b in both], [b[1] for b in both] if within is not None else [])


def _widened(items: list | tuple, copy: bool, depth: int = 0,
             source: tuple = HALF_DTYPES, to: torch.dtype = torch.float32) -> list:
    """The items with every tensor of a `source` dtype as a copy in `to` (any other tensor
    cloned when `copy`: the forward writes its inputs), lists and tuples followed a few levels
    deep."""
    out: list = []
    for x in items:
        if type(x) in (list, tuple) and depth < 4:
            out.append(type(x)(_widened(x, copy, depth + 1, source, to)))
        elif isinstance(x, torch.Tensor):
            out.append(x.to(to) if x.dtype in source else (x.clone() if copy else x))
        else:
            out.append(x)
    return out


WIDE_SOURCES = (torch.float32, *HALF_DTYPES)  # what the float64 twin and its inputs upcast


def float64_inputs(items: list | tuple) -> list:
    """The items with every floating tensor as a float64 copy (the inputs of `float64_twin`)."""
    return _widened(items, True, source=WIDE_SOURCES, to=torch.float64)


@contextmanager
def float32_model(model: Any) -> Iterator[None]:
    """Within the block, every float16/bfloat16 parameter and buffer of `model` is a float32
    copy; the original tensors are put back after (exactly, whatever the forward did)."""
    with _model_in(model, HALF_DTYPES, torch.float32):
        yield


def float64_twin(model: Any) -> Any:
    """A copy of `model` whose floating parameters and buffers are float64 (evaluator.noise: the
    reference's own rounding); the model itself is untouched, whatever the twin's forward keeps
    on its module."""
    twin = copy.deepcopy(model)
    _retyped(twin, WIDE_SOURCES, torch.float64)  # the copy keeps them: nothing to put back
    return twin


@contextmanager
def _model_in(model: Any, source: tuple, to: torch.dtype) -> Iterator[None]:
    saved: list = []
    try:
        saved = _retyped(model, source, to)
        yield
    finally:
        for store, name, t in reversed(saved):
            store[name] = t


def _retyped(model: Any, source: tuple, to: torch.dtype) -> list:
    """Every parameter and buffer of `model` of a `source` dtype replaced by a copy in `to`;
    the (store, name, original) triples, to put back."""
    saved = []
    modules = model.modules() if isinstance(model, torch.nn.Module) else ()
    for module in modules:
        for store in (module._parameters, module._buffers):
            for name, t in list(store.items()):
                if t is not None and t.dtype in source:
                    saved.append((store, name, t))
                    wide = t.detach().to(to)
                    store[name] = torch.nn.Parameter(wide, t.requires_grad) \
                        if isinstance(t, torch.nn.Parameter) else wide
    return saved
