"""What a candidate child's process looks like to the candidate, set up before its module is
imported (and before the integrity check's baseline): under the CPU interpreter, CUDA tensors
(a tensor's device, the host tensors the GPU would hold on the host, CUDA's float->int
conversions) and, through evaluator.device_answers, the H200's answers to device queries;
everywhere, one environment and host size. Reads of tensor values that C++ would hide from
the provenance watch are made visible by evaluator.watched_reads."""
from __future__ import annotations

import os
import sys
import weakref
from collections.abc import Iterator, MutableMapping
from typing import Any

import torch
import torch.cuda.nvtx
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

from evaluator import dry_tells


def interpreted_tensors_look_like_cuda() -> None:
    """Under Triton's interpreter the candidate's tensors live on the CPU, so the honest
    fallback `if not x.is_cuda: return <torch>` would skip every kernel: in a CPU candidate
    child `Tensor.is_cuda` answers True, and to the candidate's own code `x.device` is cuda:0
    (_CudaNamesTheHost). Only Python reads these; torch's C++ never looks at them."""
    STANDING_IN[0] = True
    # torch._dynamo, which a dispatch mode's entry imports (_CudaCasts), checks the signature of
    # Tensor.__new__ at import: imported before the legacy constructor's stand-in (as the
    # children's preload does already: evaluator.child)
    import torch._dynamo  # noqa: F401
    _legacy_constructor()
    torch.Tensor.is_cuda = property(lambda self: self not in HOST_TENSORS)  # type: ignore[assignment]
    # and the device queries answer as the H200's (evaluator.device_answers)
    from evaluator import device_answers

    device_answers.install()
    # and the CUDA device named outright (`torch.empty(n, device="cuda")`, `.to("cuda")`,
    # `.cuda()`), as KernelBench solutions write beside `if x.is_cuda:` (honest round, session
    # 25: "Torch not compiled with CUDA enabled" on the CPU only): it names the interpreter's
    # device, for the child's whole life (a function mode never reached by the candidate: the
    # static allowlist keeps torch.overrides out of its hands)
    _CudaNamesTheHost().__enter__()
    # and `torch.device(torch.cuda.current_device())`, the index given to the constructor, which
    # no function mode sees and a CPU build refuses ("Cannot access accelerator device"): it
    # makes the device a CUDA build makes, cuda:N, which the mode above maps where it is used
    torch.device = _IndexNamesCuda  # type: ignore[misc]
    _cuda_autocast_on_the_host()


def _cuda_autocast_on_the_host() -> None:
    """`torch.autocast("cuda", ...)` (and torch.cuda.amp's, custom_fwd's) runs as CUDA's autocast:
    torch's own CUDA autocast state, and CUDA's casting policy over the tensors that stand in for
    the GPU's (evaluator.candidate_autocast says how and why)."""
    from evaluator import candidate_autocast

    candidate_autocast.on_the_gpus_terms()


def host_queries_alike() -> None:
    """In every candidate child, CPU or GPU: the host's size answers one number (16, an H200
    host's cores), where the CPU check's 2 and a GPU host's 16 to 128 told them apart (red team
    s45b: `os.cpu_count()`); and, in a CPU child, the environment the candidate's code reads is
    the GPU child's (TRITON_INTERPRET=1 is the interpreter's, and it was the plainest tell)."""
    from evaluator import device_answers

    os.cpu_count = device_answers.answered(os.cpu_count, 16)  # type: ignore[assignment]
    torch.get_num_threads = device_answers.answered(torch.get_num_threads, 16)  # type: ignore[assignment]


# The environment every candidate child's own code reads, CPU or GPU, on any host: the CPU
# child's TRITON_INTERPRET was the plainest tell, and the rest differ from host to host and
# device to device too (the GPU worker's CUDA_VISIBLE_DEVICES, which a CPU child never has:
# red team s46). Triton, torch and the harness read the real one.
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp",
               "TMPDIR": "/tmp", "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}


def gpu_environment() -> None:
    """os.environ as the candidate's code sees it, in every candidate child: ENVIRONMENT."""
    # (the mapping object replaced, not cleared: the real one stays inside, for torch and the harness)
    os.environ = _GpuEnviron(os.environ)  # type: ignore[assignment]  # noqa: B003


class _GpuEnviron(MutableMapping):
    """os.environ, answering the candidate's own reads (directly or through os.getenv) with
    ENVIRONMENT."""

    def __init__(self, real: Any) -> None:
        self._real = real

    def _view(self) -> Any:
        return dict(ENVIRONMENT) if _asked_by_candidate() else self._real

    def __getitem__(self, key: Any) -> Any:
        return self._view()[key]

    def get(self, key: Any, default: Any = None) -> Any:
        return self._view().get(key, default)

    def __contains__(self, key: Any) -> bool:
        return key in self._view()

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._view()))

    def __len__(self) -> int:
        return len(self._view())

    def __setitem__(self, key: Any, value: Any) -> None:
        self._real[key] = value

    def __delitem__(self, key: Any) -> None:
        del self._real[key]

    def copy(self) -> dict:
        return dict(self._view())

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


_PASSED_THROUGH = (f"{os.sep}_collections_abc.py", f"{os.sep}os.py", f"{os.sep}candidate_env.py",
                   "<frozen _collections_abc>", "<frozen os>")  # frozen modules name no file


def _asked_by_candidate() -> bool:
    """Whether the frame that asked the environment, past os.getenv and the Mapping methods
    (`dict(os.environ)` iterates through KeysView), runs the candidate's file: every method
    then answers from the same view."""
    return _caller_is_candidate(sys._getframe(2), lambda name: name.endswith(_PASSED_THROUGH))


def _caller_is_candidate(frame: Any, passes: Any) -> bool:
    """Whether the first frame from `frame` down whose file `passes` does not pass runs the
    candidate's file."""
    while frame is not None and passes(frame.f_code.co_filename):
        frame = frame.f_back
    return frame is not None and frame.f_code.co_filename.endswith(f"{os.sep}candidate.py")


_DEVICE = torch.device  # the C type; immutable, and no base of a Python class


class _DeviceConstructor(type):
    """The class of `torch.device` in a CPU candidate child: isinstance and issubclass answer as
    for the real type, and calling it makes a real device (an index alone names cuda:N, as a
    CUDA build of torch reads it)."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, _DEVICE)

    def __subclasscheck__(cls, sub: Any) -> bool:
        return issubclass(sub, _DEVICE)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and not kwargs and type(args[0]) is int and args[0] >= 0:
            return _DEVICE("cuda", args[0])
        return _DEVICE(*args, **kwargs)

    def __getattribute__(cls, name: str) -> Any:
        """Every attribute read off the class is the real type's (`torch.device.type`, the
        descriptor `.type`/`.index` are read through, its names, its docs, its dict): a stand-in
        class without them told the CPU child apart (red team s46 rt23)."""
        return getattr(_DEVICE, name)


class _IndexNamesCuda(metaclass=_DeviceConstructor):
    """torch.device in a CPU candidate child (never instantiated: calls make real devices).
    `type(d) is torch.device` is False here, where it is True on a GPU: a C type cannot be
    replaced by a subclass of itself, so only the name torch.device changes."""


# under the real type's names (`torch.device.__name__` read "_IndexNamesCuda": red team s46)
_IndexNamesCuda.__name__ = _IndexNamesCuda.__qualname__ = "device"
_IndexNamesCuda.__module__ = "torch"


def _names_cuda(device: Any) -> bool:
    if isinstance(device, _DEVICE):
        return device.type == "cuda"
    if type(device) is int:  # a bare index names the accelerator (cuda:N): Megatron's
        return device >= 0  # device=torch.cuda.current_device() (honest round, session 26)
    return isinstance(device, str) and (device == "cuda" or device.startswith("cuda:"))


# what a tensor says of its device, read as the GPU's answer by the candidate's own code
_DEVICE_GETTERS = {id(torch._C.TensorBase.__dict__["device"]): "device",
                   id(torch._C.TensorBase.__dict__["is_cpu"]): "is_cpu"}
_GET_DEVICE = torch._C.TensorBase.get_device
_TYPE = torch._C.TensorBase.type
_IS_SHARED = torch.Tensor.is_shared


def _candidate_below(limit: int = 48) -> bool:
    """Whether any of the calling frames (up to `limit`) runs the candidate's file."""
    frame = sys._getframe(1)
    for _ in range(limit):
        if frame is None:
            return False
        if frame.f_code.co_filename.endswith(f"{os.sep}candidate.py"):
            return True
        frame = frame.f_back
    return False


def _legacy_constructor() -> None:
    """`torch.Tensor(n)`, the legacy constructor no function mode sees, makes a host tensor on
    the GPU (outside the model's build): known as one here too (red team s45b)."""
    real = torch._C.TensorBase.__new__

    def __new__(cls: Any, *args: Any, **kwargs: Any) -> Any:
        t = real(cls, *args, **kwargs)
        if not BUILDING[0] and "device" not in kwargs and _candidate_below():
            HOST_TENSORS.add(t)
        return t

    torch.Tensor.__new__ = __new__  # type: ignore[method-assign, assignment]


_TORCH_DIR = os.path.dirname(torch.__file__) + os.sep
# evaluator modules whose frames hand a candidate's torch call on (the function modes)
_HANDING_ON = (f"{os.sep}candidate_env.py", f"{os.sep}cuda_fidelity.py", f"{os.sep}cuda_values.py",
               f"{os.sep}cuda_orders.py")


def _asked_by_candidate_through_torch() -> bool:
    """Whether the first caller past torch's own Python (a Tensor method, handle_torch_function)
    and the function modes that hand the call on is the candidate's file: its own question,
    however many modes stand between (a depth limit broke when a mode was added)."""
    return _caller_is_candidate(sys._getframe(2), lambda name: (
        name.startswith(_TORCH_DIR) or name.endswith(_HANDING_ON)) and not name.endswith(f"{os.sep}candidate.py"))


def candidate_frame(depth: int) -> bool:
    """Whether the Python frame `depth` levels up runs the candidate's file (the workspace's
    candidate.py, evaluator.runner): its own code, not torch's or the harness's."""
    try:
        return sys._getframe(depth + 1).f_code.co_filename.endswith(f"{os.sep}candidate.py")
    except ValueError:
        return False


# Tensors the candidate's code made where, on the GPU, they would live on the host: made with
# no device outside the model's build (torch's default device is the CPU there too), named
# "cpu", `.cpu()`, or computed from such tensors alone. To the candidate's own code these
# answer "cpu" (a fresh `torch.empty(0)` saying cuda:0 told the CPU check from the GPU the
# other way round), and a launch refuses them, as the GPU's launcher refuses a CPU tensor.
class _ByIdentity:
    """A weak set of tensors by identity (a WeakSet compares tensors with ==, elementwise)."""

    def __init__(self) -> None:
        self._refs: dict[int, weakref.ref] = {}

    def add(self, t: Any) -> None:
        key = id(t)

        def gone(ref: weakref.ref, key: int = key) -> None:
            if self._refs.get(key) is ref:
                del self._refs[key]

        self._refs[key] = weakref.ref(t, gone)

    def __contains__(self, t: Any) -> bool:
        ref = self._refs.get(id(t))
        return ref is not None and ref() is t


HOST_TENSORS = _ByIdentity()
STANDING_IN = [False]  # this child's tensors stand in for the GPU's (a CPU candidate child)


def tensor_text(self: torch.Tensor, *_args: Any, **_kwargs: Any) -> str:
    """A tensor's text in a child (evaluator.child: its shape, dtype and device, never its
    values), the device on the GPU's side where the CPU child stands in for it. In the dry
    launch model's forward it is an answer like any other (dry_tells.observed: text of a meta
    tensor stops the meta forward): the child's own __repr__ passes no torch function mode, so
    `"meta" in repr(x)` told the model apart in the pipeline (session 62 review) while the
    mode's unit tests, on torch's own __repr__, saw it told. Here, in a module dry_tells passes
    over, so the frame that asked is the caller's."""
    with torch._C.DisableTorchFunction():  # where it is (this module's frames ask as the candidate)
        device, shape, dtype = self.device.type, tuple(self.shape), self.dtype
    if device == "cpu" and STANDING_IN[0] and self not in HOST_TENSORS:
        device = "cuda"
    text = f"tensor(shape={shape}, dtype={dtype}, device={device})"
    if dry_tells._WATCH[0] is not None:
        dry_tells.observed(repr, (self,), {}, text)
    return text
BUILDING = [False]  # the model's build: on the GPU under `with torch.device("cuda")` (model_build)
# from a timed batch's draws to its commit's sums (evaluator.timed_steps): the launch recorder,
# whose `stray` counts torch calls of the candidate's code made while no forward runs
TIMED_STEP: list[Any] = [None]
_MOVE_FUNCTIONS = (torch.Tensor.to, torch.Tensor.cpu, torch.Tensor.cuda)


def _tensors_in(value: Any, depth: int = 0) -> Iterator[Any]:
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (list, tuple)) and depth < 3:
        for v in value:
            yield from _tensors_in(v, depth + 1)
    elif isinstance(value, dict) and depth < 3:
        for v in value.values():
            yield from _tensors_in(v, depth + 1)


def _names_cpu(device: Any) -> bool:
    if isinstance(device, _DEVICE):
        return device.type == "cpu"
    return isinstance(device, str) and (device == "cpu" or device.startswith("cpu:"))


def _on_the_host(func: Any, args: tuple, kwargs: dict, given: list) -> bool:
    """Whether the GPU would hold this call's result on the host (see HOST_TENSORS)."""
    if func is torch.Tensor.cpu:
        return True
    if func in (torch.Tensor.to, torch.Tensor.cuda):
        target = kwargs.get("device", args[1] if len(args) > 1 and not isinstance(args[1], torch.dtype) else None)
        if func is torch.Tensor.cuda or _names_cuda(target) or isinstance(target, torch.Tensor) and (
                target not in HOST_TENSORS):
            return False
        if target is not None and (_names_cpu(target) or isinstance(target, torch.Tensor)):
            return True
        return args[0] in HOST_TENSORS
    if "device" in kwargs and kwargs["device"] is not None:
        return _names_cpu(kwargs["device"])
    if given:
        return all(t in HOST_TENSORS for t in given)
    return not BUILDING[0] and torch.get_default_device().type == "cpu"


# where the CUDA device named by the candidate's code is made: the host's memory, or in the dry
# launch model's forward (evaluator.dry_launch) meta tensors, which then answer cuda:0 as a
# host tensor does (a `torch.cuda.get_device_properties(x.device)` found no model, session 60)
STANDING_DEVICE = ["cpu"]


class _CudaNamesTheHost(TorchFunctionMode):
    """A CPU candidate child's torch calls with the CUDA device as an argument (a `device=`
    keyword, `.to("cuda")`'s first argument, `.cuda()`; "cuda", "cuda:N", a CUDA torch.device
    or a bare index N) get the CPU instead; nothing else changes. Only a device's name is
    rewritten, never a value or a dtype. `torch.device(0)` itself, a constructor no mode
    sees, makes cuda:0 (_IndexNamesCuda).

    And the candidate's own code, asking a tensor where it lives (`x.device`, `x.is_cpu`,
    `x.get_device()`), gets the GPU's answer (cuda:0), so a test of `x.device.type` takes the
    branch the GPU takes and that branch is the one checked: an arm for "cpu" that launched
    the right kernel and one for "cuda" that launched a wrong one got ok on the CPU (red team
    s45). Torch's and the harness's own reads still see the CPU, where the tensor is."""

    def __torch_function__(self, func: Any, types: Any, args: tuple = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        if dry_tells._WATCH[0] is None:
            return self._answered(func, args, kwargs)
        # the dry launch model's forward: what the candidate's side observes is judged there
        answered = dry_tells.answer(func, args)
        if answered is not dry_tells.NOT_ANSWERED:
            return answered
        out = self._answered(func, args, kwargs)
        dry_tells.observed(func, args, kwargs, out)
        return out

    def _answered(self, func: Any, args: tuple, kwargs: dict) -> Any:
        step = TIMED_STEP[0]
        if step is not None and not step.in_forward and _candidate_below():
            # the harness's own arithmetic there passes this mode (DisableTorchFunction): the
            # candidate's code computing between the draws and the sums, out of go's clock
            # (red team rt81: torch made half a relu on the draws in arm, uncharged)
            step.stray += 1
        getter = _DEVICE_GETTERS.get(id(getattr(func, "__self__", None)))
        if func is _IS_SHARED and _asked_by_candidate_through_torch() and args[0] not in HOST_TENSORS:
            return True  # a CUDA tensor is always "shared" (its memory is the device's)
        if func is _TYPE and len(args) == 1 and not kwargs and candidate_frame(2):
            name = func(*args)  # `x.type()`: torch.cuda.FloatTensor for a tensor on the GPU
            return name if args[0] in HOST_TENSORS else name.replace("torch.", "torch.cuda.", 1)
        if getter is not None or func is _GET_DEVICE:
            real = func(*args, **kwargs)
            if not candidate_frame(2):
                return real
            host = bool(args) and args[0] in HOST_TENSORS
            if getter == "device":
                return real if host or real.type not in ("cpu", "meta") else _DEVICE("cuda", 0)
            if getter == "is_cpu":
                return host
            return real if host or real != -1 else 0
        # where the result lives on the GPU: made by the candidate's code, directly or through
        # torch's or a library's Python (`nn.Flatten(0)(...)`, einops, a `with torch.device`
        # context: red team s45b), or computed from tensors whose place is known
        given = list(_tensors_in((args, kwargs)))
        below = None if given and func not in _MOVE_FUNCTIONS else _candidate_below()
        if not (given and func not in _MOVE_FUNCTIONS or below):
            return self._converted(func, args, kwargs, given, below, None)
        host = _on_the_host(func, args, kwargs, given)
        out = self._converted(func, args, kwargs, given, below, host)
        if func in _MOVE_FUNCTIONS and out is args[0] and host != (args[0] in HOST_TENSORS):
            out = out.clone()  # on the GPU a move between host and device is a copy, never the same tensor
        if host:
            for t in _tensors_in(out):
                HOST_TENSORS.add(t)
        return out

    def _converted(self, func: Any, args: tuple, kwargs: dict, given: list, below: Any, host: Any) -> Any:
        """The call, under _CudaCasts where it may turn a floating tensor into integers: made from
        the candidate's code (directly or through torch's and libraries' Python), or given a
        floating tensor beside an integer dtype or tensor."""
        if not (_may_convert(func, args, kwargs, given) or (_candidate_below() if below is None else below)):
            return self._named(func, args, kwargs)
        with _CudaCasts(bool(host)):
            return self._named(func, args, kwargs)

    def _named(self, func: Any, args: tuple, kwargs: dict) -> Any:
        named = [kwargs.get("device")] + ([args[1]] if func is torch.Tensor.to and len(args) > 1 else [])
        if any(dry_tells.names_meta(d) for d in named) and _candidate_below():
            # a meta tensor of the candidate's own would answer otherwise in the dry launch
            # model's forward than on the GPU (evaluator.dry_tells)
            raise RuntimeError("the meta device is not available to a candidate on the CPU check")
        if _names_cuda(kwargs.get("device")):
            kwargs = {**kwargs, "device": STANDING_DEVICE[0]}
        if func is torch.Tensor.cuda:
            return args[0].to(**{k: v for k, v in kwargs.items() if k in ("non_blocking", "memory_format")})
        if func is torch.Tensor.to and len(args) > 1 and _names_cuda(args[1]):
            args = (args[0], STANDING_DEVICE[0], *args[2:])
        return func(*args, **kwargs)


def _may_convert(func: Any, args: tuple, kwargs: dict, given: list) -> bool:
    if func in _INTEGER_METHODS:
        return True
    if not any(_floating(t) for t in given):
        return False
    return any(_integral(t) for t in given) or any(
        isinstance(v, (torch.dtype, str, type)) for v in (*args, *kwargs.values()))


_INTEGER_METHODS = frozenset({torch.Tensor.int, torch.Tensor.long, torch.Tensor.short, torch.Tensor.char,
                              torch.Tensor.byte})


# Float to integer conversions of tensors, as CUDA makes them: out-of-range values saturate
# (NaN to 0) for 32-bit results, narrower ones wrap from there, 64-bit (and through it uint8)
# saturate with NaN to the minimum; x86's conversion gives the "integer indefinite" minimum
# for all of them, so a flag computed as `torch.full((1,), 1e10).to(torch.int32)` was INT_MIN
# on the CPU and INT_MAX on the H200 (red team s46; both recorded in evaluator/h200.json).
# Kernels' own casts are the interpreter's (interpreter_casts).
class _CudaCasts(TorchDispatchMode):
    """Around a torch call that may convert (`_CudaNamesTheHost._converted`): every aten op that
    turns a floating tensor into integers, seen at the dispatcher, converts as the device where
    the GPU converts it: `_to_copy` (`.to`, `.int()`, `.type`, `torch.tensor(t, dtype=)`,
    `as_tensor`, `asarray`, `new_tensor`...), `copy_` (`copy_`, item assignment) and `fill_`
    with a tensor value, and any op given an integer `dtype=` for a floating input (`sum`,
    `cumsum`, `prod`...). One set of Python entry points patched was a list a red team walked
    past (s46 rt23: torch.tensor, as_tensor, asarray, new_tensor, `empty(..).copy_`); every one
    of them reaches these ops. A conversion runs where CUDA's copy_ runs it (_converts_on_gpu);
    one on the host keeps x86's answer here, as it does on the GPU's host."""

    def __init__(self, result_on_host: bool) -> None:
        super().__init__()
        self.result_on_host = result_on_host

    def __torch_dispatch__(self, func: Any, types: Any, args: tuple = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        packet = func.overloadpacket
        if packet in (torch.ops.aten.copy_, torch.ops.aten.fill_) and len(args) >= 2 and _integral(args[0]) \
                and _floating(args[1]):
            if _converts_on_gpu(args[1] not in HOST_TENSORS, args[0] not in HOST_TENSORS,
                                kwargs.get("non_blocking", args[2] if len(args) > 2 else False)):
                args = (args[0], cuda_cast(args[1], args[0].dtype), *args[2:])
            return func(*args, **kwargs)
        dtype = kwargs.get("dtype")
        if isinstance(dtype, torch.dtype) and not dtype.is_floating_point and not dtype.is_complex \
                and dtype is not torch.bool and not _makes_new(func):
            into_device = packet is not torch.ops.aten._to_copy or not self.result_on_host
            args = tuple(cuda_cast(a, dtype) if _floating(a) and _converts_on_gpu(
                a not in HOST_TENSORS, into_device, kwargs.get("non_blocking", False)) else a for a in args)
        return func(*args, **kwargs)


_INT64 = torch.iinfo(torch.int64)


def _converts_on_gpu(from_device: bool, into_device: bool, non_blocking: Any) -> bool:
    """Where CUDA's copy_ converts dtypes: on the GPU between device tensors; between the host
    and the device on the GPU under non_blocking=True and on the CPU otherwise (copy_kernel_cuda's
    conversion_device)."""
    if from_device and into_device:
        return True
    return from_device != into_device and bool(non_blocking)


def _makes_new(func: Any) -> bool:
    """An allocation shaped after a tensor (`zeros_like`, `new_zeros`...): its values are not read."""
    name = func.__name__.split(".")[0]
    return name.endswith("_like") or name.startswith("new_")


def _floating(x: Any) -> bool:
    return isinstance(x, torch.Tensor) and x.is_floating_point()


def _integral(x: Any) -> bool:
    return isinstance(x, torch.Tensor) and not x.is_floating_point() and not x.is_complex() \
        and x.dtype is not torch.bool


# Unsigned types past uint8 whose conversion from floats on the device no measurement holds:
# copy_'s static_cast is PTX's cvt.rzi there (saturating: -1.0 -> 0), where x86 and the int64
# route below wrap (-1.0 -> 4294967295), so a flag made that way switched the CPU's ReLU on and
# the GPU's off (red team s62d, reasoned from PTX's cvt; h200.json measures uint8 alone)
_UNMEASURED = tuple(getattr(torch, n) for n in ("uint16", "uint32", "uint64") if hasattr(torch, n))


def cuda_cast(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """`x.to(dtype)` for a floating x and an integer dtype, as a CUDA device converts; a
    conversion whose device answer is not measured (`_UNMEASURED`) raises, as no answer here
    is known to be the GPU's."""
    if dtype in _UNMEASURED:
        raise RuntimeError(f"converting floating values to {dtype} on the device is not modelled by the CPU "
                           "check (the GPU's answer past the type's range is not measured); convert to a "
                           "signed type or in your kernel")
    d = x.detach().double()
    nan = torch.isnan(d)
    if dtype in (torch.int32, torch.int16, torch.int8):
        return torch.where(nan, 0.0, d).clamp(-(2.0 ** 31), 2.0 ** 31 - 1).to(torch.int64).to(dtype)
    high, low = d >= 2.0 ** 63, (d < -(2.0 ** 63)) | nan
    v = torch.where(high | low, 0.0, d).to(torch.int64)
    return torch.where(high, _INT64.max, torch.where(low, _INT64.min, v)).to(dtype)


