"""Record what a GPU image answers to every device query a candidate's code may make (the
static allowlist's torch.cuda, torch.backends, torch.version and torch.accelerator names, the
versions, the device properties with their types), as evaluator/h200.json holds it: the CPU
check's candidate child answers each the same way (evaluator.candidate_env), and
tests/unit/evaluator/test_gpu_image.py holds it to that. Run on the GPU machine:

    python3 scripts/record_gpu_image.py evaluator/h200.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import torch
import triton

# what a candidate's code may ask, as it would write it: each is evaluated here and, in the
# test, from a candidate's file in a CPU child
PROBES = [
    "torch.__version__",
    "torch.version.cuda",
    "torch.version.hip",
    "torch.version.git_version",
    "torch.version.debug",
    "triton.__version__",
    "torch.cuda.is_available()",
    "torch.cuda.current_device()",
    "torch.cuda.device_count()",
    "torch.cuda.get_device_capability()",
    "torch.cuda.get_device_capability(0)",
    "torch.cuda.get_device_name()",
    "torch.cuda.get_device_name(0)",
    "torch.cuda.get_device_properties(0)",
    "torch.cuda.get_device_properties(0).uuid",
    "torch.cuda.get_device_properties(0).is_integrated",
    "torch.cuda.synchronize()",
    "torch.cuda.device(0)",
    "torch.cuda.is_bf16_supported()",
    "torch.cuda.is_current_stream_capturing()",
    "torch.cuda.nvtx.range_push('a')",
    "torch.cuda.nvtx.range_pop()",
    "torch.cuda.nvtx.mark('a')",
    "torch.backends.cuda.matmul.allow_tf32",
    "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
    "torch.backends.cudnn.allow_tf32",
    "torch.backends.cudnn.version()",
    "torch.backends.cuda.is_built()",
    "torch.backends.cudnn.is_available()",
    "torch.backends.cudnn.enabled",
    "torch.get_num_threads()",
    "torch.accelerator.current_accelerator()",
    "torch.accelerator.is_available()",
    "torch.accelerator.device_count()",
    "torch.device.__name__",
    "torch.device.__qualname__",
    "torch.device.__module__",
    "torch.cuda.device.__name__",
    "torch.cuda.device.__qualname__",
    "torch.cuda.device.__module__",
    "torch.cuda.is_available.__name__",
    "torch.cuda.get_device_properties.__qualname__",
    "torch.cuda.nvtx.range_push.__name__",
    # Triton's driver queries (the tutorials' `triton.runtime.driver.active...`): a dict's key
    # order is the driver's own (red team s47 rt24: the stand-in's order told the CPU)
    "triton.runtime.driver.active.utils.get_device_properties(0)",
    "triton.runtime.driver.active.get_current_target()",
    "triton.runtime.driver.active.get_current_device()",
    "triton.runtime.driver.active.get_active_torch_device()",
    # devices a process with one GPU does not have
    "torch.cuda.get_device_properties(1)",
    "torch.cuda.get_device_name(1)",
    "torch.cuda.get_device_capability(1)",
    "torch.cuda.get_device_properties('cpu')",
    "torch.cuda.get_device_properties(torch.device('cuda', 1))",
    # each stand-in takes and refuses arguments as torch does (red team s46 rt23): the exception
    # and its message
    "torch.cuda.get_device_capability('cuda:1')",
    "torch.cuda.get_device_name(5)",
    "torch.cuda.get_device_properties(True)",
    "torch.cuda.get_device_properties(False).name",
    "torch.cuda.get_device_properties(torch.device('cuda')).name",
    "torch.cuda.get_device_properties(0, 1)",
    "torch.cuda.get_device_properties(dev=0)",
    "torch.cuda.is_available(1)",
    "torch.cuda.device_count(x=1)",
    "torch.cuda.current_device(0)",
    "torch.cuda.synchronize('cpu')",
    "torch.cuda.synchronize(1)",
    "torch.cuda.synchronize(0)",
    "torch.cuda.nvtx.range_push(1)",
    "torch.cuda.nvtx.range_push(None)",
    "torch.cuda.nvtx.mark(b'x')",
    "torch.cuda.nvtx.range_pop(1)",
    "torch.cuda.is_bf16_supported(including_emulation=False)",
    "torch.cuda.is_bf16_supported(1, 2)",
    "torch.cuda.is_current_stream_capturing(1)",
    "torch.backends.cudnn.version(1)",
    "torch.get_num_threads(1)",
    "torch.accelerator.current_accelerator(True)",
    "torch.accelerator.device_count(1)",
    "torch.cuda.device(1).__enter__()",
    "torch.cuda.device('cpu')",
    "torch.cuda.device(-1).idx",
    # the stand-ins' objects behave as torch's (red team s46 rt23)
    "torch.cuda.get_device_properties(0) is torch.cuda.get_device_properties(0)",
    "torch.cuda.get_device_properties(0) == torch.cuda.get_device_properties(0)",
    "torch.cuda.get_device_properties(0).uuid is torch.cuda.get_device_properties(0).uuid",
    "type(torch.cuda.get_device_properties(0).uuid.bytes).__name__",
    "len(torch.cuda.get_device_properties(0).uuid.bytes)",
    "torch.cuda.get_device_properties(0).uuid.bytes"
    " is torch.cuda.get_device_properties(0).uuid.bytes",
    "torch.accelerator.current_accelerator() is torch.accelerator.current_accelerator()",
    "torch.device.type",
    "torch.device.index",
    "torch.device.type.__get__(torch.device('cuda', 0))",
    "isinstance(torch.device('cuda'), torch.device)",
    "torch.device('cuda') == torch.device('cuda', 0)",
]


def describe(value) -> dict:
    """What code can tell of a value without printing addresses: its type, module, text and
    attribute names."""
    return {
        "type": type(value).__name__,
        "module": type(value).__module__,
        "repr": repr(value)[:400],
        "dir": sorted(a for a in dir(value) if not a.startswith("__")),
    }


def probe(expression: str) -> dict:
    try:
        return {"value": describe(eval(expression))}
    except Exception as exc:  # noqa: BLE001 - what it raises is the answer
        return {"raises": type(exc).__name__, "message": str(exc)[:400]}


# float -> integer conversions of out-of-range values (implementation-defined in C++; CUDA
# saturates, x86 does not): host code could compute a flag with one
CAST_SOURCE = [
    1e10,
    -1e10,
    float("nan"),
    3.7,
    -3.7,
    float("inf"),
    -float("inf"),
    3e9,
    70000.0,
    300.0,
    -1.0,
]
CAST_DTYPES = ["int64", "int32", "int16", "int8", "uint8", "bool"]


def casts(device: str) -> dict:
    src = torch.tensor(CAST_SOURCE, device=device)
    out = {f"float32 to {dt}": src.to(getattr(torch, dt)).cpu().tolist() for dt in CAST_DTYPES}
    out.update(
        {f"float16 to {dt}": src.half().to(getattr(torch, dt)).cpu().tolist() for dt in CAST_DTYPES}
    )
    # the paths a conversion takes, and where it runs (CUDA's copy_ converts a blocking copy
    # between host and device on the host)
    i32 = torch.int32
    into_host = torch.zeros(len(src), dtype=i32)
    into_host_nb = torch.zeros(len(src), dtype=i32)
    into_device = torch.zeros(len(src), dtype=i32, device=device)
    assigned = torch.zeros(len(src), dtype=i32, device=device)
    assigned[:] = src
    out.update(
        {
            "float32 to int32 by copy_ into the host": into_host.copy_(src).tolist(),
            "float32 to int32 by copy_ into the host, non_blocking": (
                into_host_nb.copy_(src, non_blocking=True),
                torch.cuda.synchronize(),
                into_host_nb.tolist(),
            )[-1]
            if device == "cuda"
            else into_host_nb.copy_(src, non_blocking=True).tolist(),
            "float32 to int32 by copy_ on the device": into_device.copy_(src).cpu().tolist(),
            "float32 to int32 by item assignment": assigned.cpu().tolist(),
            "float32 to int32 by to(cpu, int32)": src.to("cpu", i32).tolist(),
            "float32 to int32 by torch.tensor": torch.tensor(src, dtype=i32).cpu().tolist(),
            "float32 to int32 by as_tensor": torch.as_tensor(src, dtype=i32).cpu().tolist(),
            "float32 to int32 by new_tensor": src.new_tensor(src, dtype=i32).cpu().tolist(),
            "float32 to int32 by int()": src.int().cpu().tolist(),
            "float32 to int32 by cumsum dtype": torch.cumsum(src[:2], 0, dtype=i32).cpu().tolist(),
            "float32 to int32 by fill_": torch.zeros(2, dtype=i32, device=device)
            .fill_(src[0])
            .cpu()
            .tolist(),
            "host float32 to int32": src.cpu().to(i32).tolist(),
        }
    )
    return out


# Under torch.autocast("cuda", dtype): the dtype out of ops CUDA's policy lists (and some it does
# not) and the autocast state as every query reads it (red team s46 rt23: CPU autocast's lists
# and state told the CPU check from the GPU). `a` is float32 on the device, `h` float16, `b`
# bfloat16, `img`/`w` a conv's input and weight, `host` a float32 tensor on the host.
AUTOCAST_CASES = [
    "torch.is_autocast_enabled()",
    "torch.is_autocast_enabled('cuda')",
    "torch.is_autocast_enabled('cpu')",
    "torch.get_autocast_dtype('cuda')",
    "torch.get_autocast_dtype('cpu')",
    "torch.get_autocast_gpu_dtype()",
    "(a @ a).dtype",
    "torch.mm(a, a).dtype",
    "torch.addmm(a, a, a).dtype",
    "torch.baddbmm(a[None], a[None], a[None]).dtype",
    "torch.addmv(a[0], a, a[0]).dtype",
    "torch.einsum('ij,jk->ik', a, a).dtype",
    "torch.nn.functional.linear(a, a).dtype",
    "torch.nn.functional.conv2d(img, w).dtype",
    "torch.nn.functional.conv_transpose2d(img, w).dtype",
    "torch.softmax(a, -1).dtype",
    "torch.softmax(h, -1).dtype",
    "torch.log_softmax(b, -1).dtype",
    "torch.exp(h).dtype",
    "torch.exp(b).dtype",
    "torch.sum(h).dtype",
    "torch.sum(h, dtype=torch.float16).dtype",
    "torch.cumsum(b, 0).dtype",
    "torch.nn.functional.layer_norm(h, (4,)).dtype",
    "torch.nn.functional.rms_norm(h, (4,)).dtype",
    "torch.nn.functional.group_norm(img.half(), 1).dtype",
    "h.norm().dtype",
    "torch.pow(h, 2).dtype",
    "torch.rsqrt(b).dtype",
    "torch.addcmul(h, a, h).dtype",
    "torch.atan2(h, h).dtype",
    "torch.cat([a, h]).dtype",
    "torch.relu(h).dtype",
    "(h + a).dtype",
    "torch.tanh(h).dtype",
    "torch.sigmoid(h).dtype",
    "(host @ host).dtype",
    "torch.nn.functional.mse_loss(h, h).dtype",
    "torch.nn.functional.binary_cross_entropy(a.sigmoid(), a.sigmoid())",
    "torch.addcmul(h, b, h).dtype",
    "torch.nn.functional.scaled_dot_product_attention(a[None], a[None], a[None]).dtype",
]


def autocast_answers(device: str) -> dict:
    a = torch.rand(4, 4, device=device)
    h, b, host = a.half(), a.bfloat16(), a.cpu()
    img, w = torch.rand(1, 1, 4, 4, device=device), torch.rand(1, 1, 3, 3, device=device)
    scope = {"torch": torch, "a": a, "h": h, "b": b, "host": host, "img": img, "w": w}
    out = {}
    for dtype in ("float16", "bfloat16"):
        with torch.autocast("cuda", dtype=getattr(torch, dtype)):
            for case in AUTOCAST_CASES:
                try:
                    out[f"{dtype}: {case}"] = repr(eval(case, scope))
                except Exception as exc:  # noqa: BLE001 - what it raises is the answer
                    out[f"{dtype}: {case}"] = f"raises {type(exc).__name__}"
    out["registrations"] = sorted(
        torch._C._dispatch_get_registrations_for_dispatch_key("AutocastCUDA")
    )
    return out


def main(path: str) -> None:
    props = torch.cuda.get_device_properties(0)
    fields = {a: getattr(props, a) for a in dir(props) if not a.startswith("_")}
    with torch.cuda.device(0) as entered:
        pass
    image = {
        "about": (
            "an H200 image's answers to a candidate's device queries (scripts/record_gpu_image.py)"
        ),
        "versions": {
            "torch": str(torch.__version__),
            "torch_git": torch.version.git_version,
            "triton": triton.__version__,
            "cuda": torch.version.cuda,
            "cudnn": torch.backends.cudnn.version(),
        },
        "properties": {
            k: (v if isinstance(v, (int, str, float)) else str(v)) for k, v in fields.items()
        },
        "property_types": {k: type(v).__name__ for k, v in fields.items()},
        "device_context": {
            "vars": {k: v for k, v in vars(torch.cuda.device(0)).items()},
            "enter": repr(entered),
        },
        "probes": {e: probe(e) for e in PROBES},
        "casts": casts("cuda"),
        "autocast": autocast_answers("cuda"),
    }
    with open(path, "w") as f:
        json.dump(image, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {path}: {len(PROBES)} probes")
    names_path = Path(path).with_name("h200_names.json")
    names = names_image(image["versions"])
    with open(names_path, "w") as f:
        json.dump(names, f, indent=0, sort_keys=True)
        f.write("\n")
    n_ns, n_cls = len(names["namespaces"]), len(names["classes"])
    print(f"wrote {names_path}: {n_ns} namespaces, {n_cls} classes")


# builtin classes whose methods a candidate's code may probe (`int.is_integer` is Python 3.12's)
BUILTIN_CLASSES = [
    "int",
    "float",
    "complex",
    "bool",
    "str",
    "bytes",
    "list",
    "tuple",
    "dict",
    "set",
    "frozenset",
    "range",
    "slice",
    "object",
]
# Python's own behaviour that changed between versions, as a candidate's code can see it
# (3.12's sum() of floats is compensated): evaluator.candidate_env answers these the GPU's way
PYTHON_PROBES = [
    "sum([1e16, 1.0, -1e16])",
    "sum([0.1] * 10)",
    "sum([1e308, 1e308, -1e308])",
    "sum([0.1, 2, 0.2, 10**30, 0.3])",
    "sum([-0.0, -0.0])",
    "sum([1.5, True, 2**70, 0.1])",
    "sum([float('inf'), 1.0, -1.0])",
    "sum([0.1, 0.2, 0.3], 0.5)",
    "sum([1, 0.1, 0.2, 1e17, -1e17])",
    "sum([0.1, 0.2, 1+1j, 0.3])",
    "sum([1e100, 1.0, -1e100, 1e-100])",
]


def _answers(obj, name: str) -> bool:
    try:
        getattr(obj, name)
    except Exception:  # noqa: BLE001 - whatever it raises, the name is not there
        return False
    return True


def names_image(versions: dict) -> dict:
    """Every name of each namespace the static allowlist walks, and every attribute of each
    library (and builtin) class it lists, in this image (evaluator.gpu_names)."""
    import builtins
    import importlib
    import inspect
    import pkgutil
    import platform

    from evaluator import gpu_names

    gpu_names.PATH = Path("/nonexistent")  # this image's own names, not an earlier recording's
    gpu_names.recorded.cache_clear()
    from evaluator.static_namespaces import _NO_PROBE, exists, tables

    t = tables()
    namespaces = {}
    for ns in sorted(t.namespaces):
        if ns == _NO_PROBE or ns.startswith(_NO_PROBE + "."):
            continue
        parts = ns.split(".")
        try:
            obj = importlib.import_module(parts[0])
        except ImportError:
            continue
        for part in parts[1:]:
            obj = inspect.getattr_static(obj, part, None)
        if obj is None:
            continue
        # dir() misses what a __getattr__ answers (torch.backends.cuda.matmul's allow_tf32) and
        # submodules not imported yet: a listed name is asked for as the candidate would
        have = (
            {a for a in dir(obj) if not a.startswith("__")}
            | {m.name for m in pkgutil.iter_modules(getattr(obj, "__path__", None) or [])}
            | {n for n in t.namespaces[ns] if exists(f"{ns}.{n}") or _answers(obj, n)}
        )
        namespaces[ns] = sorted(have)
    dirs = {}
    for name in sorted(t.classes) + [f"builtins.{n}" for n in BUILTIN_CLASSES]:
        cls = gpu_names.library_class(name)
        if cls is not None:
            dirs[name] = (cls, gpu_names.attributes(cls))
    return {
        "about": "the names an H200 image's libraries have (scripts/record_gpu_image.py; "
        "evaluator.gpu_names)",
        "versions": {
            "torch": versions["torch"],
            "triton": versions["triton"],
            "python": platform.python_version(),
        },
        "namespaces": namespaces,
        "classes": gpu_names.compress(dirs),
        "python_probes": {e: repr(eval(e, {"__builtins__": builtins})) for e in PYTHON_PROBES},
    }


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "h200.json")
