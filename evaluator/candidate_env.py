"""What a candidate child's process looks like to the candidate, set up before its module is
imported (and before the integrity check's baseline): under the CPU interpreter, CUDA tensors
and a CUDA device stand-in; everywhere, reads of tensor values that C++ would hide from the
provenance watch made visible."""
from __future__ import annotations

import functools
import inspect
import json
import os
import secrets
import sys
import types
import uuid
import weakref
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import torch
import torch.cuda.nvtx
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode


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
    # and the branch a CUDA tensor takes may size a persistent grid by the SM count: the GPU's
    # properties answer (H200), as `_NoDriver` does for Triton's driver (honest round, session
    # 16: "Torch not compiled with CUDA")
    # (torch's own code of each query runs, answered where it asks the driver, so its arguments
    # are taken and refused as on the GPU: a device the process lacks, a CPU device, a bool, a
    # stray keyword, with torch's exception and message; red team s46 rt23)
    torch.cuda.get_device_properties = interpreter_device_properties  # type: ignore[assignment]
    # and the device queries and the synchronize after a launch that KernelBench solutions
    # make (honest round, session 21: "Torch not compiled with CUDA" on the CPU only); there is
    # nothing to wait for under the interpreter, whose launches return when they are done
    torch.cuda.current_device = _stand_in(torch.cuda.current_device, lambda: 0)  # type: ignore[assignment]
    torch.cuda.get_device_capability = _through(  # type: ignore[assignment]
        torch.cuda.get_device_capability, get_device_properties=interpreter_device_properties)
    # and whether there is a GPU at all, asked by the candidate's own code: yes, one (the
    # GPU's answer, as for the tensors' device below; Triton's and torch's own questions still
    # get the CPU build's answer, so nothing of theirs looks for a CUDA driver)
    _gpu_answers()
    torch.cuda.synchronize = _stand_in(torch.cuda.synchronize, _synchronize)  # type: ignore[assignment]
    # and Liger's `with torch.cuda.device(x.device):` around a launch (the CPU device is no
    # CUDA device to switch to) and the NVTX markers, which a CPU build of torch refuses
    # (honest round, session 22)
    torch.cuda.device = _NoDeviceSwitch  # type: ignore[assignment, misc]
    # NVTX with no tool attached answers -2 (NVTX_NO_PUSH_POP_TRACKING) on the H200, where the
    # stand-in's 0 told them apart (red team s46)
    torch.cuda.nvtx.range_push = _stand_in(torch.cuda.nvtx.range_push, _nvtx("rangePushA", "int", -2))  # type: ignore[assignment]
    torch.cuda.nvtx.range_pop = _stand_in(torch.cuda.nvtx.range_pop, lambda: -2)  # type: ignore[assignment]
    torch.cuda.nvtx.mark = _stand_in(torch.cuda.nvtx.mark, _nvtx("markA", "None", None))  # type: ignore[assignment]
    torch.cuda.is_current_stream_capturing = _stand_in(torch.cuda.is_current_stream_capturing, lambda: False)  # type: ignore[assignment]
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


def _gpu_answers() -> None:
    """Every device query the static allowlist lets a candidate make (static_namespaces:
    torch.cuda, torch.backends, torch.accelerator, torch.version) answers, to the candidate's
    own code, as on the GPU the evaluator times on: a query that answered as a CPU build does
    was a switch between a path the CPU checked and one only the GPU runs (red team s45:
    `x.device.type`; `torch.cuda.is_available()`, `torch.backends.cudnn.is_available()` and
    `torch.version.cuda` were the same switch)."""
    cuda, accelerator = torch.cuda, torch.accelerator
    cuda.is_available = _answered(cuda.is_available, True)  # type: ignore[assignment]
    cuda.device_count = _answered(cuda.device_count, 1)  # type: ignore[assignment]
    cuda.get_device_name = _through(cuda.get_device_name, get_device_properties=interpreter_device_properties)  # type: ignore[assignment]
    cuda.is_bf16_supported = _answered(cuda.is_bf16_supported, True)  # type: ignore[assignment]
    torch.backends.cuda.is_built = _answered(torch.backends.cuda.is_built, True)  # type: ignore[assignment]
    torch.backends.cudnn.is_available = _answered(torch.backends.cudnn.is_available, True)  # type: ignore[assignment]
    torch.backends.cudnn.version = _answered(torch.backends.cudnn.version, 91900)  # type: ignore[assignment]
    accelerator.is_available = _answered(accelerator.is_available, True)  # type: ignore[assignment]
    accelerator.device_count = _answered(accelerator.device_count, 1)  # type: ignore[assignment]
    accelerator.current_accelerator = _answered(  # type: ignore[assignment]
        accelerator.current_accelerator, lambda: _DEVICE("cuda"), fresh=True)  # a new one each call, as torch's
    for name in ("current_device_index", "current_device_idx"):
        if hasattr(accelerator, name):
            setattr(accelerator, name, _answered(getattr(accelerator, name), 0))
    # an attribute, read by no CPU path of torch or Triton in the child (torch.cuda's lazy
    # initialisation, never reached on a CPU build, and meta kernels of CUDA-only ops)
    torch.version.cuda = IMAGE["versions"]["cuda"]  # type: ignore[misc]
    _versions_read_as_the_gpus()


def _versions_read_as_the_gpus() -> None:
    """`torch.__version__` ("+cpu" here, "+cu130" there), `torch.version.git_version` and
    `triton.__version__` read by the candidate's own code give the GPU image's (red team s46:
    each was a switch); torch's, Triton's and the harness's reads get the real ones. A module's
    attribute cannot ask who reads it, so each module gets a class of its own whose property
    asks (a data descriptor of the class is found before the module's own dict)."""
    import triton

    from torch.torch_version import TorchVersion

    v = IMAGE["versions"]
    _answered_attributes(torch, {"__version__": TorchVersion(v["torch"])})
    _answered_attributes(torch.version, {"__version__": TorchVersion(v["torch"]),
                                         "git_version": v["torch_git"]})
    _answered_attributes(triton, {"__version__": v["triton"]})


def _answered_attributes(module: Any, answers: dict[str, Any]) -> None:
    real = {name: module.__dict__[name] for name in answers if name in module.__dict__}

    def answer(name: str) -> property:
        return property(lambda self: answers[name] if candidate_frame(1) else real[name])

    cls = type("module", (type(module),), {name: answer(name) for name in real})
    cls.__module__ = "builtins"
    module.__class__ = cls


def _answered(real: Any, answer: Any, fresh: bool = False) -> Any:
    """`real`, answering `answer` (or `answer()`, `fresh`) where the candidate's own code calls it,
    or torch's own code run by a stand-in (_through), after taking its arguments as `real` does."""
    def query(*args: Any, **kwargs: Any) -> Any:
        if not (candidate_frame(1) or _ANSWERING[0]):
            return real(*args, **kwargs)
        _bound(real, args, kwargs)
        return answer() if fresh else answer

    return _like(real, query)


_ANSWERING = [0]  # a stand-in runs torch's own code: what that code asks is answered as on the GPU


def _stand_in(real: Any, fn: Any) -> Any:
    """`fn` under `real`'s names, taking and refusing arguments exactly as `real` does."""
    def call(*args: Any, **kwargs: Any) -> Any:
        _bound(real, args, kwargs)
        return fn(*args, **kwargs)

    return _like(real, call)


def _bound(real: Any, args: tuple, kwargs: dict) -> None:
    """Raise what `real` raises for arguments it cannot take: Python's own TypeError, raised by
    binding `real` itself (which fails before any of its body runs); a builtin is called, as its
    own parsing is the only statement of what it takes (the host queries, which do nothing)."""
    try:
        signature = inspect.signature(real)
    except (TypeError, ValueError):
        real(*args, **kwargs)
        return
    try:
        signature.bind(*args, **kwargs)
    except TypeError:
        inspect.unwrap(real)(*args, **kwargs)
        raise


def _through(real: Any, **answers: Any) -> Any:
    """`real`'s own code (so its argument handling, checks and messages are torch's), run with
    the module names it asks the driver through answered (`answers`, and torch's queries it
    calls answered as on the GPU while it runs)."""
    names = {"_lazy_init": lambda: None, **answers}
    copy = types.FunctionType(real.__code__, {**real.__globals__, **names}, real.__name__, real.__defaults__,
                              real.__closure__)
    copy.__kwdefaults__ = real.__kwdefaults__

    def call(*args: Any, **kwargs: Any) -> Any:
        _ANSWERING[0] += 1
        try:
            return copy(*args, **kwargs)
        finally:
            _ANSWERING[0] -= 1

    return _like(real, call)


def _synchronize(device: Any = None) -> None:
    """torch.cuda.synchronize's body with nothing to wait for: its device context (which takes,
    refuses and enters the device as the GPU's does)."""
    _ANSWERING[0] += 1  # the device is the candidate's, refused as on the GPU
    try:
        context = torch.cuda.device(device)
    finally:
        _ANSWERING[0] -= 1
    with context:
        return None


def _nvtx(binding: str, returns: str, answer: Any) -> Any:
    """An NVTX call with no tool attached: `answer`, for a message pybind11's `const char*` takes
    (str, bytes or None); anything else refused with pybind11's TypeError."""
    def call(msg: Any) -> Any:
        if msg is not None and not isinstance(msg, (str, bytes)):
            raise TypeError(f"{binding}(): incompatible function arguments. The following argument types are "
                            f"supported:\n    1. (arg0: str) -> {returns}\n\nInvoked with: {msg!r}")
        return answer

    return call


def _like(real: Any, fn: Any) -> Any:
    """`fn` under `real`'s names (its repr is the GPU's: `<function is_available at ...>`, not a
    stand-in's `_answered.<locals>.query`, which told the CPU child apart: red team s45b)."""
    functools.update_wrapper(fn, real)
    return fn


def host_queries_alike() -> None:
    """In every candidate child, CPU or GPU: the host's size answers one number (16, an H200
    host's cores), where the CPU check's 2 and a GPU host's 16 to 128 told them apart (red team
    s45b: `os.cpu_count()`); and, in a CPU child, the environment the candidate's code reads is
    the GPU child's (TRITON_INTERPRET=1 is the interpreter's, and it was the plainest tell)."""
    os.cpu_count = _answered(os.cpu_count, 16)  # type: ignore[assignment]
    torch.get_num_threads = _answered(torch.get_num_threads, 16)  # type: ignore[assignment]


# The environment every candidate child's own code reads, CPU or GPU, on any host: the CPU
# child's TRITON_INTERPRET was the plainest tell, and the rest differ from host to host and
# device to device too (the GPU worker's CUDA_VISIBLE_DEVICES, which a CPU child never has:
# red team s46). Triton, torch and the harness read the real one.
ENVIRONMENT = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp",
               "TMPDIR": "/tmp", "PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}


def gpu_environment() -> None:
    """os.environ as the candidate's code sees it, in every candidate child: ENVIRONMENT."""
    os.environ = _GpuEnviron(os.environ)  # type: ignore[assignment]


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
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.endswith(_PASSED_THROUGH):
        frame = frame.f_back
    return frame is not None and frame.f_code.co_filename.endswith(f"{os.sep}candidate.py")


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
    session 19, ok under strict). A candidate cannot call tolist itself (static allowlist);
    in a candidate child, inside a watched forward (a dispatch mode is active), tolist reads
    one element at a time through dispatched reads the provenance watch counts, and numpy()
    (another C++ read) is refused there. Outside a forward, the harness's own calls run as
    they are."""
    real_tolist, real_numpy = torch.Tensor.tolist, torch.Tensor.numpy

    def watched() -> bool:  # a mode of the harness's (not the casts' own, around a candidate's call)
        return any(not isinstance(torch._C._get_dispatch_stack_at(i), _CudaCasts)
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


PLAIN_NUMBERS = [0]  # torch.tensor calls of plain Python numbers running (the watch reads it)


@contextmanager
def plain_numbers() -> Iterator[None]:
    """Around `torch.tensor(data)` where the data is Python numbers alone (no tensor in it,
    checked here): the lift_fresh it dispatches carries values host Python made, counted in
    host_made as `torch.full`'s are, and nothing C++ read out of a tensor."""
    PLAIN_NUMBERS[0] += 1
    try:
        yield
    finally:
        PLAIN_NUMBERS[0] -= 1


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
        with plain_numbers():
            return real(data, *args, **kwargs)

    torch.tensor = tensor  # type: ignore[assignment]


def _plain(data: Any, depth: int) -> bool:
    """Whether `data` is a number, or lists and tuples of them (exact types: a subclass could
    run code or hold a tensor), a few levels deep."""
    if type(data) in (int, float, bool):
        return True
    return type(data) in (list, tuple) and depth < 4 and len(data) <= 4096 and all(
        _plain(v, depth + 1) for v in data)


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
BUILDING = [False]  # the model's build: on the GPU under `with torch.device("cuda")` (model_build)
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
        getter = _DEVICE_GETTERS.get(id(getattr(func, "__self__", None)))
        # (within the few frames of torch's Python method and the function modes above this one)
        if func is _IS_SHARED and _candidate_below(10) and args[0] not in HOST_TENSORS:
            return True  # a CUDA tensor is always "shared" (its memory is the device's)
        if func is _TYPE and len(args) == 1 and not kwargs and candidate_frame(1):
            name = func(*args)  # `x.type()`: torch.cuda.FloatTensor for a tensor on the GPU
            return name if args[0] in HOST_TENSORS else name.replace("torch.", "torch.cuda.", 1)
        if getter is not None or func is _GET_DEVICE:
            real = func(*args, **kwargs)
            if not candidate_frame(1):
                return real
            host = bool(args) and args[0] in HOST_TENSORS
            if getter == "device":
                return real if host or real.type != "cpu" else _DEVICE("cuda", 0)
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
        if _names_cuda(kwargs.get("device")):
            kwargs = {**kwargs, "device": "cpu"}
        if func is torch.Tensor.cuda:
            return args[0].to(**{k: v for k, v in kwargs.items() if k in ("non_blocking", "memory_format")})
        if func is torch.Tensor.to and len(args) > 1 and _names_cuda(args[1]):
            args = (args[0], "cpu", *args[2:])
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


def cuda_cast(x: torch.Tensor, dtype: torch.dtype) -> torch.Tensor:
    """`x.to(dtype)` for a floating x and an integer dtype, as a CUDA device converts."""
    d = x.detach().double()
    nan = torch.isnan(d)
    if dtype in (torch.int32, torch.int16, torch.int8):
        return torch.where(nan, 0.0, d).clamp(-(2.0 ** 31), 2.0 ** 31 - 1).to(torch.int64).to(dtype)
    high, low = d >= 2.0 ** 63, (d < -(2.0 ** 63)) | nan
    v = torch.where(high | low, 0.0, d).to(torch.int64)
    return torch.where(high, _INT64.max, torch.where(low, _INT64.min, v)).to(dtype)


class _NoDeviceSwitch(torch.cuda.device):
    """torch.cuda.device in a CPU candidate child: a context that switches nothing, otherwise
    the real class (its attributes, its name; `__enter__` gives None as the real one does: a
    stand-in of its own told the CPU child apart, red team s46)."""

    def __init__(self, device: Any = None) -> None:
        if candidate_frame(1) or _ANSWERING[0]:  # the candidate's device, refused as the GPU refuses it
            super().__init__(device)
            return
        try:
            super().__init__(device)
        except (ValueError, RuntimeError, AssertionError):  # a host tensor's device, to torch's eyes
            self.idx, self.prev_idx = 0, -1

    def __enter__(self) -> None:
        """torch.cuda._exchange_device on a process with one GPU: the previous device (0), -1
        for a negative index, and CUDA's error for an index it lacks."""
        if self.idx >= 1:
            raise _INVALID_ORDINAL()
        self.prev_idx = -1 if self.idx < 0 else 0
        return None

    def __exit__(self, *exc: Any) -> bool:
        self.idx = -1 if self.prev_idx < 0 else self.idx
        return False


def _INVALID_ORDINAL() -> Exception:
    kind = getattr(torch, "AcceleratorError", RuntimeError)
    return kind("CUDA error: invalid device ordinal\nGPU device may be out of range, do you have enough GPUs?\n"
                "CUDA kernel errors might be asynchronously reported at some "
                "other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing "
                "CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n")


_NoDeviceSwitch.__name__ = _NoDeviceSwitch.__qualname__ = "device"
_NoDeviceSwitch.__module__ = "torch.cuda"


# The GPU the evaluator times on, as a candidate's code sees it there: versions, device
# properties (with their types) and the answers to every device query the static allowlist
# lets a candidate make, recorded on an H200 (evaluator/h200.json, scripts/record_gpu_image.py;
# tests/unit/evaluator/test_gpu_image.py holds a CPU child's answers to it). A CPU child answers
# with it (and Triton's stand-in driver, evaluator.child, with the same numbers): a stand-in of
# its own ("CPU (Triton interpreter)", 4 SMs, 8 GiB) told the CPU check from the GPU, and a
# persistent kernel covered every tile at 4 SMs and a few at 132 (red team s45); so did a field
# it lacked (gcnArchName), a field's type (uuid, is_integrated) and the versions (red team
# s46). What remains is the CPU's sizes: a kernel wrong only at the problem's GPU sizes is the
# GPU evaluator's to catch (docs/threat_model.md).
IMAGE = json.loads((Path(__file__).with_name("h200.json")).read_text())
H200 = {k: v for k, v in IMAGE["properties"].items() if k != "uuid"}


class _CUuuid:
    """A device's UUID as torch's C extension gives it: `str()` is the text, `.bytes` a new list
    of 16 ints at each read (pybind11's std::vector<uint8_t>; a bytes object told the CPU child
    apart: red team s46 rt23)."""

    __slots__ = ("__raw__",)

    def __init__(self, text: str) -> None:
        self.__raw__ = uuid.UUID(text).bytes

    @property
    def bytes(self) -> list:
        return list(self.__raw__)

    def __str__(self) -> str:
        return str(uuid.UUID(bytes=self.__raw__))

    def _pybind11_conduit_v1_(self, *args: Any) -> Any:
        raise TypeError("_pybind11_conduit_v1_: incompatible function arguments")


class _CudaDeviceProperties:
    """torch.cuda's _CudaDeviceProperties as the H200 gives them: the same fields, types and
    text (a namespace's `namespace(...)` told the stand-in apart: red team s45b)."""

    __slots__ = ("__fields__",)

    def __init__(self, **fields: Any) -> None:
        self.__fields__ = fields

    def __repr__(self) -> str:
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // (1 << 20)}MB, multi_processor_count="
                f"{self.multi_processor_count}, uuid={self.uuid}, pci_bus_id={self.pci_bus_id}, "
                f"pci_device_id={self.pci_device_id}, pci_domain_id={self.pci_domain_id}, "
                f"L2_cache_size={self.L2_cache_size // (1 << 20)}MB)")

    def _pybind11_conduit_v1_(self, *args: Any) -> Any:
        raise TypeError("_pybind11_conduit_v1_: incompatible function arguments")


def _read_only(name: str) -> property:  # pybind11's def_readonly: a property with no setter
    return property(lambda self: _fresh(self.__fields__[name]))


def _fresh(value: Any) -> Any:
    """A new object of the value, as pybind11 converts a C++ field on every read (`props.
    total_memory is props.total_memory` is False on the GPU; the stand-in's one stored int
    said True: red team s47 rt25). CPython's cached small ints and one-character strings stay
    the cached ones, as there."""
    if type(value) is int:
        return value + 0
    if type(value) is float:
        return value * 1.0
    if type(value) is str and len(value) > 1:
        return value[:1] + value[1:]
    return value


for _name in IMAGE["properties"]:
    setattr(_CudaDeviceProperties, _name, _read_only(_name))
for _cls in (_CUuuid, _CudaDeviceProperties):
    _cls.__module__ = "torch._C"


# one GPU's, drawn per child: 16 raw bytes, as NVIDIA's are (an RFC 4122 version-4 UUID has
# fixed version and variant digits an H200's lacks)
_UUID = str(uuid.UUID(bytes=secrets.token_bytes(16)))


# the one object torch hands out for the device while anything holds it (pybind11 keeps one
# wrapper per C++ pointer): `get_device_properties(0) is get_device_properties(0)` on the GPU
_PROPERTIES = _CudaDeviceProperties(**H200, uuid=_CUuuid(_UUID))
_REAL_GET_DEVICE_PROPERTIES = torch.cuda.get_device_properties


def _get_device_index(device: Any, optional: bool = False, allow_cpu: bool = False) -> int:
    from torch.cuda._utils import _get_device_index as real

    _ANSWERING[0] += 1
    try:
        return real(device, optional, allow_cpu)
    finally:
        _ANSWERING[0] -= 1


def _device_count() -> int:
    return 1


# What a CPU child's torch.cuda.get_device_properties says: torch's own function, for the one
# GPU a child has, with the H200's properties; any other device raises as torch raises there
# (an index past the device count answered by the stand-in, and refused on the GPU, was a
# switch too; so was an argument the stand-in read otherwise than torch: red team s46 rt23).
interpreter_device_properties = _through(_REAL_GET_DEVICE_PROPERTIES, _get_device_properties=lambda index: _PROPERTIES,
                                         device_count=_device_count, _get_device_index=_get_device_index)
