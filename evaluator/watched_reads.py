"""Reads of tensor values that torch's C++ would hide from the provenance watch, made visible
in every candidate child (or refused there), and the mark of constants host Python made: set
up before the candidate's module is imported (evaluator.commands)."""
from __future__ import annotations

import operator
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch

from evaluator import candidate_env


def tensor_split_reads_visible() -> None:
    """tensor_split with a tensor of indices reads its values in C++ with no dispatched op, and
    the slices' sizes hand them to Python: a host GEMM read its inputs and told the torch
    knock-out apart this way (red teams B and D, session 16). In a candidate child the tensor
    is turned into Python ints one dispatched read at a time, so the provenance watch counts
    them as host reads (and as PyTorch's, where PyTorch computed them); the split is the same."""
    real_fn, real_method = torch.tensor_split, torch.Tensor.tensor_split

    def as_ints(v: Any) -> Any:
        if not isinstance(v, torch.Tensor):
            return v
        return int(v) if v.dim() == 0 else [int(x) for x in v.reshape(-1)]

    def tensor_split(input: Any, *args: Any, **kwargs: Any) -> Any:
        return real_fn(input, *map(as_ints, args), **{k: as_ints(v) for k, v in kwargs.items()})

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        return real_method(self, *map(as_ints, args), **{k: as_ints(v) for k, v in kwargs.items()})

    torch.tensor_split = tensor_split  # type: ignore[assignment]
    torch.Tensor.tensor_split = method  # type: ignore[method-assign]


def library_reads_visible() -> None:
    """torch's own Python code turns tensors into Python values with `tolist()` (tensordot's
    dims given as a tensor), which reads memory in C++ with no dispatched op: a host conv
    read every input two bits at a time through the shape of tensordot's result (red team A,
    session 19, ok under strict). A candidate may call tolist itself (MoE routing's
    `counts.tolist()`, session 64): in a candidate child, wherever a dispatch mode is active
    (a watched forward, construction, the dry model), tolist reads
    one element at a time through dispatched reads the provenance watch counts, and numpy()
    (another C++ read) is refused there. Where no mode is active (the harness's own calls; a
    candidate's at import, or in a GPU timed forward paper leaves unwatched) tolist runs as
    it is: there an `.item()` loop is unwatched too, so the list hands over nothing it could not."""
    real_tolist, real_numpy = torch.Tensor.tolist, torch.Tensor.numpy

    def watched() -> bool:  # a mode of the harness's (not the casts' own, around a candidate's call)
        return any(not isinstance(torch._C._get_dispatch_stack_at(i), candidate_env._CudaCasts)
                   for i in range(torch._C._len_torch_dispatch_stack()))

    def tolist(self: Any) -> Any:
        if not watched():
            return real_tolist(self)
        if self.dim() == 0:
            return self.item()
        return [tolist(row) for row in self.unbind(0)]

    def numpy(self: Any, *args: Any, **kwargs: Any) -> Any:
        if watched():
            raise RuntimeError("numpy() of a tensor inside forward hands its values to host Python; "
                               "pass tensors to your kernels")
        return real_numpy(self, *args, **kwargs)

    torch.Tensor.tolist = tolist  # type: ignore[method-assign]
    torch.Tensor.numpy = numpy  # type: ignore[method-assign]


RAW_STORAGE_METHODS = ("_write_file", "_set_from_file", "from_buffer", "_from_buffer", "from_file", "_new_with_file",
                       "_new_shared", "_new_shared_fd_cpu", "_new_shared_filename_cpu", "_new_using_fd_cpu",
                       "_new_using_filename_cpu", "_share_fd_cpu_", "_share_filename_cpu_", "share_memory_",
                       "_share_memory_", "_get_shared_fd", "_get_filename")


def raw_storage_closed() -> None:
    """A storage's raw-memory methods (in a candidate child, where the harness needs none):
    `_write_file` hands every byte of a tensor to a Python object's write() in C++ and
    `from_buffer` fills memory from Python bytes, with no dispatched op, so neither the
    provenance watch nor the torch knock-out sees host compute done through them (red team
    s30b: a host relu, ok under strict). The static allowlist keeps storages out of a file's
    reach; this is the runtime's side of it: each raises, on the untyped and typed storages
    and the legacy ones (torch.FloatStorage) that inherit them."""
    def closed(name: str) -> Any:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError(f"storage.{name} moves raw memory to or from the host unseen; "
                               "work on tensors and pass them to your kernels")
        return refuse

    for cls in (torch.UntypedStorage, torch.TypedStorage):
        for name in RAW_STORAGE_METHODS:
            if hasattr(cls, name):
                setattr(cls, name, staticmethod(closed(name)))


UNFOLD_SIZE_LIMIT = 1 << 31
"""Largest output size, kernel size, dilation, padding or stride im2col/col2im take in a
candidate child: below it no size product of theirs reaches int64's range."""


def unfold_sizes_checked() -> None:
    """F.unfold and F.fold (aten im2col/col2im, also nn.Unfold/nn.Fold) compute their block
    counts from the sizes in int64 without an overflow check: a dilation or padding near 2**62
    wraps the count to one that matches the input, and the CPU kernel then reads far outside
    it (im2col: 1e27 out of a tensor of ones, scripts/audit_index_ops.py; col2im, which the
    audit never probed: padding=2**62 accepted beside a 4-column input, 2**61 a segfault, red
    team rt54). An unchecked native read in the child is a look at the harness's memory there.
    Honest sizes are small, so in a candidate child every int they are given must be in
    [0, UNFOLD_SIZE_LIMIT), or the call raises before torch runs it."""
    for name in ("im2col", "col2im"):
        real = getattr(torch._C._nn, name, None)
        if real is not None:
            setattr(torch._C._nn, name, _sizes_bounded(name, real))


def _sizes_bounded(name: str, real: Any) -> Any:
    def checked(*args: Any, **kwargs: Any) -> Any:  # the input first, by position or `input=`
        first = {"input": kwargs.pop("input")} if "input" in kwargs else {}
        label = f"{name} (F.unfold/F.fold)"
        args = (*args[:1], *(_bounded_sizes(label, value) for value in args[1:]))
        kwargs = {key: _bounded_sizes(label, value) for key, value in kwargs.items()}
        return real(*args, **first, **kwargs)
    return checked


def _bounded_sizes(label: str, value: Any, low: int = 0, overflows: str = "its block count") -> Any:
    """One size argument of im2col/col2im (a convolution's, a pad's: `_size_or_as_given`) as plain
    ints, each in [low, UNFOLD_SIZE_LIMIT): torch takes a one-element tensor (or any `__index__`)
    where an int goes, so `padding=(tensor(2**62), tensor(2**62))` passed an int-only check (red
    team rt55); what is checked is what runs. `label` names the call in the error."""
    items = value if isinstance(value, (list, tuple)) else (value,)
    try:
        sizes = [operator.index(n) for n in items]
    except TypeError as exc:
        raise RuntimeError(f"{label}: sizes must be ints") from exc
    if any(not low <= n < UNFOLD_SIZE_LIMIT for n in sizes):
        raise RuntimeError(f"{label}: size {sizes} is out of range [{'-2**31' if low else 0}, "
                           f"2**31): {overflows} would overflow")
    return sizes if isinstance(value, (list, tuple)) else sizes[0]


# name -> (module paths holding it, first size argument's position, size argument names): the
# convolution and pad entry points a candidate reaches (torch.*, F.*, and nn.Conv*/nn.*Pad*,
# which call F.*); every argument from that position on, or so named, is a size (the others:
# tensors before it, bools, strings, None, floats, and `value`/`alpha`/`mode`, left as given)
_CONV = ("stride", "padding", "dilation", "groups", "output_padding")
SIZED_OPS = {
    **{n: (("torch", "torch.nn.functional"), 3, _CONV) for n in (
        "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d")},
    "conv_tbc": (("torch", "torch.nn.functional"), 3, ("pad",)),
    "convolution": (("torch",), 3, _CONV),
    "mkldnn_convolution": (("torch",), 3, _CONV),
    "cudnn_convolution": (("torch",), 2, _CONV),
    "cudnn_convolution_transpose": (("torch",), 2, _CONV),
    "cudnn_convolution_relu": (("torch",), 3, _CONV),
    "cudnn_convolution_add_relu": (("torch",), 5, _CONV),
    **{n: (("torch",), 1, ("kernel_size", "stride", "padding", "dilation")) for n in (
        "max_pool1d", "max_pool1d_with_indices", "max_pool2d", "max_pool3d", "avg_pool1d")},
    "pad": (("torch.nn.functional", "torch._C._nn"), 1, ("pad",)),
    "constant_pad_nd": (("torch",), 1, ("pad",)),
    **{n: (("torch._C._nn",), 1, ("padding",)) for n in (
        "reflection_pad1d", "reflection_pad2d", "reflection_pad3d",
        "replication_pad1d", "replication_pad2d", "replication_pad3d")},
}
_NOT_SIZES = frozenset({"value", "alpha", "mode", "transposed", "benchmark", "deterministic",
                        "allow_tf32"})


def conv_and_pad_sizes_checked() -> None:
    """The convolution and pad kernels size their loops from int64 arithmetic on stride,
    padding, dilation without an overflow check (scripts/audit_index_ops.py, session 51d, once
    it could build their baselines): F.conv3d with stride=2**62 returns 9.6e31 from a tensor of
    ones (CPU slow_conv3d reads past its input; a one-element tensor as the stride, 0.0), and
    F.pad(x, [2**63 - 1] * 4, mode="replicate") (also nn.ReplicationPad2d/3d) segfaults, and
    F.max_pool1d's kernel_size=2**63 - 1 segfaults (2**62: a hang; dilation=2**62 beside
    padding=1 gave 6 outputs out of 4 inputs; F.max_pool1d and nn.MaxPool1d call torch's). Honest
    sizes are small: in a candidate child every size those entry points are given is a plain int
    in [0, 2**31) (a pad in (-2**31, 2**31): a negative pad crops), or the call raises before
    torch runs it. A padding string ("same", "valid") is left as given."""
    import functools
    import importlib

    for name, (modules, first, names) in SIZED_OPS.items():
        for module_name in modules:
            module = importlib.import_module(module_name)
            real = getattr(module, name, None)
            if real is None or getattr(real, "__krl_sized__", False):
                continue
            low = -UNFOLD_SIZE_LIMIT + 1 if "pad" in names else 0
            checked = _conv_sized(name, real, first, names, low)
            try:
                checked = functools.wraps(real)(checked)
            except (AttributeError, TypeError):
                pass
            checked.__krl_sized__ = True  # type: ignore[attr-defined]
            setattr(module, name, checked)


def _conv_sized(name: str, real: Any, first: int, names: tuple, low: int) -> Any:
    def checked(*args: Any, **kwargs: Any) -> Any:
        # one size argument (a pad's list, conv_tbc's pad): at `first` only; a convolution's:
        # every one from `first` on (its bools, `transposed` and cuDNN's flags, left as given)
        args = tuple(_size_or_as_given(name, v, low)
                     if k == first or (k > first and len(names) > 1) else v
                     for k, v in enumerate(args))
        kwargs = {k: _size_or_as_given(name, v, low) if k in names and k not in _NOT_SIZES else v
                  for k, v in kwargs.items()}
        return real(*args, **kwargs)
    return checked


def _size_or_as_given(name: str, value: Any, low: int) -> Any:
    """A size argument checked (`_bounded_sizes`); a bool, string, float or None as given."""
    if value is None or isinstance(value, (bool, str, float)):
        return value
    return _bounded_sizes(name, value, low, "its loop bounds")


# out= overloads whose CPU kernel writes its output as if dense, unchecked for internal
# overlap (the TensorIterator ops refuse an overlapping out themselves): module -> names
OUT_CHECKED = {"torch": ("narrow_copy",), "torch.nn.functional": ("avg_pool3d",)}


def outputs_not_overlapping() -> None:
    """An `out=` tensor of one element expanded to the output's shape (stride 0) is taken by
    torch.narrow_copy and F.avg_pool3d (aten avg_pool3d.out, which F.avg_pool3d is) as if it
    were dense: they wrote 31 and 15 elements past its one-element storage (session 51d, the
    audit's out= probes: a native write into the heap). In a candidate child their `out` must
    be a tensor without internal overlap (torch's own check), or the call raises first."""
    import importlib

    for module_name, names in OUT_CHECKED.items():
        module = importlib.import_module(module_name)
        for name in names:
            real = getattr(module, name, None)
            if real is not None and not getattr(real, "__krl_out_checked__", False):
                checked = _out_checked(name, real)
                checked.__krl_out_checked__ = True  # type: ignore[attr-defined]
                setattr(module, name, checked)


def _out_checked(name: str, real: Any) -> Any:
    import functools

    def checked(*args: Any, **kwargs: Any) -> Any:
        out = kwargs.get("out")
        if out is not None and (not isinstance(out, torch.Tensor)
                                or torch._debug_has_internal_overlap(out) != 0):
            raise RuntimeError(f"{name}: out= must be a tensor whose elements do not overlap")
        return real(*args, **kwargs)
    try:
        return functools.wraps(real)(checked)
    except (AttributeError, TypeError):
        return checked


def host_buffers_visible() -> None:
    """torch.asarray of a Python buffer (bytes, bytearray, memoryview, array) wraps it as
    tensor memory in C++ with no dispatched op, unlike torch.tensor's lift_fresh: a host GEMM
    wrote its whole result this way, counted as nothing the host made (red team A, session
    17). In a candidate child such a tensor passes through lift_fresh_copy (a dispatched
    copy), so the provenance watch counts its values as made on the host and marks them so."""
    real = torch.asarray

    def asarray(obj: Any, *args: Any, **kwargs: Any) -> Any:
        out = real(obj, *args, **kwargs)
        if isinstance(obj, torch.Tensor) or not isinstance(out, torch.Tensor):
            return out
        try:
            memoryview(obj)
        except TypeError:  # a list or a number: torch.asarray dispatched lift_fresh for it itself
            return out
        return torch.ops.aten.lift_fresh_copy(out)

    torch.asarray = asarray  # type: ignore[assignment]


def launches_stay_eager() -> None:
    """`torch.library.wrap_triton(kernel)[grid](...)` launches through a higher-order op
    (triton_kernel_wrapper_mutation) wherever wrap_triton is on, PyTorch's default on a GPU.
    That op has no rule for the harness's dispatch modes (the provenance watch, the noisy
    outputs, TF32 truncation) and raised NotImplementedError in every checked forward on the
    H200 (session 26). A candidate child traces nothing, so wrap_triton is off for its whole
    life: the wrapper is then the kernel itself and the launch a plain `kernel[grid](...)`
    through Triton's launcher, as under the CPU interpreter (where wrap_triton returns the
    kernel already). The switch is torch-internal; a torch without it leaves things as they are."""
    try:
        import torch._library.triton as library_triton
    except ImportError:
        return
    if hasattr(library_triton, "wrap_triton_enabled_default"):
        library_triton.wrap_triton_enabled_default = False  # every thread's default
    local = getattr(library_triton, "wrap_triton_enabled", None)
    if local is not None:
        local.value = False  # and this thread's own setting, where one was made


PLAIN_MAX = 1 << 16
"""Elements a plain list may hold at one level: longer data is no plain data, and costs every
element. 4096 refused an honest row-offset table at an H100's 8192 rows (`host_tables`' runs
make it 3 numbers at the CPU's sizes: session 59, honest s59a_02); 65536 ints are read in
about 0.3 s of Python where a forward builds such a list at all."""
PLAIN_NUMBERS = [0]  # torch.tensor calls of plain Python numbers running (the watch reads it)
PLAIN_DATA: list = [None]  # the data of the innermost one (host_tables.table_numbers counts it)


@contextmanager
def plain_numbers(data: Any = None) -> Iterator[None]:
    """Around `torch.tensor(data)` where the data is Python numbers alone (no tensor in it,
    checked here): the lift_fresh it dispatches carries values host Python made, counted in
    host_made as `torch.full`'s are, and nothing C++ read out of a tensor."""
    PLAIN_NUMBERS[0] += 1
    held, PLAIN_DATA[0] = PLAIN_DATA[0], data
    try:
        yield
    finally:
        PLAIN_NUMBERS[0] -= 1
        PLAIN_DATA[0] = held


def plain_numbers_known() -> None:
    """`torch.tensor([scale], device=x.device)` is a constant the host made, as
    `torch.full((1,), scale)` is: the provenance watch treats its lift_fresh so (counted in
    host_made) when the data is plain Python numbers, in lists and tuples. Data holding a
    tensor (a 0-dim result PyTorch computed, whose value C++ reads with no dispatched op) or
    anything else keeps the mark of values made on the host."""
    real = torch.tensor

    def tensor(data: Any, *args: Any, **kwargs: Any) -> Any:
        if not _plain(data, 0):
            return real(data, *args, **kwargs)
        with plain_numbers(data):
            return real(data, *args, **kwargs)

    torch.tensor = tensor  # type: ignore[assignment]


def _plain(data: Any, depth: int) -> bool:
    """Whether `data` is a number, or lists and tuples of them (exact types: a subclass could
    run code or hold a tensor), a few levels deep."""
    if type(data) in (int, float, bool):
        return True
    return type(data) in (list, tuple) and depth < 4 and len(data) <= PLAIN_MAX and all(
        _plain(v, depth + 1) for v in data)
