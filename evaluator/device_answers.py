"""The H200's answers to the device queries a CPU candidate child's code may make (torch.cuda,
torch.backends, torch.accelerator, torch.version, the versions), from the image recorded on an
H200 (evaluator/h200.json, scripts/record_gpu_image.py; tests/unit/evaluator/test_gpu_image.py
holds a CPU child's answers to it). Each stand-in runs torch's own code where it can, so its
arguments are taken and refused as on the GPU, and answers only the candidate's own code (and
torch's code run for it); torch's, Triton's and the harness's reads see the CPU build.
evaluator.candidate_env installs them (`install`)."""
from __future__ import annotations

import functools
import inspect
import json
import secrets
import types
import uuid
from pathlib import Path
from typing import Any

import torch
import torch.cuda.nvtx

from evaluator.candidate_env import candidate_frame


def install() -> None:
    """The device queries of a CPU candidate child, answered as the H200 answers them."""
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


def _gpu_answers() -> None:
    """Every device query the static allowlist lets a candidate make (static_namespaces:
    torch.cuda, torch.backends, torch.accelerator, torch.version) answers, to the candidate's
    own code, as on the GPU the evaluator times on: a query that answered as a CPU build does
    was a switch between a path the CPU checked and one only the GPU runs (red team s45:
    `x.device.type`; `torch.cuda.is_available()`, `torch.backends.cudnn.is_available()` and
    `torch.version.cuda` were the same switch)."""
    cuda, accelerator = torch.cuda, torch.accelerator
    cuda.is_available = answered(cuda.is_available, True)  # type: ignore[assignment]
    cuda.device_count = answered(cuda.device_count, 1)  # type: ignore[assignment]
    cuda.get_device_name = _through(cuda.get_device_name, get_device_properties=interpreter_device_properties)  # type: ignore[assignment]
    cuda.is_bf16_supported = answered(cuda.is_bf16_supported, True)  # type: ignore[assignment]
    torch.backends.cuda.is_built = answered(torch.backends.cuda.is_built, True)  # type: ignore[assignment]
    torch.backends.cudnn.is_available = answered(torch.backends.cudnn.is_available, True)  # type: ignore[assignment]
    torch.backends.cudnn.version = answered(torch.backends.cudnn.version, 91900)  # type: ignore[assignment]
    accelerator.is_available = answered(accelerator.is_available, True)  # type: ignore[assignment]
    accelerator.device_count = answered(accelerator.device_count, 1)  # type: ignore[assignment]
    accelerator.current_accelerator = answered(  # type: ignore[assignment]
        accelerator.current_accelerator, lambda: torch.device("cuda"), fresh=True)  # a new one each call, as torch's
    # the module of that accelerator, asked without a device (SGLang's `with
    # torch.get_device_module().device(x.device):`, honest round s54): torch.cuda, as on the GPU
    # (torch asks torch._C._get_accelerator(), which a CPU build answers with torch.cpu)
    real = torch.get_device_module

    def device_module(*args: Any, **kwargs: Any) -> Any:
        if not (candidate_frame(1) or _ANSWERING[0]):
            return real(*args, **kwargs)
        _bound(real, args, kwargs)
        return _device_module(real, *args, **kwargs)

    torch.get_device_module = _like(real, device_module)  # type: ignore[assignment]
    for name in ("current_device_index", "current_device_idx"):
        if hasattr(accelerator, name):
            setattr(accelerator, name, answered(getattr(accelerator, name), 0))
    # an attribute, read by no CPU path of torch or Triton in the child (torch.cuda's lazy
    # initialisation, never reached on a CPU build, and meta kernels of CUDA-only ops)
    torch.version.cuda = IMAGE["versions"]["cuda"]  # type: ignore[misc]
    _versions_read_as_the_gpus()


def _device_module(real: Any, device: Any = None) -> Any:
    """torch.get_device_module as the GPU answers it: torch.cuda for no device (the current
    accelerator's), torch's answer for a named one (a tensor's device read by the candidate's
    code already names cuda here; a literal "cpu" is torch.cpu on the GPU too)."""
    return torch.cuda if device is None else real(device)


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


def answered(real: Any, answer: Any, fresh: bool = False) -> Any:
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


class _NoDeviceSwitch(torch.cuda.device):
    """torch.cuda.device in a CPU candidate child: a context that switches nothing, otherwise
    the real class (its attributes, its name; `__enter__` gives None as the real one does: a
    stand-in of its own told the CPU child apart, red team s46)."""

    def __init__(self, device: Any = None) -> None:
        if candidate_frame(1) or _ANSWERING[0]:  # the candidate's device, refused as the GPU refuses it
            # and a device of no index (None, "cuda", a float) resolved as the GPU resolves it, to
            # the current device (torch asks is_available and current_device, answered here): a
            # CPU build answered None, and __enter__ raised TypeError where the GPU enters device 0
            # (red team rt69: `with torch.get_device_module().device(None):`)
            _ANSWERING[0] += 1
            try:
                super().__init__(device)
            finally:
                _ANSWERING[0] -= 1
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
