"""What the candidate's code may observe in the dry launch model's forward (evaluator.dry_launch),
and where it observes what the model cannot answer as the GPU's forward would.

The model runs the forward at the declared sizes, where no trial checks what it does, so a
forward that tells the model's run from the GPU's launches the full grid there and a capped one
on the GPU. Answering tells by name left the class open: `x.is_meta` and `x.data_ptr() == 0`
(red team s61d) were answered, then `"meta" in repr(x)` (session 61 review), `x.type()`'s
`torch.cuda.meta.FloatTensor`, an f-string of `x`, and the made-up addresses' own window each
told the model apart (s62a, ok before); a value read to the host (`.item()`, `bool(t)`) raised
on meta tensors, so the forward had no model and its ok stood (s61d, s62a).

So the model's forward runs in two ways (`start`), and the candidate's observations are
judged, not listed:
- "meta": on meta tensors (free at any size). A call given a meta tensor answers the
  candidate (its own code or any library acting for it: the nearest frame past torch's,
  Triton's and generated code's that is not the harness's, `_asker`) only where a meta
  tensor's answer is a device tensor's: a tensor (a meta one, holding no value), or metadata
  (`_METADATA`: shapes, strides, dtype; is_meta False, cuda:0 and torch.cuda's type() as
  candidate_env answers them). Anything else (text, an address, a host value, an exception)
  stops that forward (`Told`: no `try` in a forward catches it) and the forward runs again
  the other way.
- "real": on the problem's own CPU draw at the same sizes, as a CPU trial runs (the answers
  are a CPU trial's, so a tell here is a tell of every trial: the CPU-against-GPU class, not the
  model's), its launches recorded and not run, fresh memory holding noise as in every checked
  forward. A storage handed to a parameter a launch may store through
  (`dry_facts.stored_params`) then holds what the GPU would have overwritten: it is
  `launched`, and everything computed from it (`Taint`, every aten op); a value of it reaching
  the host (a non-metadata answer, a scalar read, a shape its values make: `nonzero`, a
  boolean mask's index) stops the forward (`needs`: the launches it came from), which runs
  again with those launches run as a CPU trial runs them (`Recorded`; evaluator.dry_phase
  `_rerun`); where that has no answer either, dry_phase refuses it, never keeps the ok.

What is left: torch's meta functions' output metadata where CUDA's kernels make other strides
(the model's forward then sees the meta function's, a CPU trial the CPU's; a convolution's
channels-last output is given cuDNN's, evaluator.dry_memory, session 65). A problem whose
declared inputs are past `REAL_ELEMENTS` has no real forward: a meta forward needing one there
is refused (evaluator.dry_phase `too_large`, session 65; it kept the ok before).
"""
from __future__ import annotations

import os
import sys
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from evaluator import dry_values

NOT_ANSWERED = object()
_IS_META = torch._C.TensorBase.__dict__["is_meta"]
_TYPE = torch._C.TensorBase.type
REAL_ELEMENTS = 1 << 28  # input elements of the declared sizes' real forward at most


class Told(RuntimeError):
    """The candidate's code observed what the model cannot answer as the GPU would."""


_WATCH: list[Any] = [None]  # None, "meta" or "real"
_TOLD: list[str | None] = [None]
_LAUNCHED: dict[int, Any] = {}  # storage key -> the storage (held: no key reused in the forward)
_FROM: dict[int, set[int]] = {}  # storage key -> the launches (ordinals) its values come from
_NEEDS: set[int] = set()  # the launches the value a tell read back comes from
_FEEDS: set[int] = set()  # the launches whose stores a launch its loaded values steer loads (`feeds`)

# answers a meta tensor gives as a device tensor does: metadata, never a value, text or address
_METADATA = frozenset({
    "shape", "size", "stride", "dim", "ndim", "ndimension", "numel", "nelement", "dtype", "layout",
    "element_size", "itemsize", "nbytes", "storage_offset", "is_contiguous", "is_floating_point",
    "is_complex", "is_signed", "requires_grad", "is_leaf", "grad", "grad_fn", "is_pinned",
    "is_inference", "is_conj", "is_neg", "is_sparse", "is_quantized", "is_mkldnn", "is_nested",
    "is_cpu", "is_cuda", "device", "get_device", "__len__", "__hash__", "__iter__", "dim_order",
    "is_same_size", "result_type", "is_tensor"})
# and in the real forward, an address and a type name: a CPU trial's own answers
_REAL_METADATA = _METADATA | {"data_ptr", "type", "is_meta"}


def start(phase: str | None) -> None:
    """Watch the forward about to run (`phase` "meta" or "real"), or stop watching (None)."""
    _WATCH[0], _TOLD[0] = phase, None
    if phase is not None:  # the copies outlive the forward: the model reads them after it
        dry_values.start()
    _LAUNCHED.clear()
    _FROM.clear()
    _NEEDS.clear()
    _FEEDS.clear()


def told() -> str | None:
    """What the forward observed that the model cannot answer (None: nothing)."""
    return _TOLD[0]


def needs() -> list[int]:
    """The launches (ordinals in the forward) whose stores the value the tell read back comes
    from, their inputs' launches included: those a real forward run again must run."""
    return sorted(_NEEDS)


def feeds() -> list[int]:
    """The launches (ordinals) whose stores a later launch loads where its loaded values steer
    its stores (dry_facts `unmasked`), their inputs' launches included: not run, their stores
    are nothing evaluator.dry_values may read, so every lane that flag decides stayed the data's
    (red team s67e: a flag a one-program launch sets to 1 chose a capped grid's store lanes, ok
    at 1.0061). evaluator.dry_phase `_rerun` runs the forward again with them run, as a CPU
    trial runs them, where the model's stores are the data's to decide."""
    return sorted(_FEEDS)


def _tell(what: str, tensors: Any = ()) -> None:
    if _TOLD[0] is None:
        _TOLD[0] = what
        _NEEDS.update(_sources(tensors))
    raise Told(f"the dry launch model cannot answer {what} as the GPU would")


def _sources(value: Any) -> set[int]:
    """The launches the values of the tensors in `value` come from (none: not launched)."""
    out: set[int] = set()
    for t in _tensors(value):
        out |= _FROM.get(_key(t), set())
    return out


def answer(func: Any, args: tuple) -> Any:
    """The GPU forward's answer to `func(*args)` asked of a meta tensor in the meta forward by
    the candidate's side (`_asker`), or NOT_ANSWERED: is_meta False, type() torch.cuda's. Not
    data_ptr(): the model's memory (evaluator.dry_memory) lies where the GPU's allocator would
    put it but for where its pools stand, which it makes up, and a made-up answer is a tell of
    its own (s62a's address window); the real forward answers a CPU trial's address."""
    if _WATCH[0] != "meta" or not args or not isinstance(args[0], torch.Tensor) or not _is_meta(args[0]):
        return NOT_ANSWERED
    if getattr(func, "__self__", None) is _IS_META:
        return False if _asker() is not None else NOT_ANSWERED
    if func is _TYPE and len(args) == 1 and _asker() is not None:
        return "torch.cuda." + func(*args).rsplit(".", 1)[-1]
    return NOT_ANSWERED


def observed(func: Any, args: tuple, kwargs: dict, out: Any) -> None:
    """Stop the forward (`Told`) where the candidate's side observes, of a meta tensor (or in
    the real forward, of a launched storage), anything but a tensor or metadata."""
    phase = _WATCH[0]
    if phase is None or _value_free(out):
        return
    if _name(func) in (_METADATA if phase == "meta" else _REAL_METADATA) and not _meta_said(out):
        return
    asker = any(_suspect(t) for t in _tensors((args, kwargs))) and _asker()
    if not asker:
        return
    _tell(f"`{_name(func)}` of a tensor" + (" on the model's meta tensors" if phase == "meta"
                                              else " a launch the model does not run may have stored") + f" ({asker})",
          (args, kwargs))


def _meta_said(out: Any) -> bool:
    """Whether a device answer is the meta device's (`x.device` or `x.get_device()` asked by
    a library, where candidate_env answers the candidate's own code cuda:0)."""
    return isinstance(out, torch._C.device) and out.type == "meta" or _WATCH[0] == "meta" and out == -1


def _name(func: Any) -> str:
    name = getattr(func, "__name__", "")
    return getattr(getattr(func, "__self__", None), "__name__", name) if name == "__get__" else name


def _value_free(out: Any) -> bool:
    if out is None or isinstance(out, torch.Tensor):
        return True
    return isinstance(out, (tuple, list)) and not isinstance(out, torch.Size) and all(map(_value_free, out))


def _tensors(value: Any, depth: int = 0):
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (list, tuple)) and depth < 3:
        for v in value:
            yield from _tensors(v, depth + 1)
    elif isinstance(value, dict) and depth < 3:
        for v in value.values():
            yield from _tensors(v, depth + 1)


def _suspect(t: torch.Tensor) -> bool:
    if _WATCH[0] == "meta":
        return _is_meta(t)
    return _key(t) in _LAUNCHED


def _is_meta(t: torch.Tensor) -> bool:
    """Where `t` is, asked past every torch function mode: asked inside one (a tensor's text,
    candidate_env.tensor_text), candidate_env's answer would be the one the candidate gets,
    is_meta False, and no text of a meta tensor was ever judged (session 62 review)."""
    with torch._C.DisableTorchFunction():
        return bool(_IS_META.__get__(t))


def _hold(t: torch.Tensor, sources: set[int]) -> None:
    """Mark `t`'s storage launched, its values coming from the launches `sources` (held: its
    key is not reused while the forward runs)."""
    key = _key(t)
    if key == -1:
        return
    if key not in _LAUNCHED:
        with torch._C.DisableTorchFunction():
            _LAUNCHED[key] = t.untyped_storage()
    _FROM.setdefault(key, set()).update(sources)


def _key(t: torch.Tensor) -> int:
    with torch._C.DisableTorchFunction():
        try:
            return t.untyped_storage()._cdata
        except (RuntimeError, NotImplementedError):  # no storage of its own (never launched)
            return -1


_TORCH = os.path.dirname(torch.__file__) + os.sep
_TRITON = os.path.join(os.path.dirname(_TORCH.rstrip(os.sep)), "triton") + os.sep
_HARNESS = os.path.dirname(os.path.abspath(__file__)) + os.sep
# harness modules that ask on the candidate's behalf: watched_reads' tolist reads one element at a
# time (.item()) for the candidate that called it (red team s65f: an unrun probe's flag read by
# `flag.tolist()` told nothing, and the full grid went to the model only: ok on main)
_HANDING_ON = tuple(os.sep + f for f in ("candidate_env.py", "cuda_fidelity.py", "cuda_values.py", "cuda_orders.py",
                                         "dry_tells.py", "watched_reads.py"))


def _asker() -> str | None:
    """Whether the nearest frame past torch's, Triton's and this mode's own is not the harness's:
    the candidate's code, or any library it handed the tensor to (a dataclass's repr). Triton
    called by the launch hook (device_compile's specialization reads data_ptr, in the binder
    Triton generates: a "<string>" frame, passed as a dataclass's generated repr is) is the
    harness's."""
    frame = sys._getframe(1)
    while frame is not None:
        path = frame.f_code.co_filename
        if not path.startswith((_TORCH, _TRITON, "<")) and not path.endswith(_HANDING_ON):
            return None if os.path.abspath(path).startswith(_HARNESS) else f"{os.path.basename(path)}:{frame.f_lineno}"
        frame = frame.f_back
    return None


def launched(kernel: Any, args: tuple, kwargs: dict, ordinal: int, ran: bool = False) -> None:
    """A launch of the real forward (`ordinal`: its place among the forward's launches): the
    storages it may store into come from it and from its inputs' launches, or where it `ran`
    (a launch whose stores a tell read back, run again: `Recorded`), from its inputs' alone
    (launched only where one of them is)."""
    sources = _sources((args, kwargs)) | (set() if ran else {ordinal})
    if sources:
        for t in _handed(kernel, args, kwargs):
            _hold(t, sources)


def _handed(kernel: Any, args: tuple, kwargs: dict, loads: bool = False) -> list:
    """The tensors handed to the parameters a store (with `loads`, a load) of `kernel` may
    reach (dry_facts `stored_params`, `loaded_params`; every one where that is not known)."""
    from evaluator import dry_facts

    fn = kernel
    while fn is not None and not hasattr(fn, "arg_names"):
        fn = getattr(fn, "fn", None)
    reached = None if fn is None else dry_facts.loaded_params(fn) if loads else dry_facts.stored_params(fn)
    names = list(getattr(fn, "arg_names", ()))
    given = [(names[i] if i < len(names) else None, v) for i, v in enumerate(args)] + list(kwargs.items())
    return [t for name, value in given if reached is None or name is None or name in reached for t in _tensors(value)]


class Recorded(list):
    """`LaunchRecorder.dry` in the real forward: each launch kept is `launched`. The launches
    whose ordinals are in `runs` also run as in a CPU trial (`runs_next`, `ran`): a forward that
    read back what they stored (MoE routing's counts, a compaction's count) runs again with them
    run, so the host reads the values a CPU trial reads, never the model's noise."""

    def __init__(self, runs: Any = ()) -> None:
        super().__init__()
        self.runs = frozenset(int(i) for i in runs)

    def runs_next(self) -> bool:
        """Whether the launch being made runs (its ordinal is in `runs`)."""
        return len(self) in self.runs

    def append(self, made: Any) -> None:
        kernel, _, args, kwargs = made
        # what its storages hold now, where the GPU's launch loads the same (evaluator.dry_values)
        try:
            dry_values.take(len(self), kernel, list(_tensors((args, kwargs))), _LAUNCHED, _key)
        except dry_values.Past as exc:  # never a kept ok: the model cannot read what it loads
            _tell(str(exc))
        if dry_values.steers(kernel):  # what earlier launches stored, it loads: `feeds`
            _FEEDS.update(_sources(_handed(kernel, tuple(args), dict(kwargs), loads=True)))
        launched(kernel, tuple(args), dict(kwargs), len(self))
        super().append(made)

    def running(self, kernel: Any, args: tuple, kwargs: dict) -> Any:
        """Around a launch it runs (`runs_next`): what it stores into a storage torch.empty made
        is known from then on where it loaded nothing unset (evaluator.dry_ran)."""
        from evaluator import dry_ran

        with torch._C.DisableTorchFunction():
            loaded = _handed(kernel, tuple(args), dict(kwargs), loads=True)
            stored = _handed(kernel, tuple(args), dict(kwargs))
        return dry_ran.recording(loaded, stored, _key, _LAUNCHED)

    def ran(self, made: Any) -> None:
        """Keep a launch that ran (its programs run by the interpreter, its stores real); one
        whose grid the launch hook did not resolve has no model: a tell, never a kept ok."""
        kernel, grid, args, kwargs = made
        if not (isinstance(grid, tuple) and all(type(d) is int for d in grid)):
            _tell("a launch run in the real forward whose grid the launch hook did not resolve")
        launched(kernel, tuple(args), dict(kwargs), len(self), ran=True)
        super().append(made)


# aten ops that hand the host a value: a scalar, or a result whose shape the values make (the
# metadata of `torch.nonzero(y)` counts y's nonzeros); indexing by a boolean mask is one too
_READS = frozenset({"_local_scalar_dense", "equal", "is_nonzero", "item", "nonzero", "nonzero_static",
                    "argwhere", "masked_select", "unique", "_unique", "_unique2", "unique_consecutive",
                    "unique_dim", "unique_dim_consecutive", "repeat_interleave", "bincount"})


def _reads(func: Any, args: tuple, kwargs: dict) -> bool:
    name = func.overloadpacket.__name__
    if name in _READS:
        return True
    return name == "index" and any(
        t.dtype in (torch.bool, torch.uint8) and _key(t) in _LAUNCHED for t in _tensors((args[1:], kwargs)))


class Taint(TorchDispatchMode):
    """The real forward's aten ops: an op given a launched storage makes launched results
    (an in-place one, its target), and one reading such a value to the host for the candidate's
    side (`_asker`: not the launch hook's own argument checks) stops it."""

    def __torch_dispatch__(self, func: Any, types: Any, args: tuple = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        hot = bool(_LAUNCHED) and any(_key(t) in _LAUNCHED for t in _tensors((args, kwargs)))
        asker = hot and _reads(func, args, kwargs) and _asker()
        if asker:
            _tell(f"`{func.overloadpacket.__name__}` of a value a launch the model does not run may have "
                  f"stored ({asker})", (args, kwargs))
        out = func(*args, **kwargs)
        with torch._C.DisableTorchFunction():  # what memory left as it was makes (evaluator.dry_values)
            dry_values.observed(func, args, kwargs, out, _key, _tensors)
        if hot:
            sources = _sources((args, kwargs))
            for t in _tensors(out):
                _hold(t, sources)
        return out


def names_meta(device: Any) -> bool:
    """Whether a device argument names the meta device."""
    if isinstance(device, torch._C.device):  # torch.device itself (candidate_env rebinds the name)
        return device.type == "meta"
    return isinstance(device, str) and (device == "meta" or device.startswith("meta:"))
