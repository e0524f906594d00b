"""The tables behind the static checks: which names, modules and attributes are hacks.

Each rule maps to a short hack code (the verdict's `hacks` list):

  forbidden_import  a module a kernel file has no business importing (os, sys, ...)
  concurrency       threads or processes (threading, multiprocessing, ...)
  file_access       reading or writing files (open, torch.save, np.load, tofile, ...)
  dynamic_code      exec, eval, compile, __import__, breakpoint
  reflection        reaching into interpreter or harness state: dunder attributes,
                    private attributes outside `self`, frames, globals()/vars(),
                    getattr/hasattr with a computed name, 3-argument type()
  monkey_patch      assigning to, or deleting, attributes of modules/builtins;
                    setattr/delattr on anything but `self`; global forward hooks;
                    overriding __torch_function__/__del__-style dunder methods
  harness_tamper    changing process-wide state the harness relies on (RNG seeds,
                    torch.backends flags, default dtype, thread counts, profilers,
                    Triton's runtime, compiler and knobs)
  side_stream       CUDA streams, graphs and cross-stream waits
  torch_compute     high-level torch compute inside ModelNew's forward (configurable)
  try_except        try/except anywhere (the classic fallback-to-PyTorch trick)
  reference_model   subclassing or naming the reference `Model`

Dotted names are matched by prefix on whole components: "torch.backends" covers
"torch.backends.cudnn.benchmark" but not "torch.backendsX".
"""
from __future__ import annotations

# Top-level modules that are always a hack to import; anything else outside the
# allowlist is merely unavailable (a compile error with a helpful message).
CONCURRENCY_MODULES = frozenset({
    "threading", "_thread", "multiprocessing", "concurrent", "asyncio", "subprocess", "sched",
})
DANGEROUS_MODULES = frozenset({
    "os", "sys", "posix", "nt", "socket", "ssl", "ctypes", "cffi", "gc", "inspect", "importlib",
    "builtins", "io", "pathlib", "shutil", "signal", "pickle", "cPickle", "dill", "marshal",
    "shelve", "time", "timeit", "resource", "mmap", "urllib", "http", "requests", "tempfile",
    "glob", "atexit", "sysconfig", "code", "codeop", "weakref", "faulthandler", "pty", "fcntl",
    "select", "selectors", "ftplib", "smtplib", "telnetlib", "zipfile", "tarfile", "sqlite3",
    "dbm", "platform", "runpy", "pkgutil", "site", "types", "copyreg", "dis", "linecache",
    "tracemalloc", "traceback", "contextlib", "zmq", "msgspec",
    "evaluator", "common", "actor", "learner",
})

# builtin name -> hack code, when used as a plain name (not shadowed by a local def).
FORBIDDEN_BUILTINS: dict[str, str] = {
    "open": "file_access",
    "exec": "dynamic_code", "eval": "dynamic_code", "compile": "dynamic_code",
    "__import__": "dynamic_code", "breakpoint": "dynamic_code",
    "globals": "reflection", "locals": "reflection", "vars": "reflection",
}

# Qualified-name prefixes (after alias resolution) -> hack code.
FORBIDDEN_API: dict[str, str] = {
    "torch.save": "file_access", "torch.load": "file_access", "torch.from_file": "file_access",
    "torch.hub": "file_access", "torch.utils": "file_access", "torch.package": "file_access",
    "numpy.save": "file_access", "numpy.savez": "file_access",
    "numpy.savez_compressed": "file_access", "numpy.savetxt": "file_access",
    "numpy.load": "file_access", "numpy.loadtxt": "file_access", "numpy.genfromtxt": "file_access",
    "numpy.fromfile": "file_access", "numpy.memmap": "file_access", "numpy.lib": "file_access",
    "numpy.DataSource": "file_access", "numpy.ctypeslib": "reflection",
    "torch.cuda.Stream": "side_stream", "torch.cuda.stream": "side_stream",
    "torch.cuda.set_stream": "side_stream", "torch.cuda.ExternalStream": "side_stream",
    "torch.cuda.StreamContext": "side_stream", "torch.cuda.graph": "side_stream",
    "torch.cuda.graphs": "side_stream", "torch.cuda.CUDAGraph": "side_stream",
    "torch.cuda.make_graphed_callables": "side_stream", "torch.Stream": "side_stream",
    "torch.cuda.streams": "side_stream",
    "torch.manual_seed": "harness_tamper", "torch.seed": "harness_tamper",
    "torch.set_rng_state": "harness_tamper", "torch.random": "harness_tamper",
    "torch.cuda.manual_seed": "harness_tamper", "torch.cuda.manual_seed_all": "harness_tamper",
    "torch.cuda.set_rng_state": "harness_tamper", "torch.cuda.seed": "harness_tamper",
    "torch.backends": "harness_tamper", "torch.use_deterministic_algorithms": "harness_tamper",
    "torch.set_default_dtype": "harness_tamper", "torch.set_default_device": "harness_tamper",
    "torch.set_default_tensor_type": "harness_tamper", "torch.set_num_threads": "harness_tamper",
    "torch.set_num_interop_threads": "harness_tamper", "torch.set_flush_denormal": "harness_tamper",
    "torch.set_float32_matmul_precision": "harness_tamper",
    "torch.set_grad_enabled": "harness_tamper", "torch.cuda.set_device": "harness_tamper",
    "torch.cuda.memory": "harness_tamper", "torch.cuda.set_per_process_memory_fraction": "harness_tamper",
    "torch.cuda.set_sync_debug_mode": "harness_tamper", "torch.cuda.nvtx": "harness_tamper",
    "torch.profiler": "harness_tamper", "torch.autograd.profiler": "harness_tamper",
    "torch.overrides": "harness_tamper", "torch.library": "harness_tamper",
    "torch.ops": "harness_tamper", "torch.classes": "harness_tamper", "torch.fx": "harness_tamper",
    "torch.export": "harness_tamper", "torch.testing": "harness_tamper",
    "torch.distributed": "concurrency", "torch.multiprocessing": "concurrency",
    "torch.nn.modules.module": "monkey_patch",
    "triton.runtime": "harness_tamper", "triton.compiler": "harness_tamper",
    "triton.backends": "harness_tamper", "triton.knobs": "harness_tamper",
    "triton.testing": "harness_tamper", "triton.tools": "harness_tamper",
    "triton.JITFunction": "harness_tamper", "triton.KernelInterface": "harness_tamper",
    "triton.compile": "harness_tamper", "triton.set_allocator": "harness_tamper",
    "numpy.random.seed": "harness_tamper", "math.__dict__": "reflection",
}

# Attribute names that are a hack on any object.
FORBIDDEN_ATTRIBUTES: dict[str, str] = {
    "tofile": "file_access", "fromfile": "file_access", "memmap": "file_access",
    "load_inline": "file_access",
    "register_forward_hook": "monkey_patch", "register_forward_pre_hook": "monkey_patch",
    "register_full_backward_hook": "monkey_patch", "register_backward_hook": "monkey_patch",
    "register_full_backward_pre_hook": "monkey_patch", "register_hook": "monkey_patch",
    "register_module_forward_hook": "monkey_patch",
    "register_module_forward_pre_hook": "monkey_patch",
    "record_stream": "side_stream", "wait_stream": "side_stream", "wait_event": "side_stream",
    "f_back": "reflection", "f_globals": "reflection", "f_locals": "reflection",
    "f_builtins": "reflection", "f_code": "reflection", "tb_frame": "reflection",
    "tb_next": "reflection", "gi_frame": "reflection", "gi_code": "reflection",
    "cr_frame": "reflection", "ag_frame": "reflection", "co_code": "reflection",
    "co_consts": "reflection", "co_names": "reflection",
}

# Dunder attributes a candidate may use (super().__init__()).
ALLOWED_DUNDER_ATTRIBUTES = frozenset({"__init__"})
# Dunder names usable as plain names (`if __name__ == "__main__":`).
ALLOWED_DUNDER_NAMES = frozenset({"__name__"})
# Dunder methods a candidate's classes may define; others (e.g. __torch_function__,
# __del__, __getattribute__) run candidate code at moments the harness does not choose.
ALLOWED_DUNDER_METHODS = frozenset({"__init__", "__call__", "__repr__", "__str__", "__len__"})
# Classes a candidate may not subclass: overriding tensor behaviour reaches the harness.
FORBIDDEN_BASES = frozenset({"torch.Tensor", "torch._C", "triton.runtime", "triton.JITFunction"})

# Decorators that make a function a Triton kernel.
KERNEL_DECORATORS = frozenset({"triton.jit", "triton.autotune", "triton.heuristics"})


def prefix_match(name: str, table: dict[str, str] | frozenset | list) -> str | None:
    """The longest table entry that is `name` or a dotted prefix of it."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        key = ".".join(parts[:i])
        if key in table:
            return key
    return None
