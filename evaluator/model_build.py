"""Seeded construction of a problem's Model or a candidate's ModelNew (evaluator.runner):
the same seed, the same draws, in the reference child and the candidate's."""
from __future__ import annotations

import random
from collections.abc import Callable

import numpy
import torch


def seed_everything(seed: int) -> None:
    random.seed(seed)
    numpy.random.seed(seed % (1 << 32))
    torch.manual_seed(seed)


def build(factory: Callable[[], torch.nn.Module], seed: int, device: str,
          init: str | None = None) -> tuple[torch.nn.Module, str]:
    """`factory()` seeded, on `device`, and where its parameters were drawn: "device" (built
    under the device as torch's default, so its random initialisation runs there) or "host"
    (built on the CPU and moved). A KernelBench GEMM's 4 GiB of weights took ~6 s to draw on
    the host, and a reference is built three times per evaluation. `init`: "host" or "device"
    to build there only (the candidate's and the timing run's Model are drawn where the
    cached reference's were), None to try the device first and the host where the device
    build raises (a Model that mixes its CPU init inputs with new tensors, say); running out
    of device memory is never a reason to try the host."""
    if device != "cpu" and init != "host":
        try:
            seed_everything(seed)
            with torch.device(device):
                return factory().to(device), "device"
        except torch.OutOfMemoryError:
            raise
        except BaseException:  # deliberate: the host build below reports the Model's failure
            if init == "device":
                raise
    seed_everything(seed)
    from evaluator import candidate_env

    candidate_env.BUILDING[0] = True  # what it makes lives on the device on the GPU (above)
    try:
        return factory().to(device), "host"
    finally:
        candidate_env.BUILDING[0] = False
